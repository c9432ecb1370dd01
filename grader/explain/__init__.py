"""Checking typed explanations: claims matched clause by clause, through the field's lexicon.

``grader.check_explanation`` is the face; this package holds the parts: :mod:`.check` (the check of one
explanation, its suggested rating and the record kept of it), :mod:`.rubric` (what a key point must
say, and the misconceptions to listen for), :mod:`.claims` (a rubric's claim found in one sentence,
with its polarity and its figure), :mod:`.text_match` (phrases found in free text: stems, numbers by
value, typos, shorthand, negation), :mod:`.lexicon` (the field's concepts and the ways candidates say
them) and :mod:`.shape` (whether a sentence is a sentence, or keyword salad).
"""
