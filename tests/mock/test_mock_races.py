"""Races on mocks, as bounded stress tests: two starts at once start one mock; no answer lands after finish.

Each race is run many times with real processes or threads and real SQLite locking; every round
must come out right. The number of rounds and the time are bounded.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from progress import Store
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.rows import MockStatus, list_mocks, mock_answers
from progress.mock.session import finish, start, submit
from tests.progress.store_kit import schema_file

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 40
TRIALS = 30
# Waits for a line on stdin, tries to start a mock, prints "started ID" or "refused ID"; until EOF.
STARTER = """
import sys
from datetime import UTC, datetime
from progress import Store
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.session import MockRunningError, start

store = Store(sys.argv[1])
config = MockConfig.from_minutes(duration_min=15, n_problems=1)
print("ready", flush=True)
for _ in sys.stdin:
    try:
        session = start(store, config=config, problems=[ProblemRef("kv-bytes-per-token", 1)],
                        now=datetime.now(UTC))
        print("started", session.id, flush=True)
    except MockRunningError as exc:
        print("refused", exc.mock_id, flush=True)
"""


def _running_count(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM mocks WHERE status = 'running'").fetchone()[0])
    finally:
        conn.close()


def test_two_processes_starting_at_once_start_one_mock(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    Store(path).attempt_count()  # created and migrated before the race
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, str(path)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    # A stuck round must not hang the suite: the processes are killed after two minutes.
    watchdog = threading.Timer(120, lambda: [p.kill() for p in starters])
    watchdog.start()
    try:
        for starter in starters:
            assert starter.stdout is not None and starter.stdout.readline().strip() == "ready"
        for _ in range(ROUNDS):
            for starter in starters:
                assert starter.stdin is not None
                starter.stdin.write("go\n")
                starter.stdin.flush()
            replies = [starter.stdout.readline().split() for starter in starters if starter.stdout]
            started = [int(reply[1]) for reply in replies if reply[0] == "started"]
            assert len(started) == 1, replies
            assert _running_count(path) == 1
            assert finish(Store(path), mock_id=started[0], now=datetime.now(UTC))
    finally:
        watchdog.cancel()
        for starter in starters:
            if starter.stdin:
                starter.stdin.close()
        for starter in starters:
            starter.wait(timeout=30)
        errors = [starter.stderr.read() if starter.stderr else "" for starter in starters]
        for starter in starters:
            for stream in (starter.stdout, starter.stderr):
                if stream:
                    stream.close()
    assert all(starter.returncode == 0 for starter in starters), errors
    assert len(list_mocks(Store(path), status=MockStatus.FINISHED)) == ROUNDS


def test_no_answer_lands_after_finish_returned(tmp_path: Path) -> None:
    store = Store(tmp_path / "progress.db")
    config = MockConfig.from_minutes(duration_min=60, n_problems=1)
    changed_after_finish = 0
    for trial in range(TRIALS):
        now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC) + timedelta(hours=2 * trial)
        session = start(store, config=config, problems=[ProblemRef("kv-bytes-per-token", 1)], now=now)
        stop = threading.Event()
        accepted: list[int] = []

        def answer_fast(
            mock_id: int = session.id,
            at: datetime = now,
            stop: threading.Event = stop,
            accepted: list[int] = accepted,
        ) -> None:
            i = 0
            while not stop.is_set():
                i += 1
                if submit(store, mock_id=mock_id, position=0, response=str(i), now=at).accepted:
                    accepted.append(i)

        writer = threading.Thread(target=answer_fast)
        writer.start()
        try:
            while len(accepted) < 3 and writer.is_alive():
                time.sleep(0.001)
            assert finish(store, mock_id=session.id, now=now + timedelta(minutes=5))
            at_finish = mock_answers(store, session.id)
            time.sleep(0.05)  # the writer keeps trying meanwhile
        finally:
            stop.set()
            writer.join(timeout=30)
        later = mock_answers(store, session.id)
        changed_after_finish += later != at_finish
        assert later and later[0].response == str(accepted[-1])  # the last acknowledged answer is kept
    assert changed_after_finish == 0


def test_an_older_file_with_two_running_mocks_keeps_the_newest_running(tmp_path: Path) -> None:
    # The race could already have left two running mocks in a file: upgrading must still work.
    path = tmp_path / "progress.db"
    conn = schema_file(path, version=2)  # before one running mock was enforced
    try:
        for started, deadline in (("09:00", "09:30"), ("09:10", "09:40")):
            conn.execute(
                "INSERT INTO mocks (created_at, started_at, deadline, duration_s, config, problems, status) "
                "VALUES (?, ?, ?, 1800, '{}', '[]', 'running')",
                (f"2026-03-02T{started}:00.000000+00:00", f"2026-03-02T{started}:00.000000+00:00",
                 f"2026-03-02T{deadline}:00.000000+00:00"),
            )  # fmt: skip
    finally:
        conn.close()
    older, newest = sorted(list_mocks(Store(path)), key=lambda m: m.id)
    assert (older.status, newest.status) == (MockStatus.FINISHED, MockStatus.RUNNING)
    assert older.finished_at == newest.started_at  # it ended when the newer one began
