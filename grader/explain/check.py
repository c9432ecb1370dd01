"""Checking a typed explanation against a recall problem's key points and misconceptions.

``check_explanation(problem, text)`` never raises: whatever the text, it returns an
:class:`ExplanationCheck` with one hit flag and the matched words per key point, the names of the
misconceptions found, and the FSRS rating the points suggest (all made → ``good``, at least half →
``hard``, fewer → ``again``; any misconception → ``again``). The user may overrule any check; the
record of what was typed, detected and overruled is an :class:`ExplanationRecord`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from grader.explain.arithmetic import slips as arithmetic_slips
from grader.explain.claims import Found, Reading, cap_salad
from grader.explain.text_match import Match
from grader.problem import Problem

_log = logging.getLogger(__name__)

RATINGS = ("again", "hard", "good", "easy")
#: Share of key points at or above which a rating of ``hard`` (rather than ``again``) is suggested.
MOST_SHARE = 0.5
#: Characters of an explanation that are read: the recall answer's cap (``MAX_RESPONSE_CHARS``).
MAX_EXPLANATION_CHARS = 20_000


@dataclass(frozen=True)
class ExplanationCheck:
    """What an explanation says: ``hits`` and ``evidence`` aligned with ``problem.key_points``.

    ``spans`` are the (start, end) character ranges of the text that made each point, and
    ``misconception_spans`` those of each misconception found (same order as ``misconceptions``).
    ``sentences`` holds, per key point, the sentence that made it ("" when missed);
    ``wrong_figures`` per key point, what the text said instead of the point's figure ("" when
    none); ``misconception_sentences`` the sentence that asserts each misconception found.
    ``empty`` is true when nothing was typed; ``checkable`` is false when the problem has no rubrics;
    ``truncated`` when only the first :data:`MAX_EXPLANATION_CHARS` characters were read.
    """

    hits: tuple[bool, ...]
    evidence: tuple[tuple[str, ...], ...]
    misconceptions: tuple[str, ...]
    suggested_rating: str
    spans: tuple[tuple[tuple[int, int], ...], ...] = ()
    misconception_spans: tuple[tuple[tuple[int, int], ...], ...] = ()
    empty: bool = False
    checkable: bool = True
    sentences: tuple[str, ...] = ()
    wrong_figures: tuple[tuple[str, str], ...] = ()
    misconception_sentences: tuple[str, ...] = ()
    truncated: bool = False
    #: Per key point: the text says its claim and denies it (see :meth:`Reading.denial`).
    contradicted: tuple[bool, ...] = ()
    #: Per key point: the sentence that denies it ("" when none).
    denial_sentences: tuple[str, ...] = ()
    #: Sums the text works out wrong ("989e12 / 3.35e12 is about 295, not 29.5"), and where they stand.
    slips: tuple[str, ...] = ()
    slip_spans: tuple[tuple[int, int], ...] = ()
    #: The text strings terms together more than it links them into claims (keyword salad): it
    #: makes one point at most and asserts nothing.
    salad: bool = False

    @property
    def points_made(self) -> int:
        return sum(self.hits)

    def wrong_claim(self, index: int) -> bool:
        """Key point ``index`` is denied, or its figure is given badly wrong."""
        denied = index < len(self.contradicted) and self.contradicted[index]
        figure = index < len(self.wrong_figures) and bool(self.wrong_figures[index][0])
        return denied or figure

    @property
    def wrong_claims(self) -> int:
        """Missed key points the text gets wrong rather than leaves out, and sums worked out wrong."""
        return sum(1 for i, hit in enumerate(self.hits) if not hit and self.wrong_claim(i)) + len(self.slips)


def suggest_rating(*, points_made: int, points_total: int, misconceptions: int, wrong_claims: int = 0) -> str:
    """The rating the checks suggest: all points → good, at least half → hard, fewer → again.

    Any misconception, or any wrong claim (a key point denied, or its figure badly wrong) → again.
    """
    if misconceptions or wrong_claims or points_total <= 0:
        return "again"
    if points_made >= points_total:
        return "good"
    return "hard" if points_made / points_total >= MOST_SHARE else "again"


def _words(text: str, matches: Sequence[Match]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(text[m.start : m.end] for m in sorted(matches, key=lambda m: m.start)))


def _spans(matches: Sequence[Match]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({(m.start, m.end) for m in matches}))


def _nothing(problem: Problem, *, empty: bool, checkable: bool = True) -> ExplanationCheck:
    n = len(problem.key_points)
    return ExplanationCheck(
        hits=(False,) * n,
        evidence=((),) * n,
        misconceptions=(),
        suggested_rating="again",
        spans=((),) * n,
        empty=empty,
        checkable=checkable,
        sentences=("",) * n,
        wrong_figures=(("", ""),) * n,
    )


def _not_in_wrong_claims(reading: Reading, points: list[Found], wrong: list[Found]) -> list[Found]:
    """Points whose words all stand in a segment of a sentence that asserts a misconception are not made:
    "decode is one token, tiny, so it's compute-bound" credits nothing about decode's one token."""
    if not wrong:
        return points
    bad = {reading.text.tokens[m.first].segment for f in wrong for m in f.matches}
    out: list[Found] = []
    for p in points:
        segments = {reading.text.tokens[m.first].segment for m in p.matches}
        out.append(Found(made=False) if p.made and segments <= bad else p)
    return out


