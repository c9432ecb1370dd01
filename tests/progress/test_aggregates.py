"""SQL aggregates: the same sums as counting by hand, through indexes, on a real store."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Rating

from progress import Attempt, Mode, Status, Store
from progress.aggregates import (
    ITEM_DAY_TOTALS_SQL,
    SnapshotCache,
    daily_accuracy,
    item_day_totals,
    load_snapshot,
    mock_scores,
    reviews_per_day,
    started_items,
    tried_templates,
)
from progress.readiness import ItemStatus, assess
from progress.scheduling import review
from progress.utc import to_iso

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
ITEMS = {"kv-cache": ("kv-a", "kv-b", "kv-c"), "fusion": ("fu-a", "fu-b")}
CAP_S = 600.0


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "progress.db", clock=lambda: NOW)


def random_attempts(seed: int, n: int = 300) -> list[Attempt]:
    rng = random.Random(seed)
    attempts = []
    for i in range(n):
        item = rng.choice(sorted(ITEMS))
        correct = rng.random() < 0.7
        attempts.append(
            Attempt(
                created_at=NOW - timedelta(hours=rng.uniform(0, 24 * 60)),
                template_id=rng.choice(ITEMS[item]),
                checklist_item=item,
                seed=i,
                response="1 GB",
                status=Status.CORRECT if correct else Status.INCORRECT,
                score=rng.choice([1.0, 0.5]) if correct else 0.0,
                mode=rng.choice(list(Mode)),
                duration_s=rng.choice([None, rng.uniform(5, 2000)]),
            )
        )
    return attempts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_item_day_totals_match_counting_by_hand(store: Store, seed: int) -> None:
    attempts = random_attempts(seed)
    store.record_attempts(attempts)
    since = NOW.date() - timedelta(days=30)
    expected: dict[tuple[str, date, bool], list[float]] = defaultdict(lambda: [0, 0.0, 0, 0.0])
    for a in attempts:
        if a.day < since:
            continue
        sums = expected[a.checklist_item, a.day, a.mode is Mode.MOCK]
        sums[0] += 1
        sums[1] += a.score
        if a.duration_s is not None:
            sums[2] += 1
            sums[3] += min(a.duration_s, CAP_S)
    with store.connect(write=False) as conn:
        totals = item_day_totals(conn, since=since, duration_cap_s=CAP_S)
    got = {(t.checklist_item, t.day, t.mock): t for t in totals}
    assert set(got) == set(expected)
    for key, (n, score, n_timed, duration) in expected.items():
        total = got[key]
        assert (total.n_answers, total.n_timed) == (n, n_timed)
        assert total.score_sum == pytest.approx(score)
        assert total.capped_duration_sum_s == pytest.approx(duration)


def test_daily_accuracy_sums_items_and_modes(store: Store) -> None:
    attempts = random_attempts(4)
    store.record_attempts(attempts)
    with store.connect(write=False) as conn:
        series = daily_accuracy(item_day_totals(conn, since=date(2000, 1, 1), duration_cap_s=CAP_S))
    by_day: dict[date, list[float]] = defaultdict(list)
    for a in attempts:
        by_day[a.day].append(a.score)
    assert [d.day for d in series] == sorted(by_day)
    for point in series:
        assert point.n_answers == len(by_day[point.day])
        assert point.accuracy == pytest.approx(sum(by_day[point.day]) / len(by_day[point.day]))


def test_started_items_and_tried_templates_are_those_with_answers(store: Store) -> None:
    store.record_attempts(
        [a for a in random_attempts(5) if a.template_id != "kv-c" and a.checklist_item != "fusion"]
    )
    with store.connect(write=False) as conn:
        started = started_items(conn, ["kv-cache", "fusion", "not-an-item"])
        tried = tried_templates(conn, ["kv-a", "kv-c", "not-in-the-store"])
    assert (started, tried) == ({"kv-cache"}, {"kv-a"})


def test_the_aggregate_reads_a_covering_index_not_the_table(store: Store) -> None:
    store.record_attempts(random_attempts(6, n=20))
    with store.connect(write=False) as conn:
        rows = conn.execute(
            "EXPLAIN QUERY PLAN " + ITEM_DAY_TOTALS_SQL, {"since": "2026-01-01", "cap": CAP_S}
        )
        plan = " ".join(str(row[3]) for row in rows)
    assert "COVERING INDEX" in plan


def test_reviews_per_day_counts_the_review_log(store: Store) -> None:
    for days_ago, n in ((3, 2), (1, 4)):
        for i in range(n):
            review(
                store,
                template_id=f"kv-{i}",
                checklist_item="kv-cache",
                rating=Rating.Good,
                now=NOW - timedelta(days=days_ago),
                enable_fuzzing=False,
            )
    with store.connect(write=False) as conn:
        series = reviews_per_day(conn, since=NOW.date() - timedelta(days=10))
    assert [(d.day, d.count) for d in series] == [
        (NOW.date() - timedelta(days=3), 2),
        (NOW.date() - timedelta(days=1), 4),
    ]


def test_mock_scores_keep_finished_mocks_in_order(store: Store) -> None:
    rows = [
        (NOW - timedelta(days=2), "finished", 0.75),
        (NOW - timedelta(days=5), "finished", 0.5),
        (NOW, "running", None),
    ]
    with store.connect() as conn:
        for at, status, score in rows:
            conn.execute(
                "INSERT INTO mocks (created_at, started_at, deadline, finished_at, duration_s, config, "
                "problems, status, score) VALUES (?, ?, ?, ?, 1800, '{}', '[]', ?, ?)",
                (
                    to_iso(at),
                    to_iso(at),
                    to_iso(at),
                    to_iso(at) if score is not None else None,
                    status,
                    score,
                ),
            )
        got = mock_scores(conn)
    assert [m.score for m in got] == [0.5, 0.75]


def test_a_snapshot_of_an_empty_store_is_every_item_not_started(store: Store) -> None:
    snapshot = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW)
    assert snapshot.empty
    assert snapshot.daily_accuracy == () and snapshot.reviews_per_day == () and snapshot.mock_scores == ()
    overall = assess(snapshot.evidence, now=NOW)
    assert [i.status for i in overall.items] == [ItemStatus.NOT_STARTED] * 2


def test_the_snapshot_version_moves_with_every_answer_and_review(store: Store) -> None:
    versions = [load_snapshot(store, template_ids_by_item=ITEMS, now=NOW).version]
    store.record_attempts(random_attempts(8, n=1))
    versions.append(load_snapshot(store, template_ids_by_item=ITEMS, now=NOW).version)
    review(store, template_id="kv-a", checklist_item="kv-cache", rating=Rating.Good, now=NOW)
    versions.append(load_snapshot(store, template_ids_by_item=ITEMS, now=NOW).version)
    assert len(set(versions)) == 3


def test_a_snapshot_gathers_each_items_evidence(store: Store) -> None:
    store.record_attempts(random_attempts(7))
    review(store, template_id="kv-a", checklist_item="kv-cache", rating=Rating.Good, now=NOW)
    snapshot = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW)
    kv, fusion = snapshot.evidence
    assert (kv.checklist_item, fusion.checklist_item) == ("kv-cache", "fusion")
    assert set(kv.cards) == {"kv-a"} and fusion.cards == {}
    assert kv.attempted_template_ids == frozenset(ITEMS["kv-cache"])
    assert kv.started and fusion.started and not snapshot.empty


# --- the snapshot cache: reuse what an unchanged database holds, never hide a new answer, review or mock


def _answers(snapshot: object) -> int:
    return sum(t.n_answers for e in snapshot.evidence for t in e.day_totals)  # type: ignore[attr-defined]


def test_an_unchanged_database_reuses_the_evidence_it_read(store: Store) -> None:
    store.record_attempts(random_attempts(3, n=50))
    cache = SnapshotCache()
    first = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    again = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    assert again.evidence is first.evidence
    assert again == load_snapshot(store, template_ids_by_item=ITEMS, now=NOW)  # same as reading afresh


def test_a_new_answer_or_review_is_seen_at_once(store: Store) -> None:
    cache = SnapshotCache()
    store.record_attempts(random_attempts(4, n=10))
    before = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    store.record_attempts(random_attempts(5, n=1))
    after = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    assert _answers(after) == _answers(before) + 1
    review(store, template_id="fu-a", checklist_item="fusion", rating=Rating.Good, now=NOW)
    reviewed = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    assert "fu-a" in reviewed.evidence[1].cards


def test_a_finished_mock_shows_although_no_answer_changed(store: Store) -> None:
    cache = SnapshotCache()
    assert load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache).mock_scores == ()
    with store.connect() as conn:
        conn.execute(
            "INSERT INTO mocks (created_at, started_at, deadline, finished_at, duration_s, config, problems, "
            "status, score) VALUES (?, ?, ?, ?, 1800, '{}', '[]', 'finished', 0.5)",
            (to_iso(NOW), to_iso(NOW), to_iso(NOW), to_iso(NOW)),
        )
    [mock] = load_snapshot(store, template_ids_by_item=ITEMS, now=NOW, cache=cache).mock_scores
    assert mock.score == 0.5


def test_two_databases_never_share_an_entry(tmp_path: Path) -> None:
    cache = SnapshotCache()
    busy, empty = Store(tmp_path / "a.db"), Store(tmp_path / "b.db")
    busy.record_attempts(random_attempts(6, n=20))
    load_snapshot(busy, template_ids_by_item=ITEMS, now=NOW, cache=cache)
    assert load_snapshot(empty, template_ids_by_item=ITEMS, now=NOW, cache=cache).empty


def test_the_cache_keeps_only_the_most_recent_entries() -> None:
    cache = SnapshotCache(max_entries=2)
    for key in "abc":
        cache.put(key, ((), (), ()))
    assert cache.get("a") is None and cache.get("c") == ((), (), ())
