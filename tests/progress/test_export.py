"""``python -m progress export``: every attempt as JSON or CSV; a missing database stays missing."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from store_kit import attempt, fingerprint

from progress import Mode, Status, Store
from progress.__main__ import main
from progress.attempt import COLUMNS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def filled_db(tmp_path):
    path = tmp_path / "progress.db"
    Store(path).record_attempts(
        [
            attempt(),
            attempt(
                template_id="fusion-two-ops",
                checklist_item="fusion",
                response="1",
                value=None,
                status=Status.INCORRECT,
                score=0.0,
                diagnosis="counted-twice",
                mode=Mode.MOCK,
                mock_id=3,
                duration_s=None,
                params={},
            ),
        ]
    )
    return path


def test_json_lists_every_attempt(filled_db, capsys):
    assert main(["export", "--format", "json", "--db", str(filled_db)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["template_id"] for row in rows] == ["kv-bytes-per-token", "fusion-two-ops"]
    assert list(rows[0]) == list(COLUMNS)
    assert rows[0]["params"] == {"model": "llama2_13b", "dtype": "fp16"}
    assert rows[0]["created_at"] == "2026-03-02T09:30:00.000000+00:00"
    assert (rows[1]["status"], rows[1]["mode"], rows[1]["mock_id"], rows[1]["value"]) == (
        "incorrect",
        "mock",
        3,
        None,
    )


def test_csv_has_a_header_then_a_row_per_attempt(filled_db, capsys):
    assert main(["export", "--format", "csv", "--db", str(filled_db)]) == 0
    out = capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0] == ",".join(COLUMNS)
    assert len(rows) == 2
    assert json.loads(rows[0]["params"]) == {"model": "llama2_13b", "dtype": "fp16"}
    assert (rows[0]["value"], rows[1]["value"], rows[1]["diagnosis"]) == ("819200.0", "", "counted-twice")


@pytest.mark.parametrize(("fmt", "expected"), [("json", []), ("csv", None)])
def test_a_missing_database_exports_empty_and_is_not_created(tmp_path, capsys, fmt, expected):
    path = tmp_path / "not-yet" / "progress.db"
    assert main(["export", "--format", fmt, "--db", str(path)]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out) == expected
    else:
        assert out == ",".join(COLUMNS) + "\n"
    assert not (tmp_path / "not-yet").exists()


def test_a_refused_database_is_reported_and_left_alone(tmp_path, capsys):
    path = tmp_path / "progress.db"
    path.write_text("not a database\n" * 20)
    before = fingerprint(path)
    assert main(["export", "--format", "csv", "--db", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err
    assert fingerprint(path) == before


def test_the_module_runs_and_reads_drill_db(tmp_path, filled_db):
    env = {**os.environ, "DRILL_DB": str(filled_db), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "progress", "export", "--format", "json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert len(json.loads(done.stdout)) == 2