def check_explanation(problem: Problem, text: str) -> ExplanationCheck:
    """Which of ``problem.key_points`` the explanation makes, and which misconceptions it asserts.

    Only the first :data:`MAX_EXPLANATION_CHARS` characters are read (``truncated`` says so).
    """
    try:
        if not isinstance(text, str) or not text.strip():
            return _nothing(problem, empty=True)
        rubrics = problem.key_point_rubrics
        if len(rubrics) != len(problem.key_points) or not rubrics:
            return _nothing(problem, empty=False, checkable=False)
        truncated = len(text) > MAX_EXPLANATION_CHARS
        text = text[:MAX_EXPLANATION_CHARS]
        reading = Reading(text)
        points = cap_salad(reading, [reading.point(rubric) for rubric in rubrics])
        found: list[tuple[str, Found]] = []
        # A text that is mostly salad makes no coherent claim: it asserts no misconception either.
        for m in () if reading.mostly_salad else problem.misconceptions:
            asserted = reading.misconception(m.rubric)
            if asserted.made:
                found.append((m.name, asserted))
        points = _not_in_wrong_claims(reading, points, [f for _, f in found])
        hits = tuple(p.made for p in points)
        denials = tuple(
            -1 if p.made or reading.mostly_salad else reading.denial(rubric)
            for p, rubric in zip(points, rubrics, strict=True)
        )
        contradicted = tuple(sentence >= 0 for sentence in denials)
        slips = [] if reading.mostly_salad else arithmetic_slips(text)
        check = ExplanationCheck(
            hits=hits,
            evidence=tuple(_words(text, p.matches) if p.made else () for p in points),
            misconceptions=tuple(name for name, _ in found),
            suggested_rating="",
            spans=tuple(_spans(p.matches) if p.made else () for p in points),
            misconception_spans=tuple(_spans(f.matches) for _, f in found),
            sentences=tuple(reading.span_text(p.matches) if p.made else "" for p in points),
            wrong_figures=tuple((p.wrong_figure, p.expected_figure) for p in points),
            misconception_sentences=tuple(reading.sentence_text(f.sentence) for _, f in found),
            truncated=truncated,
            contradicted=contradicted,
            denial_sentences=tuple(reading.sentence_text(s) if s >= 0 else "" for s in denials),
            slips=tuple(slip.message() for slip in slips),
            slip_spans=tuple((slip.start, slip.end) for slip in slips),
            salad=reading.mostly_salad,
        )
        # The rating from the check's own count of wrong claims, the one the page and the record use.
        rating = suggest_rating(
            points_made=sum(hits),
            points_total=len(hits),
            misconceptions=len(found),
            wrong_claims=check.wrong_claims,
        )
        return replace(check, suggested_rating=rating)
    except Exception:  # the promise is "never raises": a checker bug must not cost an answer
        _log.exception("explanation check failed for %s", problem.template_id)
        return _nothing(problem, empty=False, checkable=False)


class ExplanationDict(TypedDict):
    """The stored (JSON) form of an :class:`ExplanationRecord`."""

    text: str
    detected: list[bool]
    evidence: list[list[str]]
    misconceptions: list[str]
    overrides: dict[str, bool]
    misconception_overrides: dict[str, bool]
    suggested_rating: str
    rating: str | None
    seconds: float | None
    time_limit_s: float | None
    made: list[bool]
    standing_misconceptions: list[str]
    score: float
    probes: dict[str, bool]
    slips: list[str]
    slip_overrides: dict[str, bool]


