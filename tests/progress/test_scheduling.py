"""FSRS scheduling with a fake clock and fuzzing off: ratings, queue, new-card limit, streak."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fsrs import Rating, State
from store_kit import T0, attempt, new_store

from progress import Settings, Status, card_states, due_queue, next_due, rating_for_recall, rating_for_status
from progress import review as fsrs_review
from progress.scheduling import card_id_for


def review(store, template_id, rating, now, item="kv-cache"):
    return fsrs_review(
        store, template_id=template_id, checklist_item=item, rating=rating, now=now, enable_fuzzing=False
    )


TEMPLATES = [(f"t{i}", "kv-cache") for i in range(6)] + [("f0", "fusion"), ("f1", "fusion")]


def test_auto_graded_status_maps_to_good_or_again():
    assert rating_for_status(Status.CORRECT) is Rating.Good
    assert rating_for_status("incorrect") is Rating.Again


@pytest.mark.parametrize(("text", "rating"), [("again", 1), ("Hard", 2), ("good", 3), (" easy ", 4)])
def test_recall_self_ratings_pass_through(text, rating):
    assert rating_for_recall(text) == rating


def test_an_unknown_recall_rating_is_refused():
    with pytest.raises(ValueError, match="again, hard, good, easy"):
        rating_for_recall("meh")


def test_correct_pushes_the_card_later_than_incorrect(tmp_path):
    store = new_store(tmp_path)
    good = review(store, "t0", rating_for_status("correct"), T0)
    again = review(store, "t1", rating_for_status("incorrect"), T0)
    assert good.due > again.due > T0
    # The stored row agrees with the returned card.
    with store.connect(write=False) as conn:
        rows = dict(conn.execute("SELECT template_id, due FROM cards").fetchall())
    assert rows["t0"] > rows["t1"]


def test_each_template_keeps_one_card_with_a_stable_id(tmp_path):
    store = new_store(tmp_path)
    first = review(store, "t0", Rating.Good, T0)
    second = review(store, "t0", Rating.Good, first.due)
    assert first.card_id == second.card_id == card_id_for("t0") != card_id_for("t1")
    with store.connect(write=False) as conn:
        assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 1
        logs = conn.execute("SELECT template_id, rating, day FROM review_logs ORDER BY id").fetchall()
    assert [tuple(r) for r in logs] == [("t0", 3, "2026-03-02"), ("t0", 3, "2026-03-02")]


def test_same_history_gives_the_same_schedule_without_fuzzing(tmp_path):
    dues = []
    for name in ("a", "b"):
        store = new_store(tmp_path / name)
        card = review(store, "t0", Rating.Good, T0)
        card = review(store, "t0", Rating.Good, card.due)
        dues.append(review(store, "t0", Rating.Hard, card.due).due)
    assert dues[0] == dues[1]


def _graduated_interval(tmp_path, desired_retention):
    """Days to the first review-state due date after two Good answers, at this retention."""
    store = new_store(tmp_path)
    store.save_settings(Settings(desired_retention=desired_retention))
    card = review(store, "t0", Rating.Good, T0)
    card = review(store, "t0", Rating.Good, card.due)
    assert card.state is State.Review
    return card.due - card.last_review


def test_lower_desired_retention_means_longer_intervals(tmp_path):
    relaxed = _graduated_interval(tmp_path / "relaxed", 0.8)
    strict = _graduated_interval(tmp_path / "strict", 0.97)
    assert relaxed > strict


def test_a_new_store_queues_new_cards_up_to_the_daily_limit_in_template_order(tmp_path):
    store = new_store(tmp_path)
    store.save_settings(Settings(daily_new_limit=3))
    queue = due_queue(store, templates=TEMPLATES, now=T0)
    assert [item.template_id for item in queue.items] == ["t0", "t1", "t2"]
    assert all(item.is_new for item in queue.items)
    assert (queue.due_count, queue.new_count, queue.done_count) == (0, 3, 0)


def test_cards_introduced_today_use_up_the_new_limit_until_the_next_utc_day(tmp_path):
    store = new_store(tmp_path)
    store.save_settings(Settings(daily_new_limit=3))
    review(store, "t0", Rating.Good, T0)
    review(store, "t1", Rating.Good, T0)
    later = due_queue(store, templates=TEMPLATES, now=T0 + timedelta(minutes=1))
    assert [i.template_id for i in later.items if i.is_new] == ["t2"]
    assert later.done_count == 2
    # Just before and just after midnight UTC.
    midnight = T0.replace(hour=0, minute=0) + timedelta(days=1)
    assert due_queue(store, templates=TEMPLATES, now=midnight - timedelta(seconds=1)).new_count == 1
    tomorrow = due_queue(store, templates=TEMPLATES, now=midnight)
    assert [i.template_id for i in tomorrow.items if i.is_new] == ["t2", "t3", "t4"]
    assert tomorrow.done_count == 0


def test_a_zero_new_limit_queues_only_due_cards(tmp_path):
    store = new_store(tmp_path)
    review(store, "t0", Rating.Again, T0)
    store.save_settings(Settings(daily_new_limit=0))
    queue = due_queue(store, templates=TEMPLATES, now=T0 + timedelta(hours=1))
    assert [(i.template_id, i.is_new) for i in queue.items] == [("t0", False)]


def test_due_cards_come_first_by_due_time_then_new_cards(tmp_path):
    store = new_store(tmp_path)
    late = review(store, "t3", Rating.Good, T0)  # learning step: due in 10 minutes
    early = review(store, "t5", Rating.Again, T0 + timedelta(minutes=1))  # due a minute after
    last = review(store, "t0", Rating.Good, T0 + timedelta(minutes=2))
    now = T0 + timedelta(minutes=13)
    queue = due_queue(store, templates=TEMPLATES, now=now)
    assert early.due < late.due < last.due <= now
    assert [(i.template_id, i.is_new) for i in queue.items[:3]] == [
        ("t5", False),
        ("t3", False),
        ("t0", False),
    ]
    assert [i.due for i in queue.items[:2]] == [early.due, late.due]
    assert [i.template_id for i in queue.items[3:]] == ["t1", "t2", "t4", "f0", "f1"]
    assert (queue.due_count, queue.new_count, queue.done_count) == (3, 5, 3)
    assert queue.first == queue.items[0]


def test_a_card_not_yet_due_is_not_queued_and_is_what_comes_next(tmp_path):
    store = new_store(tmp_path)
    store.save_settings(Settings(daily_new_limit=0))
    card = review(store, "t0", Rating.Good, T0)
    queue = due_queue(store, templates=TEMPLATES, now=T0 + timedelta(minutes=1))
    assert len(queue) == 0 and queue.first is None
    assert next_due(store, T0 + timedelta(minutes=1)) == card.due
    assert next_due(store, card.due) is None


def test_the_checklist_filter_narrows_items_and_counts(tmp_path):
    store = new_store(tmp_path)
    review(store, "f0", Rating.Again, T0, item="fusion")
    review(store, "t0", Rating.Again, T0)
    queue = due_queue(store, templates=TEMPLATES, now=T0 + timedelta(hours=1), checklist_item="fusion")
    assert [(i.template_id, i.checklist_item, i.is_new) for i in queue.items] == [
        ("f0", "fusion", False),
        ("f1", "fusion", True),
    ]
    assert (queue.due_count, queue.new_count, queue.done_count) == (1, 1, 1)


def test_the_counts_of_a_queue_over_some_templates_are_theirs_alone(tmp_path):
    # The "Scenarios" choice asks for the scenarios and no item: today's reviews of others are not its own.
    store = new_store(tmp_path)
    review(store, "t0", Rating.Good, T0)
    review(store, "t1", Rating.Good, T0)
    review(store, "f0", Rating.Good, T0, item="fusion")
    scoped = due_queue(store, templates=TEMPLATES[-2:], now=T0 + timedelta(minutes=1))
    assert {tid for tid, _ in TEMPLATES[-2:]} == {"f0", "f1"}
    assert scoped.done_count == 1
    assert due_queue(store, templates=TEMPLATES, now=T0 + timedelta(minutes=1)).done_count == 3


def test_templates_that_left_the_bank_are_not_queued(tmp_path):
    store = new_store(tmp_path)
    review(store, "retired", Rating.Again, T0)
    queue = due_queue(store, templates=TEMPLATES, now=T0 + timedelta(hours=1))
    assert "retired" not in [i.template_id for i in queue.items]


def test_retrievability_falls_as_time_passes(tmp_path):
    store = new_store(tmp_path)
    card = review(store, "t0", Rating.Good, T0)
    review(store, "t0", Rating.Good, card.due)
    soon, later = (
        card_states(store, now=card.due + timedelta(days=days))[0].retrievability for days in (1, 30)
    )
    assert 1 >= soon > later > 0
    (state,) = card_states(store, now=T0, checklist_item="kv-cache")
    assert (state.template_id, state.state) == ("t0", State.Review)
    assert card_states(store, now=T0, checklist_item="fusion") == []


@pytest.mark.parametrize(
    ("days_with_attempts", "streak_today"),
    [
        ([], 0),
        ([0], 1),
        ([0, 1, 2], 3),
        ([1, 2], 2),  # nothing yet today: the streak that ended yesterday still counts
        ([2, 3], 0),  # last attempt two days ago: broken
        ([0, 1, 3, 4], 2),  # a gap ends it
    ],
)
def test_streak_counts_consecutive_utc_days(tmp_path, days_with_attempts, streak_today):
    from progress import streak

    store = new_store(tmp_path)
    today = T0.date()
    store.record_attempts(
        [attempt(created_at=T0 - timedelta(days=d)) for d in days_with_attempts]
        + [attempt(created_at=T0 + timedelta(days=3))]  # after "today": ignored
    )
    assert streak(store, today=today) == streak_today


def test_streak_days_are_utc_days(tmp_path):
    from progress import streak

    store = new_store(tmp_path)
    midnight = T0.replace(hour=0, minute=0)
    store.record_attempts(
        [
            attempt(created_at=midnight - timedelta(minutes=1)),
            attempt(created_at=midnight + timedelta(minutes=1)),
        ]
    )
    assert streak(store, today=T0.date()) == 2


def test_an_answer_and_its_review_land_together(tmp_path) -> None:
    store = new_store(tmp_path)
    fsrs_review(
        store, template_id="kv-bytes-per-token", checklist_item="kv-cache", rating=Rating.Good, now=T0,
        enable_fuzzing=False, attempt=attempt(),
    )  # fmt: skip
    assert store.attempt_count() == 1
    assert [c.template_id for c in card_states(store, now=T0)] == ["kv-bytes-per-token"]


def test_a_review_that_fails_leaves_no_answer_behind(tmp_path) -> None:
    store = new_store(tmp_path)
    with pytest.raises(ValueError):
        fsrs_review(
            store, template_id="kv-bytes-per-token", checklist_item="kv-cache", rating=9, now=T0,
            attempt=attempt(),
        )  # fmt: skip
    assert store.attempt_count() == 0
    assert card_states(store, now=T0) == []


@pytest.mark.parametrize(
    ("status", "self_rating", "expected"),
    [
        ("correct", None, Rating.Good),
        ("incorrect", None, Rating.Again),
        ("correct", "hard", Rating.Hard),
        ("incorrect", "easy", Rating.Easy),
    ],
)
def test_an_answer_rates_its_card_by_self_rating_else_by_status(
    status: str, self_rating: str | None, expected: Rating
) -> None:
    from progress.scheduling import rating_for_answer

    assert rating_for_answer(status=status, self_rating=self_rating) is expected
