"""The practice loop without Streamlit: queue order, submitting, the session tally."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grader import Kind, VerdictStatus
from grader.units import format_quantity
from progress import Store
from question_bank import Bank, generate, load_bank
from ui.practice import Current, Tally, extra_template_id, queue_order, submit

NOW = datetime(2026, 11, 29, 9, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


def test_queue_order_is_every_template_once_and_touches_each_item_early(bank: Bank) -> None:
    order = queue_order(bank)
    assert sorted(tid for tid, _ in order) == sorted(t.id for t in bank.templates)
    # The first round visits every item that has templates of the easiest level, one each.
    easiest = min(t.difficulty for t in bank.templates)
    items = {t.checklist for t in bank.templates if t.difficulty == easiest}
    assert {item for _, item in order[: len(items)]} == items
    levels = [bank.get(tid).difficulty for tid, _ in order]
    assert levels == sorted(levels), "easier templates are introduced first"


def test_extra_template_respects_the_filter(bank: Bank) -> None:
    for seed in range(20):
        template_id = extra_template_id(bank, seed=seed, checklist_item="fusion")
        assert bank.get(template_id).checklist == "fusion"


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


def test_tally_counts_and_round_trips() -> None:
    from grader import Verdict

    tally = Tally().add(Verdict(VerdictStatus.CORRECT, score=1.0), seconds=30)
    tally = tally.add(Verdict(VerdictStatus.INCORRECT), seconds=10)
    assert (tally.answered, tally.correct, tally.accuracy) == (2, 1, 0.5)
    assert Tally.from_dict(tally.to_dict()) == tally