@dataclass(frozen=True)
class ExplanationRecord:
    """What was typed, what the checks found and how the user overruled them.

    ``overrides`` maps a key point's index to the user's verdict where it differs from the check;
    ``misconception_overrides`` maps a detected misconception's name to whether the user agrees it
    was shown (False: a false alarm). ``probes`` maps a key point's index to whether its follow-up
    question was answered right; a point missed by the check and then shown on the follow-up is
    made. ``seconds`` is the time spent typing, ``time_limit_s`` the timer the user chose (None:
    untimed).
    """

    text: str
    check: ExplanationCheck
    overrides: Mapping[int, bool] = field(default_factory=dict)
    misconception_overrides: Mapping[str, bool] = field(default_factory=dict)
    probes: Mapping[int, bool] = field(default_factory=dict)
    #: A detected arithmetic slip (by its message) → whether the user agrees it is one (False: dismissed).
    slip_overrides: Mapping[str, bool] = field(default_factory=dict)
    rating: str | None = None
    seconds: float | None = None
    time_limit_s: float | None = None

    @property
    def made(self) -> tuple[bool, ...]:
        """Each key point's final verdict: the user's overrule, else the check or its follow-up."""
        return tuple(
            self.overrides.get(i, hit or self.probes.get(i, False)) for i, hit in enumerate(self.check.hits)
        )

    @property
    def misconceptions(self) -> tuple[str, ...]:
        """The misconceptions the user did not dismiss."""
        return tuple(m for m in self.check.misconceptions if self.misconception_overrides.get(m, True))

    @property
    def points_made(self) -> int:
        return sum(self.made)

    @property
    def score(self) -> float:
        """Share of key points made, halved when a misconception stands (0..1)."""
        total = len(self.made)
        share = self.points_made / total if total else 0.0
        return share / 2 if self.misconceptions else share

    @property
    def suggested_rating(self) -> str:
        """The rating the final verdicts suggest (after overrules)."""
        return suggest_rating(
            points_made=self.points_made,
            points_total=len(self.made),
            misconceptions=len(self.misconceptions),
            wrong_claims=self.wrong_claims,
        )

    @property
    def slips(self) -> tuple[str, ...]:
        """The arithmetic slips the user did not dismiss."""
        return tuple(s for s in self.check.slips if self.slip_overrides.get(s, True))

    @property
    def wrong_claims(self) -> int:
        """Wrong claims (denied points, wrong figures) on points the final verdicts leave missed, and the
        arithmetic slips that stand."""
        points = sum(1 for i, made in enumerate(self.made) if not made and self.check.wrong_claim(i))
        return points + len(self.slips)

    def to_dict(self) -> ExplanationDict:
        return {
            "text": self.text,
            "detected": list(self.check.hits),
            "evidence": [list(words) for words in self.check.evidence],
            "misconceptions": list(self.check.misconceptions),
            "overrides": {str(i): made for i, made in sorted(self.overrides.items())},
            "misconception_overrides": dict(sorted(self.misconception_overrides.items())),
            "suggested_rating": self.suggested_rating,
            "rating": self.rating,
            "seconds": self.seconds,
            "time_limit_s": self.time_limit_s,
            "made": list(self.made),
            "standing_misconceptions": list(self.misconceptions),
            "score": self.score,
            "probes": {str(i): right for i, right in sorted(self.probes.items())},
            "slips": list(self.check.slips),
            "slip_overrides": dict(sorted(self.slip_overrides.items())),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ExplanationRecord:
        detected = tuple(bool(x) for x in data.get("detected", []))
        check = ExplanationCheck(
            hits=detected,
            evidence=tuple(tuple(str(w) for w in words) for words in data.get("evidence", [])),
            misconceptions=tuple(str(m) for m in data.get("misconceptions", [])),
            suggested_rating=str(data.get("suggested_rating", "again")),
            empty=not str(data.get("text", "")).strip(),
            slips=tuple(str(s) for s in data.get("slips", [])),
        )
        return ExplanationRecord(
            text=str(data.get("text", "")),
            check=check,
            overrides={int(i): bool(v) for i, v in dict(data.get("overrides", {})).items()},
            misconception_overrides={
                str(k): bool(v) for k, v in dict(data.get("misconception_overrides", {})).items()
            },
            probes={int(i): bool(v) for i, v in dict(data.get("probes", {})).items()},
            slip_overrides={str(k): bool(v) for k, v in dict(data.get("slip_overrides", {})).items()},
            rating=data.get("rating"),
            seconds=data.get("seconds"),
            time_limit_s=data.get("time_limit_s"),
        )
