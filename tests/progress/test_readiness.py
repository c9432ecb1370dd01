"""The readiness rule on synthetic histories: monotone in right answers, decaying with age, gated."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler
from hypothesis import given
from hypothesis import strategies as st

from progress.readiness import (
    DEFAULT_RULE,
    DayTotal,
    FactorName,
    Gate,
    ItemEvidence,
    ItemStatus,
    assess,
    assess_item,
)

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
TEMPLATES = ("kv-a", "kv-b", "kv-c", "kv-d")
TARGET_S = DEFAULT_RULE.target_seconds_per_answer


@dataclass(frozen=True)
class Answer:
    """A synthetic answer ``days_ago`` whole days before NOW."""

    days_ago: int
    score: float = 1.0
    template_id: str = "kv-a"
    mock: bool = False
    duration_s: float | None = 60.0


def card(review_days_ago: Sequence[int], rating: Rating = Rating.Good) -> Card:
    """A card reviewed with ``rating`` on each of the given days before NOW (oldest first)."""
    scheduler = Scheduler(enable_fuzzing=False)
    result = Card(card_id=1, due=NOW - timedelta(days=max(review_days_ago)))
    for days_ago in review_days_ago:
        result, _ = scheduler.review_card(result, rating, NOW - timedelta(days=days_ago))
    return result


def evidence(
    answers: Iterable[Answer], cards: dict[str, Card] | None = None, *, item: str = "kv-cache"
) -> ItemEvidence:
    """What the SQL aggregate would hand the rule for these answers."""
    answers = list(answers)
    groups: dict[tuple[int, bool], list[Answer]] = defaultdict(list)
    for answer in answers:
        groups[answer.days_ago, answer.mock].append(answer)
    totals = tuple(
        DayTotal(
            checklist_item=item,
            day=NOW.date() - timedelta(days=days_ago),
            mock=mock,
            n_answers=len(group),
            score_sum=sum(a.score for a in group),
            n_timed=sum(a.duration_s is not None for a in group),
            capped_duration_sum_s=sum(
                min(a.duration_s, DEFAULT_RULE.duration_cap_s) for a in group if a.duration_s is not None
            ),
            right_timed=sum(a.score for a in group if a.duration_s is not None),
            right_duration_sum_s=sum(
                a.score * min(a.duration_s, DEFAULT_RULE.duration_cap_s)
                for a in group
                if a.duration_s is not None
            ),
        )
        for (days_ago, mock), group in groups.items()
    )
    return ItemEvidence(
        checklist_item=item,
        template_ids=TEMPLATES,
        attempted_template_ids=frozenset(a.template_id for a in answers),
        started=bool(answers),
        day_totals=totals,
        cards=cards or {},
    )


def strong_history(shift_days: int = 0) -> ItemEvidence:
    """Right, quick answers on every template over the last ten days, two mocks, well-spaced cards."""
    answers = [Answer(days_ago=d % 10 + shift_days, template_id=TEMPLATES[d % 4]) for d in range(24)]
    answers += [Answer(days_ago=2 + shift_days, mock=True, template_id=t) for t in TEMPLATES[:2]]
    cards = {t: card([30 + shift_days, 30 + shift_days, 28 + shift_days, 17 + shift_days]) for t in TEMPLATES}
    return evidence(answers, cards)


def test_an_item_without_answers_is_not_started_and_scores_zero() -> None:
    result = assess_item(evidence([]), now=NOW)
    assert result.status is ItemStatus.NOT_STARTED
    assert result.score == 0
    assert result.next_steps and "Practice" in result.next_steps[0]


def test_a_strong_history_is_ready_with_every_factor_shown() -> None:
    result = assess_item(strong_history(), now=NOW)
    assert result.status is ItemStatus.READY, result.factors
    assert result.score >= DEFAULT_RULE.ready_score
    assert [f.name for f in result.factors] == list(FactorName)
    assert result.factor(FactorName.COVERAGE).value == 1.0
    assert result.factor(FactorName.TIME).value == 1.0
    assert result.next_steps == ()


def test_the_weights_add_up_to_one_so_scores_run_to_100() -> None:
    assert sum(f.weight for f in DEFAULT_RULE.factors.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("shift_days", [3, 30, 120])
def test_old_successes_decay(shift_days: int) -> None:
    fresh = assess_item(strong_history(), now=NOW)
    old = assess_item(strong_history(shift_days), now=NOW)
    assert old.score < fresh.score
    assert old.factor(FactorName.ACCURACY).value < fresh.factor(FactorName.ACCURACY).value


def test_a_month_old_history_is_no_longer_ready() -> None:
    assert assess_item(strong_history(45), now=NOW).status is not ItemStatus.READY


def test_answers_outside_the_window_no_longer_count_but_the_item_stays_started() -> None:
    ancient = assess_item(evidence([Answer(days_ago=DEFAULT_RULE.window_days + 1)]), now=NOW)
    assert ancient.factor(FactorName.ACCURACY).value == 0.0
    assert ancient.status is ItemStatus.LEARNING


def test_few_right_answers_are_not_yet_ready() -> None:
    result = assess_item(evidence([Answer(0), Answer(0, template_id="kv-b")]), now=NOW)
    assert result.status is ItemStatus.LEARNING
    assert result.factor(FactorName.ACCURACY).value == pytest.approx(2 / (2 + 2))


def test_slow_answers_lower_the_time_factor_and_advise_speed() -> None:
    slow = [Answer(0, duration_s=TARGET_S * 2) for _ in range(5)]
    result = assess_item(evidence(slow), now=NOW)
    time = result.factor(FactorName.TIME)
    assert time.value == pytest.approx(0.5)
    assert time.advice is not None and "faster" in time.advice


def test_only_right_answers_count_for_speed() -> None:
    fast_wrong = assess_item(evidence([Answer(0, score=0.0, duration_s=10.0)]), now=NOW)
    time = fast_wrong.factor(FactorName.TIME)
    assert time.value == 0.0 and time.detail == "no timed right answers yet"
    # A slow right answer sets the pace; a fast wrong one beside it does not hurry it up.
    mixed = [Answer(0, duration_s=TARGET_S * 2), Answer(0, score=0.0, duration_s=10.0)]
    assert assess_item(evidence(mixed), now=NOW).factor(FactorName.TIME).value == pytest.approx(0.5)


def test_a_tab_left_open_counts_as_the_cap_not_as_hours() -> None:
    result = assess_item(evidence([Answer(0, duration_s=36_000.0)]), now=NOW)
    assert result.factor(FactorName.TIME).value == pytest.approx(TARGET_S / DEFAULT_RULE.duration_cap_s)


def test_mostly_wrong_mock_answers_keep_an_otherwise_strong_item_from_ready() -> None:
    strong = strong_history()
    bad_mocks = evidence([Answer(1, score=0.0, mock=True) for _ in range(3)])
    combined = ItemEvidence(
        checklist_item=strong.checklist_item,
        template_ids=strong.template_ids,
        attempted_template_ids=strong.attempted_template_ids,
        started=True,
        day_totals=strong.day_totals + bad_mocks.day_totals,
        cards=strong.cards,
    )
    result = assess_item(combined, now=NOW)
    assert result.status is ItemStatus.SHAKY
    assert result.unmet == (Gate.MOCKS,)
    assert any("mock" in step for step in result.next_steps)


def test_forgotten_cards_hold_back_an_item_and_say_to_review() -> None:
    strong = strong_history()
    lapsed = {t: card([60, 60], Rating.Again) for t in TEMPLATES}
    result = assess_item(ItemEvidence(**{**strong.__dict__, "cards": lapsed}), now=NOW)
    assert result.status is not ItemStatus.READY
    assert Gate.RETRIEVABILITY in result.unmet
    assert result.factor(FactorName.RETRIEVABILITY).advice is not None


def test_overall_lists_the_items_holding_it_back_lowest_first() -> None:
    items = [
        evidence([], item="fusion"),
        strong_history(),
        evidence([Answer(0)] * 3, item="two-p-flops"),
    ]
    overall = assess(items, now=NOW)
    assert not overall.ready
    assert [i.checklist_item for i in overall.holding_back] == ["fusion", "two-p-flops"]
    assert assess([strong_history()], now=NOW).ready


answers = st.builds(
    Answer,
    days_ago=st.integers(0, 200),
    score=st.sampled_from([0.0, 0.5, 1.0]),
    template_id=st.sampled_from(TEMPLATES),
    mock=st.booleans(),
    duration_s=st.none() | st.floats(1.0, 2000.0),
)
card_sets = st.dictionaries(
    st.sampled_from(TEMPLATES),
    st.lists(st.integers(0, 60), min_size=1, max_size=4).map(lambda days: card(sorted(days, reverse=True))),
    max_size=4,
)


@given(
    history=st.lists(answers, max_size=30),
    cards=card_sets,
    new=st.builds(
        Answer,
        days_ago=st.integers(0, 30),
        template_id=st.sampled_from(TEMPLATES),
        mock=st.booleans(),
        duration_s=st.none() | st.floats(1.0, TARGET_S),
    ),
)
def test_a_right_answer_within_the_target_time_never_lowers_readiness(
    history: list[Answer], cards: dict[str, Card], new: Answer
) -> None:
    before = assess_item(evidence(history, cards), now=NOW)
    after = assess_item(evidence([*history, new], cards), now=NOW)
    assert after.score >= before.score - 1e-9
    assert after.status.rank >= before.status.rank
