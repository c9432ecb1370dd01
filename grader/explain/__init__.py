"""Reading typed explanations: claims matched sentence by sentence, through the field's lexicon.

``grader.check_explanation`` is the face; this package holds the parts: :mod:`grader.explain.lexicon`
(the field's concepts and the ways candidates say them), :mod:`grader.explain.shape` (whether a
sentence is a sentence, or keyword salad) and :mod:`grader.explain.claims` (a rubric's claim found in
one sentence, with its polarity and its figure).
"""
