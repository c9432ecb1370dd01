"""A rubric's claim found in a typed explanation: its concepts together in one sentence, said, not denied.

A key point's rubric lists concepts (each a tuple of alternative phrases, widened by the field's
lexicon). The point is made by one sentence that holds enough of its concepts (``need``, default all)
with positive polarity: no negation over them in their clause, no frame that rejects them ("a common
mistake is..."), and not a sentence of keyword salad. Concepts scattered over different sentences do
not make a point. A concept whose alternatives are all figures is the point's value: a sentence that
holds the point's other concepts but a different figure does not make it, and the check says which
figure it read. A misconception is found when one sentence asserts all of its concepts.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from grader.explain.arithmetic import Stated, stated_results, unit_base
from grader.explain.lexicon import alternatives
from grader.explain.rubric import Rubric
from grader.explain.shape import (
    is_chained,
    is_garbled,
    is_salad,
    is_sparse,
    is_stacked,
    is_vague,
    list_items,
)
from grader.explain.text_match import Match, Text, Token, phrase_tokens


@dataclass(frozen=True)
class Found:
    """One claim as read in a text: whether it is made, where, and what figure went wrong.

    ``matches`` are the phrases that made it (in ``sentence``, an index into the text's sentences);
    ``wrong_figure`` is the figure as typed where the point's sentence gave another one, else "".
    """

    made: bool
    matches: tuple[Match, ...] = ()
    sentence: int = -1
    wrong_figure: str = ""
    expected_figure: str = ""
    #: The point's claim is said and denied ("decode is not bandwidth-bound", "it is false that ..."):
    #: the text asserts the point's opposite, which an interviewer marks down as a wrong claim.
    contradicted: bool = False


class WrongFigure(TypedDict, total=False):
    """Found's figure fields, set together where a sentence gave a figure other than the point's."""

    wrong_figure: str
    expected_figure: str


@functools.lru_cache(maxsize=2048)
def _concept_phrases(concept: tuple[str, ...]) -> tuple[tuple[Token, ...], ...]:
    return tuple(phrase_tokens(p) for p in alternatives(concept) if phrase_tokens(p))


@functools.lru_cache(maxsize=1024)
def _figure_concept(rubric: Rubric) -> int:
    """The concept with the point's value among its phrases ("200" beside "@ridge"); -1 when none."""
    value = rubric.value
    if value is None:
        return -1
    for index, concept in enumerate(rubric.concepts):
        for phrase in concept:
            tokens = phrase_tokens(phrase)
            if len(tokens) == 1 and tokens[0].number is not None and _close(tokens[0].number, value, 0.1):
                return index
    return -1


def _is_figure(concept: tuple[str, ...]) -> bool:
    phrases = [phrase_tokens(p) for p in concept]
    return bool(phrases) and all(p and all(t.number is not None for t in p) for p in phrases)


class Reading:
    """A text read once for many claims: its tokens, its sentences, and which are salad."""

    def __init__(self, text: str) -> None:
        self.text = Text(text)
        tokens = self.text.tokens
        bounds: dict[int, tuple[int, int]] = {}
        for t in tokens:
            start, end = bounds.get(t.sentence, (t.start, t.end))
            bounds[t.sentence] = (min(start, t.start), max(end, t.end))
        self.bounds = bounds
        order = sorted(bounds)
        # The salad test reads the sentence as typed, filler words included: up to the next one.
        ends = {s: bounds[n][0] for s, n in itertools.pairwise(order)}
        self.salad = {s for s, (start, _) in bounds.items() if is_salad(text[start : ends.get(s, len(text))])}
        #: Sentences that list short terms ("NVLink, all-reduce, columns rows, bandwidth N times, ..."):
        #: sentence → the character offsets where each listed item ends.
        self.lists: dict[int, list[int]] = {}
        for s, (start, _) in bounds.items():
            items = list_items(text[start : ends.get(s, len(text))])
            if items:
                self.lists[s] = [start + end for end in items]
        # Lists of terms beside prose are a writer's notes ("symptom: bandwidth near peak, FLOP/s a tiny
        # fraction, ..."); a text made mostly of them strings terms together.
        if sum(1 for t in tokens if t.sentence in self.lists) * 2 < len(tokens):
            self.lists = {}
        salad_words = sum(1 for t in tokens if t.sentence in self.salad)
        #: Most of the text is salad: it makes one point at most.
        self.mostly_salad = bool(tokens) and (
            salad_words * 2 >= len(tokens)
            or any(test(text) for test in (is_sparse, is_garbled, is_stacked, is_chained, is_vague))
        )

    def sentence_text(self, sentence: int) -> str:
        """The sentence as typed."""
        start, end = self.bounds.get(sentence, (0, 0))
        return self.text.text[start:end]

    def _matches(
        self, concept: tuple[str, ...], *, negatable: bool = True, dismissable: bool = False
    ) -> list[Match]:
        out: list[Match] = []
        for phrase in _concept_phrases(concept):
            out.extend(
                m
                for m in self.text.find(phrase, negatable=negatable, dismissable=dismissable)
                if self.text.tokens[m.first].sentence not in self.salad
            )
        return out

    def denial(self, rubric: Rubric) -> int:
        """The sentence that says the point's claim and denies it (-1: none).

        Every concept the point needs is there; its first concept, the claim's subject, is said
        plainly, and another only under its clause's negation ("decode is not bandwidth-bound"); or
        the whole claim stands under a denying frame ("it is false that ..."); or one of the point's
        ``contrary`` claims is asserted, read as a misconception is. A negation over the
        subject itself is a condition on the claim, not its denial ("no help if the prompts
        diverge"); a sentence that rejects a belief ("don't assume ...") is read by the
        misconceptions, not here.
        """
        if not rubric.concepts:
            return -1
        for claim in rubric.contrary:
            if (asserted := self.misconception(claim)).made:
                return asserted.sentence
        tokens = self.text.tokens
        said: dict[int, dict[int, list[Match]]] = {}
        denied: set[tuple[int, int]] = set()
        for index, concept in enumerate(rubric.concepts):
            for phrase in _concept_phrases(concept):
                negates = any(t.negation for t in phrase)
                for m in self.text.find(phrase, negatable=False):
                    sentence = tokens[m.first].sentence
                    if sentence in self.salad:
                        continue
                    said.setdefault(sentence, {}).setdefault(index, []).append(m)
                    # A phrase that holds its own negation ("no matter how big") denied again is
                    # a double negative, not a denial.
                    if not negates and self.text.denies(m, phrase_negates=False):
                        denied.add((m.first, m.last))
        for sentence, found in said.items():
            if len(found) < rubric.required or 0 not in found:
                continue
            spans = [m for ms in found.values() for m in ms]
            if all(any(t.denied for t in tokens[m.first : m.last + 1]) for m in spans):
                return sentence  # "It is false that <the point>"
            if any(t.rejected and not t.denied for t in tokens if t.sentence == sentence):
                continue
            subject_said = any((m.first, m.last) not in denied for m in found[0])
            if subject_said and any(
                all((m.first, m.last) in denied for m in ms) for i, ms in found.items() if i
            ):
                return sentence
        return -1

    def _by_sentence(self, rubric: Rubric) -> dict[int, dict[int, Match]]:
        """Window → {concept index: its first match there}.

        Window ``w`` is sentence ``w`` with the one before it: a point may be made over two
        neighbouring sentences ("AI = FLOPs / bytes. The A100's ridge is about 200."), not further.
        """
        out: dict[int, dict[int, Match]] = {}
        for index, concept in enumerate(rubric.concepts):
            # A point's words in a clause that sets them aside ("traffic isn't the bottleneck")
            # do not make it; a misconception or a contrary claim may say just that.
            for m in sorted(self._matches(concept, dismissable=True), key=lambda m: m.start):
                sentence = self.text.tokens[m.first].sentence
                for window in (sentence, sentence + 1):
                    out.setdefault(window, {}).setdefault(index, m)
        # The subject of a rejected clause stays the subject of the pronoun that answers it:
        # "don't assume the KV cache amortises like the weights: it's per sequence".
        for m, sentence in self._antecedents(rubric.concepts[0]):
            for window in (sentence, sentence + 1):
                out.setdefault(window, {}).setdefault(0, m)
        return out

    def _antecedents(self, concept: tuple[str, ...]) -> list[tuple[Match, int]]:
        """Matches of ``concept`` in a rejected clause that a later clause of the sentence (or the next
        one) takes up with a pronoun, each with the sentence of that pronoun's clause."""
        tokens = self.text.tokens
        out: list[tuple[Match, int]] = []
        for phrase in _concept_phrases(concept):
            for m in self.text.find(phrase, negatable=False):
                span = tokens[m.first : m.last + 1]
                if not all(t.rejected for t in span):
                    continue
                sentence = span[0].sentence
                answer = next(
                    (
                        t
                        for t in tokens[m.last + 1 :]
                        if t.sentence <= sentence + 1
                        and t.refers
                        and not t.rejected
                        and not t.negated
                        and t.clause != span[-1].clause
                    ),
                    None,
                )
                if answer is not None and answer.sentence not in self.salad:
                    out.append((m, answer.sentence))
        return out

    def span_text(self, matches: Sequence[Match]) -> str:
        """The sentences the matches stand in, as typed."""
        if not matches:
            return ""
        sentences = [self.text.tokens[m.first].sentence for m in matches]
        start = self.bounds[min(sentences)][0]
        end = self.bounds[max(sentences)][1]
        return self.text.text[start:end]

    def point(self, rubric: Rubric) -> Found:
        """Whether one sentence makes the key point ``rubric`` describes, with the right figure."""
        if not rubric.concepts:
            return Found(made=False)
        per_sentence = self._by_sentence(rubric)
        wrong: WrongFigure = {}
        ranked = sorted(per_sentence.items(), key=lambda item: (-len(item[1]), item[0]))
        for sentence, found in ranked:
            if len(found) < rubric.required:
                break
            if self._scattered(found.values()):
                continue
            if self._forbidden(rubric):
                return Found(made=False)
            figure = self._stated_figure(rubric, sentence, found)
            if figure is None:
                figure = self._stated_result(rubric, self._figure_sentences(rubric, found))
            if figure is not None:
                wrong = wrong or {"wrong_figure": figure, "expected_figure": _figure_text(rubric)}
                continue
            return Found(made=True, matches=tuple(found[i] for i in sorted(found)), sentence=sentence)
        return Found(made=False, **(wrong or self._wrong_result(rubric, per_sentence)))

    def _wrong_result(self, rubric: Rubric, per_sentence: dict[int, dict[int, Match]]) -> WrongFigure:
        """Where the point is missed for want of its figure: the result its sentence states instead
        ("4096/6 ≈ 683 FLOP/B" for the matmul's 1,365), or the figure that stands in its place."""
        if rubric.value is not None:
            for _, found in sorted(per_sentence.items()):
                if len(found) < max(1, rubric.required - 1) or 0 not in found:
                    continue
                # Said of the point's subject, after it in its sentence: "W4A16 ... B* ≈ 148".
                subject = found[0]
                said = self._stated_result(
                    rubric, {(self.text.tokens[subject.first].sentence, subject.start)}
                )
                if said is not None:
                    return {"wrong_figure": said, "expected_figure": _figure_text(rubric)}
        return self._wrong_figure(rubric, per_sentence)

    def _stated_figure(self, rubric: Rubric, sentence: int, found: dict[int, Match]) -> str | None:
        """A figure said in the point's unit in ``sentence`` that is not the point's value (as typed).

        None when the sentence states the value, or no figure in that unit. Where the concept that
        carries the figure is said ("the ridge"), only figures after it in its sentence count: "1
        FLOP/B, far under the ridge" gives decode's figure, not the ridge's.
        """
        if rubric.value is None or not rubric.value_unit:
            return None
        unit = phrase_tokens(rubric.value_unit)
        tokens = self.text.tokens
        carrier = found.get(_figure_concept(rubric))
        said: list[Token] = []
        for m in self.text.find(unit, negatable=False):
            if tokens[m.first].sentence != sentence and tokens[m.first].sentence + 1 != sentence:
                continue
            if carrier is not None and (
                tokens[m.first].sentence != tokens[carrier.first].sentence or m.first < carrier.first
            ):
                continue
            if m.last - m.first != len(unit) - 1:
                continue  # "1 FLOP / 12 B" is no figure in FLOP/B: a unit is written without a gap
            before = tokens[m.first - 1] if m.first > 0 else None
            if before is None or before.number is None:
                continue
            if m.first > 1 and tokens[m.first - 2].norm in _DIVIDING:
                continue  # "989 over 3.35 — FLOPs per byte": a divisor, the figure is the quotient
            if _same_quantity(before.number, rubric.value):
                said.append(before)
        if not said:
            return None
        if any(_close(t.number or 0.0, rubric.value, rubric.value_rel_tol) for t in said):
            return None
        # The value stated as a bare result beside another quantity's figure in the unit: "AI ≈ B
        # FLOP/B, ≈ 1 @ B=1 ... ridge ≈ 295 FLOP/B" gives decode's 1 and the ridge's 295.
        window = [self.bounds[s] for s in (sentence - 1, sentence) if s in self.bounds]
        after = tokens[carrier.first].start if carrier is not None else window[0][0] if window else 0
        end = window[-1][1] if window else 0
        if any(
            after <= r.start < end
            and not r.unit
            and any(_close(v, rubric.value, rubric.value_rel_tol) for v in r.readings)
            for r in self._results
        ):
            return None
        return self.text.text[said[0].start : said[0].end] + " " + rubric.value_unit

    @functools.cached_property
    def _results(self) -> list[Stated]:
        return stated_results(self.text.text)

    def _figure_sentences(self, rubric: Rubric, found: dict[int, Match]) -> set[tuple[int, int]]:
        """Where the point's figure is said, as (sentence, first character): after the concept that
        carries the figure (the one with the value among its phrases: "the ridge ... 200") in its
        sentence, else anywhere in the point's sentences."""
        carrier = _figure_concept(rubric)
        if carrier in found:
            return {(self.text.tokens[found[carrier].first].sentence, found[carrier].start)}
        return {(self.text.tokens[m.first].sentence, 0) for m in found.values()}

    def _stated_result(self, rubric: Rubric, sentences: set[tuple[int, int]]) -> str | None:
        """A result the point's sentences work out or states ("B* = 989e12 × 0.5 / 3.35e12 ≈ 148",
        "roughly 82 KB") for the point's quantity, badly off its value (as typed); None when none is,
        or when one result there states the value.

        A result counts as the point's quantity when its unit has the point's base (bytes, seconds,
        FLOP/B), or it has no unit, and it is within :data:`SAME_QUANTITY_RATIO` of the value either
        way; it is badly off from :data:`BADLY_OFF_RATIO` on, as the labelled texts mark a figure wrong.
        """
        if rubric.value is None or rubric.value <= 0:
            return None
        spans = [
            (max(self.bounds[s][0], after), self.bounds[s][1]) for s, after in sentences if s in self.bounds
        ]
        base, scale = unit_base(rubric.value_unit)
        verdicts: list[tuple[bool, Stated]] = []
        for result in self._results:
            if not any(start <= result.start < end for start, end in spans):
                continue
            if result.unit:
                said_base, _ = unit_base(result.unit)
                if not base or said_base != base:
                    continue
                value = rubric.value * scale
            else:
                value = rubric.value
            ratios = [r / value for r in result.readings if r > 0 and math.isfinite(r)]
            same = [q for q in ratios if 1 / SAME_QUANTITY_RATIO < q < SAME_QUANTITY_RATIO]
            if not same:
                continue
            right = any(1 / BADLY_OFF_RATIO < q < BADLY_OFF_RATIO for q in same)
            if result.counts and base and not right:
                continue  # "~60 words per second" beside a step time counts another quantity
            verdicts.append((right, result))
        if not verdicts or any(right for right, _ in verdicts):
            return None
        said = verdicts[0][1]
        return said.typed if said.unit else f"{said.typed} {rubric.value_unit}".strip()

    def _scattered(self, matches: Iterable[Match]) -> bool:
        """Two of the matches stand in different items of one list of terms: listed side by side, the
        terms are not said of each other ("bandwidth N times, fits memory" claims nothing)."""
        placed: dict[int, set[int]] = {}
        for m in matches:
            sentence = self.text.tokens[m.first].sentence
            ends = self.lists.get(sentence)
            if ends is not None:
                placed.setdefault(sentence, set()).add(bisect.bisect_left(ends, m.start + 1))
        return any(len(items) > 1 for items in placed.values())

    def _forbidden(self, rubric: Rubric) -> bool:
        return any(self.text.find(phrase_tokens(p)) for p in rubric.forbid)

    def _wrong_figure(self, rubric: Rubric, per_sentence: dict[int, dict[int, Match]]) -> WrongFigure:
        """Where the point's words stand with a figure other than its own: that figure, and its own."""
        figures = [i for i, concept in enumerate(rubric.concepts) if _is_figure(concept)]
        if len(figures) != 1:
            return {}
        if rubric.need == 1 or len(rubric.concepts) < 2:
            return {}  # the figure is one way among others to make the point, not a must
        figure = figures[0]
        expected = rubric.concepts[figure][0]
        for sentence, found in sorted(per_sentence.items()):
            if figure in found or len(found) < rubric.required - 1:
                continue
            typed = [
                t
                for t in self.text.tokens
                if t.sentence == sentence and t.number is not None and not t.negated and t.number != 0
            ]
            if typed:
                wrong = self.text.text[typed[-1].start : typed[-1].end]
                return {"wrong_figure": wrong, "expected_figure": expected}
        return {}

    def misconception(self, rubric: Rubric) -> Found:
        """Whether one segment of a sentence asserts every concept of a misconception's rubric.

        The first concept is the claim's subject. A ``contrast`` phrase between two of the concepts
        pairs them with something else; so does one before them when the subject comes last, since a
        predicate reads as said of the subject before it ("prefill above → compute-bound, decode far
        below → bandwidth-bound" says nothing compute-bound about decode).
        """
        if not rubric.concepts:
            return Found(made=False)
        per_segment: dict[int, list[list[Match]]] = {}
        for index, concept in enumerate(rubric.concepts):
            for m in sorted(self._matches(concept), key=lambda m: m.start):
                lists = per_segment.setdefault(
                    self.text.tokens[m.first].segment, [[] for _ in rubric.concepts]
                )
                lists[index].append(m)
        between = sorted(
            m.first for p in rubric.contrast for m in self.text.find(phrase_tokens(p), negatable=False)
        )
        subjects = sorted(self._matches(rubric.concepts[0]), key=lambda m: m.first)
        for segment, lists in sorted(per_segment.items()):
            if not lists[0] and all(lists[1:]):
                # "Overhead-bound: Python and launches; it shrinks with smaller tensors": a segment that
                # opens with a pronoun speaks of the subject said just before it.
                lists = [self._referent(segment, subjects), *lists[1:]]
            if not all(lists):
                continue
            for combo in itertools.islice(itertools.product(*lists), 64):
                first = min(m.first for m in combo)
                last = max(m.first for m in combo)
                if any(first < position < last for position in between):
                    continue
                if combo[0].first != first and any(
                    position < first and self.text.tokens[position].segment == segment for position in between
                ):
                    continue
                sentence = self.text.tokens[first].sentence
                return Found(made=True, matches=tuple(combo), sentence=sentence)
        return Found(made=False)

    def _referent(self, segment: int, subjects: Sequence[Match]) -> list[Match]:
        """The subject a pronoun-led ``segment`` takes up: the last one said before it, in its sentence
        or the one before (none when the segment does not open with a pronoun)."""
        tokens = self.text.tokens
        head = next((t for t in tokens if t.segment == segment), None)
        if head is None or not head.refers:
            return []
        start = tokens.index(head)
        before = [m for m in subjects if m.last < start and tokens[m.first].sentence >= head.sentence - 1]
        return before[-1:]


#: Words that make the number after them a divisor ("989 over 3.35", "989/3.35").
_DIVIDING = frozenset(("over", "per"))

#: A figure in the point's unit this many times off (or more) names another quantity ("Llama 2 13B"
#: beside a KV cache of 819,200 B), not a slip in this one (29.5 for 295, 2,950 for 295).
OTHER_QUANTITY_RATIO = 1000.0


#: A stated result within this factor of a point's value (either way) is taken for that quantity.
SAME_QUANTITY_RATIO = 30.0
#: A stated result this many times off the point's value (or more) is wrong, not rounded.
BADLY_OFF_RATIO = 1.5


def _same_quantity(said: float, value: float) -> bool:
    if not (math.isfinite(said) and said > 0 and value > 0):
        return True
    ratio = said / value
    return 1 / OTHER_QUANTITY_RATIO < ratio < OTHER_QUANTITY_RATIO


def _close(a: float, b: float, rel_tol: float) -> bool:
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-12)


def _figure_text(rubric: Rubric) -> str:
    value = rubric.value or 0.0
    return f"{value:,.4g} {rubric.value_unit}".strip()


def cap_salad(reading: Reading, points: Sequence[Found]) -> list[Found]:
    """A text that is mostly salad keeps its first point at most."""
    if not reading.mostly_salad:
        return list(points)
    out: list[Found] = []
    kept = False
    for found in points:
        if found.made and not kept:
            out.append(found)
            kept = True
        else:
            out.append(Found(made=False))
    return out
