"""The practice loop without Streamlit: queue order, submitting, the session tally."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from grader import Kind, VerdictStatus
from grader.units import format_number, format_quantity
from progress import Store
from question_bank import Bank, generate, load_bank
from ui.practice.loop import Current, Tally, extra_template_id, queue_order, submit
from ui.practice.scenario import extra_scenario_id

NOW = datetime(2026, 11, 29, 9, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


def test_queue_order_is_every_template_once_and_touches_each_item_early(bank: Bank) -> None:
    order = queue_order(bank)
    assert sorted(tid for tid, _ in order) == sorted([*bank.ids, *bank.scenario_ids])
    # The first round visits every item that has templates of the easiest level, one each.
    easiest = min(t.difficulty for t in bank.templates)
    items = {t.checklist for t in bank.templates if t.difficulty == easiest}
    assert {item for _, item in order[: len(items)]} == items
    every = {t.id: t for t in [*bank.templates, *bank.scenarios]}
    levels = [every[tid].difficulty for tid, _ in order]
    assert levels == sorted(levels), "easier templates are introduced first"


def test_extra_template_respects_the_filter(bank: Bank) -> None:
    for seed in range(20):
        template_id = extra_template_id(bank, seed=seed, checklist_item="fusion")
        assert bank.get(template_id).checklist == "fusion"


def test_extra_practice_rotates_through_an_items_templates_before_repeating_one(bank: Bank) -> None:
    ids = {t.id for t in bank.by_checklist("overhead-vs-bandwidth")}
    assert len(ids) >= 3
    recent: list[str] = []
    for seed in range(2 * len(ids)):
        item = "overhead-vs-bandwidth"
        recent.append(extra_template_id(bank, seed=seed, checklist_item=item, recent=recent))
    first, second = recent[: len(ids)], recent[len(ids) :]
    assert set(first) == ids and set(second) == ids, "each once per round"
    assert all(a != b for a, b in pairwise(recent)), "never the same twice in a row"


def test_extra_scenarios_rotate_through_every_scenario(bank: Bank) -> None:
    recent: list[str] = []
    for seed in range(len(bank.scenario_ids)):
        recent.append(extra_scenario_id(bank, seed=seed, recent=recent))
    assert sorted(recent) == sorted(bank.scenario_ids)


def _numeric(bank: Bank) -> tuple[Current, object]:
    template = next(t for t in bank.templates if t.kind == Kind.NUMERIC)
    current = Current(template.id, seed=5, scheduled=True, started_at=NOW - timedelta(seconds=75))
    return current, generate(template, 5)


def test_submit_records_the_attempt_and_reviews_the_card(tmp_path: Path, bank: Bank) -> None:
    store = Store(tmp_path / "p.db")
    current, problem = _numeric(bank)
    verdict = submit(store, problem, format_quantity(problem.answer, problem.unit), current=current, now=NOW)
    assert verdict.status is VerdictStatus.CORRECT
    [attempt] = store.attempts()
    assert (attempt.seed, attempt.duration_s, attempt.mode) == (5, 75.0, "practice")
    with store.connect(write=False) as conn:
        row = conn.execute("SELECT due FROM cards WHERE template_id = ?", (problem.template_id,))
        (due,) = row.fetchone()
    assert datetime.fromisoformat(due) > NOW


def test_unscheduled_variant_records_but_leaves_the_schedule(tmp_path: Path, bank: Bank) -> None:
    store = Store(tmp_path / "p.db")
    current, problem = _numeric(bank)
    current = Current(current.template_id, current.seed, scheduled=False, started_at=current.started_at)
    verdict = submit(store, problem, "1e-30", current=current, now=NOW)
    assert verdict.status is VerdictStatus.INCORRECT
    assert store.attempt_count() == 1
    with store.connect(write=False) as conn:
        assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0


def test_unparsable_answer_is_not_an_attempt(tmp_path: Path, bank: Bank) -> None:
    store = Store(tmp_path / "p.db")
    current, problem = _numeric(bank)
    verdict = submit(store, problem, "no idea", current=current, now=NOW)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert store.attempt_count() == 0


@pytest.mark.parametrize(
    ("template_id", "stored"),
    [("kv-bytes-per-token", True), ("decode-13b-a100", False)],  # asks how many bytes; asks in ms
)
def test_a_bare_answer_right_only_in_the_base_unit_is_stored_as_graded_or_not_at_all(
    tmp_path: Path, bank: Bank, template_id: str, stored: bool
) -> None:
    store = Store(tmp_path / "p.db")
    problem = generate(bank.get(template_id), 5)
    current = Current(template_id, seed=5, scheduled=True, started_at=NOW - timedelta(seconds=30))
    assert problem.answer is not None
    bare = format_number(problem.answer)  # the figure in bytes or seconds, typed without its unit
    verdict = submit(store, problem, bare, current=current, now=NOW)
    attempts = store.attempts()
    if stored:
        assert verdict.correct
        [attempt] = attempts
        assert attempt.value == pytest.approx(problem.answer, rel=1e-3), "the value the grade was given for"
    else:
        assert verdict.status is VerdictStatus.UNPARSABLE and not attempts, "the x1000 slip: nothing stored"


def test_tally_counts_and_round_trips() -> None:
    from grader import Verdict

    tally = Tally().add(Verdict(VerdictStatus.CORRECT, score=1.0), seconds=30)
    tally = tally.add(Verdict(VerdictStatus.INCORRECT), seconds=10)
    assert (tally.answered, tally.correct, tally.accuracy) == (2, 1, 0.5)
    assert Tally.from_dict(tally.to_dict()) == tally


def test_roofline_view_places_the_problem_and_the_answer_on_its_gpu(bank: Bank) -> None:
    from grader import grade
    from ui.roofline_answer import roofline_view
    from ui.roofline_svg import Role

    problem = generate(bank.get("ridge-point-bf16"), 2)
    verdict = grade(problem, format_quantity(problem.answer * 2, problem.unit))
    view = roofline_view(problem, verdict)
    assert view is not None and view.own_gpu
    assert view.accelerator.id == problem.params["gpu"]
    by_label = {p["label"]: p for p in view.points}
    assert by_label["your answer"]["arithmetic_intensity"] == pytest.approx(2 * problem.answer, rel=1e-3)
    # The ridge point sits exactly at the corner: its attainable FLOP/s is the peak.
    [ridge] = [p for p in view.points if p["role"] == Role.PROBLEM]
    assert ridge["flops_per_s"] == pytest.approx(view.accelerator.peak_flops)


def test_an_answer_shown_with_the_ridges_figure_is_at_the_ridge(bank: Bank) -> None:
    from grader import grade
    from ui.roofline_answer import point_lines, roofline_view

    problem = generate(bank.get("ridge-point-bf16"), 5)
    typed = format_quantity(problem.answer, problem.unit)  # rounded: a hair off the exact ridge
    view = roofline_view(problem, grade(problem, typed))
    assert view is not None
    answer = next(p for p in view.points if p["label"] == "your answer")
    assert answer["arithmetic_intensity"] != problem.answer
    lines = point_lines(view).splitlines()
    assert len(lines) == 2 and all(line.endswith("both run out") for line in lines), lines
    # A right answer a little off the ridge (inside the band it is graded to) is at the ridge too.
    close = roofline_view(problem, grade(problem, format_quantity(0.98 * problem.answer, problem.unit)))
    assert close is not None and point_lines(close).splitlines()[-1].endswith("both run out")
    # Twice the ridge is shown as a different figure, and is compute-bound.
    doubled = roofline_view(problem, grade(problem, format_quantity(2 * problem.answer, problem.unit)))
    assert doubled is not None and point_lines(doubled).splitlines()[-1].endswith("compute-bound")


def test_an_elementwise_op_is_drawn_under_the_vector_roof_and_a_matmul_under_the_tensor_roof(
    bank: Bank,
) -> None:
    from grader import grade
    from grader.estimator import ridge_point
    from ui.roofline_answer import TENSOR_ROOF, VECTOR_ROOF, roofline_markdown, roofline_view

    for template_id in ("ai-elementwise", "ai-elementwise-attainable"):
        problem = generate(bank.get(template_id), 3)
        view = roofline_view(problem, None)
        assert view is not None and view.roof == VECTOR_ROOF
        gpu = view.accelerator
        assert gpu.peak_flops_vector is not None and view.peak_flops == gpu.peak_flops_vector
        # Its ridge is the vector one the explanation quotes (some 10 FLOP/B), not the tensor cores'.
        assert ridge_point(peak_flops=view.peak_flops, mem_bandwidth=gpu.mem_bandwidth) < 50
        assert f"({VECTOR_ROOF}," in roofline_markdown(problem, grade(problem, "0.1 FLOP/B"))
    by_dtype = {}
    for seed in range(60):
        problem = generate(bank.get("ai-linear-layer"), seed)
        by_dtype.setdefault(problem.params["dtype"], problem)
    assert set(by_dtype) == {"fp32", "bf16", "fp8"}
    view = roofline_view(by_dtype["bf16"], None)
    assert view is not None and view.roof == TENSOR_ROOF
    assert view.peak_flops == view.accelerator.peak_flops


def test_an_fp32_matmul_is_drawn_under_the_fp32_roof_and_fp8_under_its_own(bank: Bank) -> None:
    from ui.roofline_answer import FP32_MATMUL_ROOF, TENSOR_ROOF, roofline_view

    by_dtype = {}
    for seed in range(60):
        problem = generate(bank.get("ai-linear-layer"), seed)
        by_dtype.setdefault(problem.params["dtype"], problem)
    view = roofline_view(by_dtype["fp32"], None)
    assert view is not None and view.roof == FP32_MATMUL_ROOF != TENSOR_ROOF
    assert view.peak_flops == view.accelerator.peak_flops_vector < view.accelerator.peak_flops
    # The reference part (an A100) has no fp8 tensor cores: no picture rather than the 16-bit roof.
    fp8 = roofline_view(by_dtype["fp8"], None)
    assert fp8 is None or fp8.peak_flops == fp8.accelerator.peak_flops_fp8


def test_critical_batch_is_drawn_as_decode_intensities(bank: Bank) -> None:
    from grader import grade
    from ui.roofline_answer import roofline_view

    problem = generate(bank.get("critical-batch-bf16"), 4)
    view = roofline_view(problem, grade(problem, format_quantity(problem.answer / 4, problem.unit)))
    assert view is not None
    xs = {p["label"].split(" (")[0]: p["arithmetic_intensity"] for p in view.points}
    assert xs["decode at your batch"] == pytest.approx(xs["decode at the critical batch"] / 4, rel=0.01)
    assert xs["decode at batch 1"] < xs["decode at your batch"]


def test_no_roofline_for_items_that_are_not_about_one(bank: Bank) -> None:
    from ui.roofline_answer import roofline_view

    assert roofline_view(generate(bank.get("kv-bytes-per-token"), 1), None) is None
