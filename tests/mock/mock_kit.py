"""Stand-ins for the mock tests: a few hand-made problems and a grader that is easy to reason about."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from grader.problem import Choice, Kind, Problem, SlipValue

T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


@dataclass(frozen=True)
class FakeVerdict:
    status: str
    score: float
    value: float | None = None
    exact: float | None = None
    unit: str = ""
    diagnosis: str | None = None
    diagnosis_text: str = ""
    message: str = ""


def fake_grade(problem: Problem, response: str) -> FakeVerdict:
    """Numbers within 5 %, a declared slip by name, the correct option index, recall ratings."""
    if problem.kind is Kind.RECALL:
        score = {"again": 0.0, "hard": 0.5, "good": 1.0, "easy": 1.0}[response]
        return FakeVerdict("correct" if score else "incorrect", score)
    if problem.kind is Kind.CHOICE:
        ok = problem.choices[int(response)].correct
        return FakeVerdict("correct" if ok else "incorrect", float(ok))
    try:
        value = float(response)
    except ValueError:
        return FakeVerdict("unparsable", 0.0, message="type a number")
    assert problem.answer is not None
    if abs(value - problem.answer) <= 0.05 * problem.answer:
        return FakeVerdict("correct", 1.0, value, problem.answer, problem.unit)
    slip = next((s for s in problem.slips if abs(value - s.value) <= 0.05 * s.value), None)
    return FakeVerdict(
        "incorrect", 0.0, value, problem.answer, problem.unit,
        slip.name if slip else None, slip.diagnosis if slip else "",
    )  # fmt: skip


KV = Problem(
    "kv-bytes", "kv-cache", Kind.NUMERIC, "KV bytes?", 1, answer=800.0, unit="B", title="KV | bytes",
    slips=(SlipValue("forgot-k-and-v", 400.0, "Each token stores both K and V."),),
)  # fmt: skip
RIDGE = Problem("ridge", "ops-byte-threshold", Kind.NUMERIC, "Ridge?", 2, answer=200.0, unit="FLOP/B")
REGIME = Problem(
    "regime", "three-regimes", Kind.CHOICE, "Which?", 3,
    choices=(Choice("compute", False, ""), Choice("bandwidth", True, ""), Choice("overhead", False, "")),
)  # fmt: skip
WHY = Problem("why-2p", "two-p-flops", Kind.RECALL, "Why 2P?", 4, key_points=("one multiply-add is 2 FLOPs",))
PROBLEMS = [KV, RIDGE, REGIME, WHY, KV]
