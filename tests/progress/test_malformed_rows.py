"""A stored attempt row that is not a well-formed attempt (a score of inf, a day of 'garbage', text in a
number column) is skipped and named; the export, the store's readers and readiness go on with the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from store_kit import MALFORMED_ROWS, T0, new_store, with_malformed_row

from progress import Store, streak
from progress.aggregates import load_snapshot
from progress.export import export_report
from progress.readiness import assess

ROOT = Path(__file__).resolve().parents[2]
# The spoils the readiness totals read (score, day, duration): named there; the others do not reach them.
READ_BY_READINESS = ("score", "duration", "day text", "day a number", "day not a date", "checklist_item")
READINESS_SPOILS = {name for name in MALFORMED_ROWS if name.startswith(READ_BY_READINESS)}


@pytest.fixture(params=sorted(MALFORMED_ROWS))
def malformed(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Store, int, str]:
    store = new_store(tmp_path)
    return store, with_malformed_row(store, MALFORMED_ROWS[request.param]), request.param


def test_the_export_skips_the_row_names_it_and_keeps_the_rest(malformed: tuple[Store, int, str]) -> None:
    store, spoiled, _ = malformed
    export = export_report(store.path, "json")
    assert sorted(row["seed"] for row in json.loads(export.text)) == [0, 1, 2]
    assert [row.id for row in export.skipped] == [spoiled]
    assert f"#{spoiled}" in export.notice and "left out of the export" in export.notice


def test_the_command_line_exports_the_rest_and_names_the_row_on_stderr(
    malformed: tuple[Store, int, str],
) -> None:
    store, spoiled, _ = malformed
    done = subprocess.run(
        [sys.executable, "-m", "progress", "export", "--format", "csv", "--db", str(store.path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1 + 3  # the header and the three good rows
    assert f"1 stored answer row could not be read (#{spoiled})" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_stores_reader_skips_the_row(malformed: tuple[Store, int, str]) -> None:
    store, _, _ = malformed
    assert sorted(a.seed for a in store.attempts()) == [0, 1, 2]
    assert store.attempt_count() == 4  # nothing was deleted


def test_readiness_reads_the_rest_and_names_the_row(malformed: tuple[Store, int, str]) -> None:
    store, spoiled, name = malformed
    now = T0 + timedelta(days=1)
    snapshot = load_snapshot(store, template_ids_by_item={"kv-cache": ["kv-bytes-per-token"]}, now=now)
    [item] = assess(snapshot.evidence, now=now).items
    answers = sum(total.n_answers for total in snapshot.evidence[0].day_totals)
    if name in READINESS_SPOILS:
        assert snapshot.skipped_rows == (spoiled,) and answers == 3
    else:
        assert snapshot.skipped_rows == () and answers in (3, 4)
    assert item.checklist_item == "kv-cache" and item.score == item.score  # a number, not NaN
    assert streak(store, today=now.date()) >= 0
