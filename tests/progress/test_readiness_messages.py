"""What Readiness tells the user agrees with itself, with the rule, and with the evidence it rests on."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from fsrs import Scheduler

from progress.plan import make_plan
from progress.readiness import DEFAULT_RULE, DayTotal, FactorName, Gate, ItemEvidence, assess_item

TODAY = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 12, tzinfo=UTC)
ITEMS = ("three-regimes", "fusion", "kv-cache")
TITLES = {"three-regimes": "Three regimes", "fusion": "Operator fusion", "kv-cache": "KV-cache size"}


def fresh() -> list[ItemEvidence]:
    return [
        ItemEvidence(item, tuple(f"{item}-{i}" for i in range(3)), frozenset(), False, (), {})
        for item in ITEMS
    ]


def _with_mocks(n_answers: int, *, item: int = 1) -> list[ItemEvidence]:
    """A fresh user whose only answers are ``n_answers`` wrong mock answers on one item."""
    evidence = fresh()
    totals = (DayTotal(ITEMS[item], TODAY - timedelta(days=1), True, n_answers, 0.0, n_answers, 60.0),)
    evidence[item] = replace(evidence[item], started=True, day_totals=totals)
    return evidence


def _warning(evidence: list[ItemEvidence], *, days: int) -> str:
    plan = make_plan(
        evidence,
        today=TODAY,
        interview_date=TODAY + timedelta(days=days),
        minutes_per_day=30,
        seconds_per_card=150.0,
        daily_new_limit=10,
        scheduler=Scheduler(enable_fuzzing=False),
        titles=TITLES,
    )
    return plan.warning or ""


def test_two_wrong_mock_answers_are_too_little_to_say_mock_answers_hold_an_item_back() -> None:
    thin = assess_item(_with_mocks(2)[1], now=NOW)
    assert Gate.MOCKS not in thin.unmet
    assert "mock" not in _warning(_with_mocks(2), days=30)
    enough = assess_item(_with_mocks(DEFAULT_RULE.ready_min_mock_answers)[1], now=NOW)
    assert Gate.MOCKS in enough.unmet


def test_the_plan_warning_names_items_by_title_counts_days_and_never_contradicts_itself() -> None:
    warning = _warning(_with_mocks(3), days=1)
    assert "The interview is 1 day away" in warning
    assert "(s)" not in warning
    assert "Practice alone cannot make Operator fusion ready" in warning
    assert "three-regimes" not in warning and "kv-cache" not in warning  # titles, not ids
    assert "every item can be ready" not in warning  # not beside an item practice cannot make ready
    assert re.search(r"practice can do its part for every item by \d{4}-\d\d-\d\d", warning)


def test_each_factor_says_how_its_number_comes_out() -> None:
    evidence = replace(
        fresh()[0],
        started=True,
        day_totals=(DayTotal(ITEMS[0], TODAY, False, 2, 1.0, 2, 60.0),),
        attempted_template_ids=frozenset({"three-regimes-0"}),
    )
    item = assess_item(evidence, now=NOW)
    accuracy = item.factor(FactorName.ACCURACY)
    assert accuracy.value == 0.25
    assert accuracy.detail.startswith("1 right of 2 answers")
    assert "counted as if 2 more answers had been wrong" in accuracy.detail
    assert accuracy.detail.endswith("= 25%")


def test_advice_aims_where_the_rule_does_and_fits_an_item_with_no_cards() -> None:
    item = assess_item(_with_mocks(1, item=0)[0], now=NOW)
    accuracy_advice = item.factor(FactorName.ACCURACY).advice or ""
    assert f"to {DEFAULT_RULE.ready_min_accuracy:.0%}" in accuracy_advice
    stability = item.factor(FactorName.STABILITY)
    assert stability.detail == "no scheduled cards yet"
    assert "fall due" not in (stability.advice or "")
    assert all("(s)" not in step for step in item.next_steps)
    assert len(set(item.next_steps)) == len(item.next_steps)  # no piece of advice twice
    assert re.search(r"about \d+ more right answers? would lift accuracy to 75%", accuracy_advice)


def test_one_answer_is_counted_in_the_singular() -> None:
    from progress.readiness_factors import _share_detail

    detail = _share_detail(0.0, 1.0, phantoms=1.0, value=0.0)
    assert detail.startswith("0 right of 1 answer (recent")
    assert "counted as if 1 more answer had been wrong" in detail
