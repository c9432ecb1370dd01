"""Follow-through: a scenario step graded on the user's own earlier values, without the bank."""

from __future__ import annotations

import pytest

from grader import Choice, Kind, Problem, grade
from grader.derivation_text import derivation_lines
from grader.estimator import memory_time
from grader.follow_through import (
    Call,
    CarriedVerdict,
    Carry,
    ChainReport,
    Decision,
    Dependency,
    StepProblem,
    StepVerdict,
    carried_problem,
    chain_grader,
    grade_step,
)
from grader.verdict import Verdict, VerdictStatus

BANDWIDTH = 2.0e12  # B/s
WEIGHTS = 14.0e9  # B, the exact answer of step 1


def _steps() -> tuple[StepProblem, StepProblem]:
    """Step 1 asks the weight bytes; step 2 their read time, computed from step 1's value."""
    first = StepProblem(
        template_id="s", checklist_item="decode-weight-read", kind=Kind.NUMERIC, prompt="bytes?", seed=1,
        answer=WEIGHTS, unit="GB", step=1, n_steps=2,
    )  # fmt: skip
    second = StepProblem(
        template_id="s", checklist_item="decode-weight-read", kind=Kind.NUMERIC, prompt="time?", seed=1,
        answer=memory_time(n_bytes=WEIGHTS, mem_bandwidth=BANDWIDTH), unit="ms", step=2, n_steps=2,
        dependency=Dependency(
            calls=(Call("", "memory_time", {"mem_bandwidth": BANDWIDTH}, {"n_bytes": "weights"}),),
            carries=(Carry(step=1, name="weights", unit="GB", exact=WEIGHTS),),
        ),
    )  # fmt: skip
    return first, second


def test_a_step_is_recomputed_from_the_users_earlier_value() -> None:
    _, second = _steps()
    carried, used = carried_problem(second, {1: 20.0e9})
    assert used == (1,)
    assert carried.answer == pytest.approx(20.0e9 / BANDWIDTH)
    assert carried.slips == ()
    assert carried.derivation[0].label == "Carried from your step 1"
    assert "20 GB" in carried.derivation[0].shown and "exact: 14 GB" in carried.derivation[0].shown


def test_right_on_the_carried_value_is_correct_and_says_so() -> None:
    _, second = _steps()
    result = grade_step(second, "10 ms", earlier={1: 20.0e9})
    assert result.correct and result.carried_from == (1,)
    assert isinstance(result.verdict, CarriedVerdict) and result.verdict.carried_from == (1,)
    assert result.verdict.message.startswith("**Correct, carried forward from your step 1.**")
    assert grade(second, "10 ms").status is VerdictStatus.INCORRECT  # not right on the exact value


def test_right_on_the_exact_value_needs_no_carry() -> None:
    _, second = _steps()
    result = grade_step(second, "7 ms", earlier={1: 20.0e9})
    assert result.correct and not result.carried_forward


def test_wrong_on_both_stays_wrong_with_the_exact_verdict() -> None:
    _, second = _steps()
    result = grade_step(second, "100 ms", earlier={1: 20.0e9})
    assert not result.correct and not result.carried_forward
    assert result.verdict.exact == pytest.approx(7.0)


def test_a_carried_value_the_formula_cannot_take_earns_nothing() -> None:
    _, second = _steps()
    assert carried_problem(second, {1: float("inf")}) == (second, ())
    assert grade_step(second, "10 ms", earlier={1: float("nan")}).correct is False


def test_the_chain_grader_follows_earlier_positions_of_the_same_draw() -> None:
    first, second = _steps()
    atom = Problem(template_id="a", checklist_item="kv-cache", kind=Kind.NUMERIC, prompt="?", seed=0,
                   answer=5.0, unit="")  # fmt: skip
    problems = [first, atom, second]
    grade_one = chain_grader(problems, {0: "20 GB", 1: "5", 2: "10 ms"})
    assert grade_one(first, "20 GB").status is VerdictStatus.INCORRECT
    assert grade_one(atom, "5").status is VerdictStatus.CORRECT
    assert getattr(grade_one(second, "10 ms"), "carried_from", ()) == (1,)
    # Without an answer at step 1 there is nothing to carry: only the exact value counts.
    assert chain_grader(problems, {2: "10 ms"})(second, "10 ms").status is VerdictStatus.INCORRECT


def _verdict(step: int, status: VerdictStatus, carried: tuple[int, ...] = ()) -> StepVerdict:
    return StepVerdict(step, Verdict(status), carried_from=carried)


def test_the_report_names_the_first_step_that_went_wrong() -> None:
    right, wrong = VerdictStatus.CORRECT, VerdictStatus.INCORRECT
    report = ChainReport((_verdict(1, right), _verdict(2, wrong), _verdict(3, right, (2,))))
    assert report.first_wrong == 2 and not report.all_correct
    assert (
        report.feedback() == "The chain first went wrong at step 2; step 3 right on your own earlier values."
    )
    clean = ChainReport((_verdict(1, right), _verdict(2, right)))
    assert clean.all_correct and clean.feedback() == "Every step right."


def _choice_step() -> StepProblem:
    """Memory or compute first: decided by step 1's largest batch against a critical batch of 300."""
    return StepProblem(
        template_id="s", checklist_item="decode-batch-threshold", kind=Kind.CHOICE, prompt="Which first?",
        seed=1, step=2, n_steps=2,
        choices=(Choice("Memory", correct=True, explanation="KV fills HBM first."),
                 Choice("Compute", correct=False, explanation="The critical batch comes first.")),
        decision=Decision(
            lhs=187.0, rhs=300.0, below="Memory", otherwise="Compute", lhs_step="max_batch",
            carries=(Carry(step=1, name="max_batch", unit="", exact=187.0),),
        ),
    )  # fmt: skip


def test_a_choice_decided_on_the_users_earlier_value_is_credited() -> None:
    step = _choice_step()
    result = grade_step(step, "1", earlier={1: 400.0})  # "Compute" follows from a batch of 400
    assert result.correct and result.carried_from == (1,)
    assert [s.label for s in result.verdict.derivation] == [
        "Carried from your step 1",
        "Decided on your values",
    ]
    exact = grade_step(step, "0", earlier={1: 400.0})  # the exact option stays right on its own
    assert exact.correct and not exact.carried_forward
    # A wrong value that leads to the same option changes nothing.
    assert carried_problem(step, {1: 250.0}) == (step, ())
    assert grade_step(step, "0", earlier={1: 250.0}).correct


def test_the_carried_lines_name_steps_not_the_names_calls_use() -> None:
    step = _choice_step()
    result = grade_step(step, "1", earlier={1: 400.0})
    text = derivation_lines(result.verdict.derivation)
    assert "max_batch" not in text and "lhs" not in text
    assert "**Decided on your values** = your step 1 < 300 = 400 < 300 = **no**" in text
    assert "**Carried from your step 1** = your answer to step 1 = **400 (exact: 187)**" in text
