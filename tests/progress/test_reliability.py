"""Writes survive a kill -9, and two processes writing at once lose nothing and never see a lock error."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from store_kit import attempt

from progress import Store

ROOT = Path(__file__).resolve().parents[2]
# Writes N attempts, one transaction each, and prints each id only after its commit returned.
# With a start line on stdin, it first says "ready" and waits, so that two writers start together.
WRITER = """
import sys
from datetime import UTC, datetime, timedelta
from progress import Attempt, Store

path, tag, count, wait = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "wait"
store = Store(path)
t0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
if wait:
    print("ready", flush=True)
    sys.stdin.readline()
for i in range(count):
    attempt = Attempt(
        created_at=t0 + timedelta(microseconds=i), template_id=f"{tag}-{i}", checklist_item="kv-cache",
        seed=i, params={"i": i}, response=str(i), status="correct", score=1.0,
    )
    print(store.record_attempt(attempt), flush=True)
"""


def _writer(path: Path, tag: str, count: int, *, wait: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), tag, str(count), "wait" if wait else "go"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stored_ids(path: Path) -> tuple[set[int], str]:
    conn = sqlite3.connect(path)
    try:
        ids = {row[0] for row in conn.execute("SELECT id FROM attempts")}
        return ids, conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def test_every_acknowledged_write_survives_kill_9(tmp_path):
    path = tmp_path / "progress.db"
    writer = _writer(path, "kill", 1000)
    acknowledged: list[int] = []
    assert writer.stdout is not None
    for line in writer.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 150:
            # A random pause lands the kill at a random point of some later transaction.
            time.sleep(random.uniform(0, 0.05))
            os.kill(writer.pid, signal.SIGKILL)
            break
    # Ids already in the pipe were printed after their commit: they count as acknowledged too.
    acknowledged += [int(line) for line in writer.stdout]
    _, stderr = writer.communicate(timeout=30)
    assert writer.returncode == -signal.SIGKILL, stderr
    assert len(acknowledged) < 1000  # killed in the middle, not after the end

    stored, integrity = _stored_ids(path)
    assert integrity == "ok"
    assert set(acknowledged) <= stored
    # At most the one write that committed but had not been printed yet.
    assert len(stored) - len(acknowledged) in (0, 1)
    store = Store(path)
    assert store.attempt_count() == len(stored)
    assert store.record_attempt(attempt()) == max(stored) + 1  # the file takes writes again
    print(f"kill -9: {len(acknowledged)} writes acknowledged, {len(stored)} found")


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / "progress.db"
    writers = [_writer(path, tag, 300, wait=True) for tag in ("left", "right")]
    for writer in writers:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "ready"
    for writer in writers:
        writer.stdin.write("go\n")
        writer.stdin.flush()
    results = [writer.communicate(timeout=120) for writer in writers]

    for writer, (_, stderr) in zip(writers, results, strict=True):
        assert writer.returncode == 0, stderr
        assert "locked" not in stderr
    acknowledged = [int(line) for stdout, _ in results for line in stdout.split()]
    assert len(acknowledged) == len(set(acknowledged)) == 600
    stored, integrity = _stored_ids(path)
    assert integrity == "ok"
    assert stored == set(acknowledged)
    tags = {a.template_id.split("-")[0] for a in Store(path).attempts()}
    assert tags == {"left", "right"}
    print(f"two writers: {len(acknowledged)} writes acknowledged, {len(stored)} found")
