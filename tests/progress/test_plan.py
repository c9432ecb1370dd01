"""The plan to the interview: enough for a far date, a clear warning for a near one."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler

from progress.plan import StudyPlan, make_plan, seconds_per_card
from progress.readiness import DayTotal, ItemEvidence, ItemStatus

TODAY = date(2026, 11, 2)
ITEMS = ("three-regimes", "fusion", "kv-cache", "two-p-flops")
SECONDS_PER_CARD = 150.0


def fresh(items: tuple[str, ...] = ITEMS, n_templates: int = 4) -> list[ItemEvidence]:
    """A user who has answered nothing yet."""
    return [
        ItemEvidence(item, tuple(f"{item}-{i}" for i in range(n_templates)), frozenset(), False, (), {})
        for item in items
    ]


def plan(evidence: list[ItemEvidence], *, days: int, minutes: int = 30, new_limit: int = 10) -> StudyPlan:
    return make_plan(
        evidence,
        today=TODAY,
        interview_date=TODAY + timedelta(days=days),
        minutes_per_day=minutes,
        seconds_per_card=SECONDS_PER_CARD,
        daily_new_limit=new_limit,
        scheduler=Scheduler(enable_fuzzing=False),
    )


def test_a_far_date_gets_a_plan_that_introduces_every_template_and_ends_ready() -> None:
    result = plan(fresh(), days=30)
    assert result.feasible and result.practice_enough and result.warning is None
    assert result.new_by_item == {item: 4 for item in ITEMS}
    assert all(item.status is ItemStatus.READY for item in result.projected.items)
    assert len(result.days) == 30 and result.days[0].day == TODAY
    assert all(day.minutes <= 30 for day in result.days)
    assert sum(day.reviews for day in result.days) >= sum(day.new_cards for day in result.days)


def test_a_near_date_is_a_clear_warning_with_the_earliest_date_that_works() -> None:
    result = plan(fresh(), days=1)
    assert not result.feasible and not result.practice_enough
    assert result.warning is not None and "too close" in result.warning
    assert result.earliest_ready_date is not None and result.earliest_ready_date > TODAY + timedelta(days=1)
    assert plan(fresh(), days=(result.earliest_ready_date - TODAY).days).feasible


def test_the_suggested_minutes_a_day_do_make_it() -> None:
    tight = plan(fresh(), days=5, minutes=10)
    assert not tight.feasible and tight.minutes_needed is not None
    assert tight.minutes_needed > 10
    assert plan(fresh(), days=5, minutes=tight.minutes_needed).feasible


@pytest.mark.parametrize("days", [0, -3])
def test_an_interview_today_or_past_says_so(days: int) -> None:
    result = plan(fresh(), days=days)
    assert result.days == ()
    assert result.warning is not None and "today or past" in result.warning


def test_templates_that_already_have_cards_are_reviewed_not_introduced_again() -> None:
    evidence = fresh(("kv-cache",))
    start = datetime(2026, 11, 1, 9, tzinfo=UTC)
    known, _ = Scheduler(enable_fuzzing=False).review_card(Card(card_id=1, due=start), Rating.Good, start)
    evidence[0] = ItemEvidence(
        "kv-cache",
        evidence[0].template_ids,
        frozenset({"kv-cache-0"}),
        True,
        (),
        {"kv-cache-0": known},
    )
    result = plan(evidence, days=20)
    assert result.new_by_item == {"kv-cache": 3}
    assert result.days[0].reviews >= 1


def test_the_daily_new_card_limit_is_kept() -> None:
    result = plan(fresh(), days=40, minutes=120, new_limit=1)
    assert max(day.new_cards for day in result.days) == 1


def test_an_item_without_questions_does_not_block_the_others() -> None:
    evidence = [*fresh(), ItemEvidence("fusion-extra", (), frozenset(), False, (), {})]
    result = plan(evidence, days=30)
    assert result.feasible


def test_wrong_mock_answers_are_named_as_what_practice_cannot_fix() -> None:
    evidence = fresh()
    wrong_mocks = (DayTotal("fusion", TODAY - timedelta(days=1), True, 3, 0.0, 3, 300.0),)
    evidence[1] = replace(evidence[1], started=True, day_totals=wrong_mocks)
    result = plan(evidence, days=30)
    assert result.practice_enough and not result.feasible
    assert result.warning is not None
    assert "Practice alone cannot make fusion ready" in result.warning
    assert "too close" not in result.warning
    assert result.new_by_item["fusion"] == 4


def test_seconds_per_card_adds_reading_time_to_the_answer_time() -> None:
    assert seconds_per_card(answer_seconds=50.0) == pytest.approx(80.0)
    assert seconds_per_card(answer_seconds=None) > seconds_per_card(answer_seconds=50.0)


def test_the_new_card_limit_it_proposes_meets_every_question_type_before_the_date() -> None:
    evidence = fresh(n_templates=10)  # 40 question types, a week away, 2 a day: not all met
    slow = plan(evidence, days=7, minutes=240, new_limit=2)
    assert (slow.types_to_meet, slow.types_met) == (40, 14)
    limit = slow.new_limit_to_meet_all
    assert limit is not None and limit > 2
    assert plan(evidence, days=7, minutes=240, new_limit=limit).types_met == 40
    assert plan(evidence, days=7, minutes=240, new_limit=limit - 1).types_met < 40, "the smallest that does"
    assert plan(evidence, days=7, minutes=240, new_limit=limit).new_limit_to_meet_all is None


def test_no_limit_is_proposed_where_the_minutes_cannot_hold_the_new_cards() -> None:
    cramped = plan(fresh(n_templates=10), days=3, minutes=5, new_limit=2)
    assert cramped.types_met < cramped.types_to_meet and cramped.new_limit_to_meet_all is None
