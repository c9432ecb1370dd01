"""Server-side render time of the readiness page on an empty database and with 100,000 stored answers.

Each size gets a temporary database filled in one transaction (``executemany``): answers spread over the
last year on every template of the bank, one FSRS card per template, a review log per practice answer,
finished mocks and an interview date a month ahead (so the plan is drawn too); the empty one holds only
the interview date. The page then runs in Streamlit's AppTest (the server's script runner, without a
browser), through ``app.py`` as the server runs it, and each timed rerun includes the full
``gc.collect(2)`` the server makes after every script run (AppTest skips it). One warm-up run each, then
``--runs`` timed reruns, alternating between the sizes. Prints min/median/max, the parts of each (read,
rule, plan) and the ratio; the goals are a ratio of at most 2 and at most 0.3 s at 100,000 answers.

    .venv/bin/python benchmarks/readiness_scale.py [--runs N]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fsrs import Rating  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from progress import Settings, Store  # noqa: E402
from progress.aggregates import load_snapshot  # noqa: E402
from progress.plan import make_plan, seconds_per_card  # noqa: E402
from progress.readiness import assess, seconds_per_answer  # noqa: E402
from progress.scheduling import review, scheduler_for  # noqa: E402
from progress.utc import to_iso  # noqa: E402
from question_bank import load_bank, load_checklist  # noqa: E402
from ui import state_keys as keys  # noqa: E402

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
SIZES = (0, 100_000)
GOAL_RATIO = 2.0
GOAL_LARGE_S = 0.3
_INSERT_ATTEMPT = (
    "INSERT INTO attempts (created_at, day, template_id, checklist_item, seed, params, response, value, "
    "status, score, diagnosis, mode, mock_id, duration_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_LOG = "INSERT INTO review_logs (template_id, rating, reviewed_at, day, log) VALUES (?, ?, ?, ?, '{}')"
_INSERT_MOCK = (
    "INSERT INTO mocks (created_at, started_at, deadline, finished_at, duration_s, config, problems, status, "
    "score) VALUES (?, ?, ?, ?, 1800, '{}', '[]', 'finished', ?)"
)


def template_ids_by_item() -> dict[str, list[str]]:
    bank = load_bank()
    return {item.id: [t.id for t in bank.by_checklist(item.id)] for item in load_checklist()}


def fill(path: Path, n_answers: int, templates: dict[str, list[str]]) -> Store:
    """A database with ``n_answers`` synthetic answers, cards, review logs, mocks and plan settings."""
    rng = random.Random(n_answers)
    store = Store(path, clock=lambda: NOW)
    store.save_settings(Settings(interview_date=NOW.date() + timedelta(days=30), minutes_per_day=30))
    if not n_answers:
        return store
    pairs = [(item, t) for item, ids in templates.items() for t in ids]
    attempts, logs = [], []
    for seed in range(n_answers):
        item, template_id = rng.choice(pairs)
        at = NOW - timedelta(seconds=rng.uniform(0, 365 * 86_400))
        correct = rng.random() < 0.75
        mock = rng.random() < 0.1
        stamp, day = to_iso(at), at.date().isoformat()
        attempts.append(
            (stamp, day, template_id, item, seed, json.dumps({"model": "llama2_13b"}), "1.2 GB", 1.2e9,
             "correct" if correct else "incorrect", 1.0 if correct else 0.0, None,
             "mock" if mock else "practice", None, rng.uniform(15, 400))
        )  # fmt: skip
        if not mock:
            logs.append((template_id, 3 if correct else 1, stamp, day))
    mocks = [
        (to_iso(at), to_iso(at), to_iso(at), to_iso(at), rng.uniform(0.3, 0.95))
        for at in (NOW - timedelta(days=rng.uniform(0, 365)) for _ in range(max(1, n_answers // 1000)))
    ]
    with store.connect() as conn:
        conn.executemany(_INSERT_ATTEMPT, attempts)
        conn.executemany(_INSERT_LOG, logs)
        conn.executemany(_INSERT_MOCK, mocks)
    for item, template_id in pairs:  # one card per template, as the practice page leaves them
        for days_ago in (9, 7, 2):
            review(store, template_id=template_id, checklist_item=item, rating=Rating.Good,
                   now=NOW - timedelta(days=days_ago), enable_fuzzing=False)  # fmt: skip
    store.save_settings(Settings(interview_date=NOW.date() + timedelta(days=30), minutes_per_day=30))
    return store


def readiness_page(path: Path) -> AppTest:
    """The readiness page on the database at ``path``, run once (the warm-up)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[keys.DB_PATH] = str(path)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.switch_page("pages/readiness.py")
    return at.run()


