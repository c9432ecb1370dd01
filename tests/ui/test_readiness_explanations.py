"""Readiness counts explanation quality: a typed explanation's points made are its answer's score."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from grader import ExplanationRecord, check_explanation
from progress import Store
from progress.aggregates import load_snapshot
from progress.readiness import FactorName, assess
from question_bank import generate, load_bank
from ui.practice.loop import Current, submit

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
PARTIAL = "Element-wise ops are memory-bound: their time is the bytes moved over the bandwidth."


def _accuracy(tmp_path: Path, name: str, text: str) -> float:
    """Practise fusion-why five days running, typing ``text`` each time and rating it Good."""
    bank = load_bank()
    store = Store(tmp_path / f"{name}.db", clock=lambda: NOW)
    for day in range(5):
        moment = NOW - timedelta(days=4 - day)
        problem = generate(bank.get("fusion-why"), day)
        record = ExplanationRecord(text=text, check=check_explanation(problem, text), rating="good")
        current = Current("fusion-why", day, scheduled=True, started_at=moment - timedelta(seconds=60))
        submit(store, problem, "good", current=current, now=moment, enable_fuzzing=False, explanation=record)
    ids = {"fusion": tuple(t.id for t in bank.templates if t.checklist == "fusion")}
    [item] = assess(load_snapshot(store, template_ids_by_item=ids, now=NOW).evidence, now=NOW).items
    return item.factor(FactorName.ACCURACY).value


def test_full_explanations_count_for_more_than_partial_ones_rated_the_same(tmp_path: Path) -> None:
    full = generate(load_bank().get("fusion-why"), 0).model_answer
    assert _accuracy(tmp_path, "full", full) > 2 * _accuracy(tmp_path, "partial", PARTIAL) > 0