def rerun_seconds(at: AppTest) -> float:
    """Seconds of one rerun of the page, with the collection the server runs after every script."""
    start = time.perf_counter()
    at.run()
    gc.collect(2)
    elapsed = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"the page raised: {at.exception[0].message}")
    return elapsed


def parts(store: Store, templates: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median seconds of the page's three package calls: the SQL read, the rule, the plan."""
    timings: dict[str, list[float]] = {"read": [], "rule": [], "plan": []}
    for _ in range(runs):
        start = time.perf_counter()
        snapshot = load_snapshot(store, template_ids_by_item=templates, now=NOW)
        read = time.perf_counter()
        assess(snapshot.evidence, now=NOW)
        rule = time.perf_counter()
        settings = store.settings()
        measured_s = seconds_per_answer(snapshot.evidence, now=NOW)
        make_plan(
            snapshot.evidence,
            today=NOW.date(),
            interview_date=settings.interview_date or NOW.date(),
            minutes_per_day=settings.minutes_per_day,
            seconds_per_card=seconds_per_card(answer_seconds=measured_s),
            daily_new_limit=settings.daily_new_limit,
            scheduler=scheduler_for(settings, enable_fuzzing=False),
            answer_seconds=measured_s,
        )
        done = time.perf_counter()
        timings["read"].append(read - start)
        timings["rule"].append(rule - read)
        timings["plan"].append(done - rule)
    return {name: statistics.median(values) for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed reruns per size (default 15)")
    args = parser.parse_args()
    templates = template_ids_by_item()
    with tempfile.TemporaryDirectory() as folder:
        stores, filled = {}, {}
        for n in SIZES:
            start = time.perf_counter()
            stores[n] = fill(Path(folder) / f"answers-{n}.db", n, templates)
            filled[n] = time.perf_counter() - start
        pages = {n: readiness_page(store.path) for n, store in stores.items()}
        times: dict[int, list[float]] = {n: [] for n in SIZES}
        for _ in range(args.runs):  # alternating, so that machine noise hits both sizes alike
            for n in SIZES:
                times[n].append(rerun_seconds(pages[n]))
        medians = {n: statistics.median(values) for n, values in times.items()}
        for n in SIZES:
            split = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in parts(stores[n], templates, 5).items())
            print(
                f"{n:>7,} answers: render median {medians[n] * 1000:6.1f} ms "
                f"(min {min(times[n]) * 1000:.1f}, max {max(times[n]) * 1000:.1f}, {args.runs} runs; "
                f"filled in {filled[n]:.1f} s); of which {split}"
            )
    small, large = medians[SIZES[0]], medians[SIZES[-1]]
    ratio = large / small
    print(f"ratio {SIZES[-1]:,} / {SIZES[0]:,}: {ratio:.2f}x (goal <= {GOAL_RATIO:g}x)")
    print(f"at {SIZES[-1]:,}: {large:.3f} s (goal <= {GOAL_LARGE_S} s)")
    print("goals met" if ratio <= GOAL_RATIO and large <= GOAL_LARGE_S else "goals NOT met")
    print(
        "(reruns reuse the plan while no answer, review or setting changes; the 'plan' part above is what "
        "the first render after such a change adds)"
    )


if __name__ == "__main__":
    main()
