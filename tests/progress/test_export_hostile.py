"""Export against hostile data and files: formula cells, read-only media, empty and older files."""

from __future__ import annotations

import csv
import io
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_kit import attempt, fingerprint, schema_file

from progress import Store, export_attempts
from progress.attempt import COLUMNS

ROOT = Path(__file__).resolve().parents[2]
FORMULAS = ['=HYPERLINK("http://evil","x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1"]


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_text_cells_a_spreadsheet_would_run_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    Store(path).record_attempts(attempt(response=text, diagnosis=text) for text in FORMULAS)
    rows = _rows(export_attempts(path, "csv"))
    assert [row["response"] for row in rows] == ["'" + text for text in FORMULAS]
    assert [row["diagnosis"] for row in rows] == ["'" + text for text in FORMULAS]
    assert all(not row["template_id"].startswith("'") for row in rows)


def test_negative_numbers_stay_numbers_and_plain_text_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    Store(path).record_attempt(attempt(value=-3.5, seed=-7, duration_s=0.0, response="12 GB"))
    [row] = _rows(export_attempts(path, "csv"))
    assert (row["value"], row["seed"], row["response"]) == ("-3.5", "-7", "12 GB")


def test_a_zero_byte_file_exports_empty_and_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    path.touch()
    assert export_attempts(path, "csv") == ",".join(COLUMNS) + "\n"
    assert path.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.db"]


def test_an_older_file_exports_without_being_migrated(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    conn = schema_file(path, version=2)
    conn.execute(
        "INSERT INTO attempts (created_at, day, template_id, checklist_item, seed, response, status, score, "
        "mode) VALUES ('2026-01-02T03:04:05.000000+00:00', '2026-01-02', 'fusion-why', 'fusion', 1, '=1+1', "
        "'correct', 1.0, 'practice')"
    )
    conn.close()
    before = fingerprint(path)
    [row] = _rows(export_attempts(path, "csv"))
    assert (row["template_id"], row["response"], row["explanation"]) == ("fusion-why", "'=1+1", "")
    assert fingerprint(path) == before


def test_export_works_from_read_only_media(tmp_path: Path) -> None:
    # A real read-only mount, in a private mount namespace that vanishes with the process.
    if not shutil.which("unshare") or os.geteuid() != 0:
        pytest.skip("needs root and unshare to mount a read-only file system")
    source = tmp_path / "progress.db"
    Store(source).record_attempt(attempt(response="on a CD"))
    assert not (tmp_path / "progress.db-shm").exists()  # as it is found on the media: no -shm file
    media = tmp_path / "media"
    media.mkdir()
    script = (
        f"mount -t tmpfs tmpfs {media} && cp {source} {media}/ && mount -o remount,ro {media} && "
        f"! touch {media}/probe 2>/dev/null && "
        f"{sys.executable} -m progress export --format csv --db {media}/progress.db"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0 and "mount" in done.stderr and "progress" not in done.stderr:
        pytest.skip(f"this machine does not allow a private mount: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert [row["response"] for row in _rows(done.stdout)] == ["on a CD"]


def _wal_only_answers(folder: Path, count: int) -> Path:
    """A database in ``folder`` whose ``count`` answers are all still in its -wal log, and no -shm file.

    Written while another connection holds the file open, so no close checkpoints the log; the two
    files are then copied away, as found on media written by a running app.
    """
    source = folder / "source"
    source.mkdir()
    Store(source / "progress.db").attempt_count()
    holder = sqlite3.connect(source / "progress.db")
    try:
        holder.execute("SELECT count(*) FROM attempts").fetchone()
        Store(source / "progress.db").record_attempts(
            attempt(seed=n, response=f"{n} KiB") for n in range(count)
        )
        found = folder / "found"
        found.mkdir()
        for name in ("progress.db", "progress.db-wal"):
            shutil.copyfile(source / name, found / name)
    finally:
        holder.close()
    assert (found / "progress.db-wal").stat().st_size > 0 and not (found / "progress.db-shm").exists()
    return found


def _export_from_read_only_media(
    found: Path, media: Path, *, scratch_size: str
) -> subprocess.CompletedProcess[str]:
    if not shutil.which("unshare") or os.geteuid() != 0:
        pytest.skip("needs root and unshare to mount a read-only file system")
    scratch = media.parent / "scratch"
    media.mkdir()
    scratch.mkdir()
    script = (
        f"mount -t tmpfs tmpfs {media} && cp {found}/progress.db {found}/progress.db-wal {media}/ && "
        f"mount -o remount,ro {media} && ! touch {media}/probe 2>/dev/null && "
        f"mount -t tmpfs -o size={scratch_size} tmpfs {scratch} && "
        f"TMPDIR={scratch} {sys.executable} -m progress export --format csv --db {media}/progress.db"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0 and "mount" in done.stderr and "progress" not in done.stderr:
        pytest.skip(f"this machine does not allow a private mount: {done.stderr.strip()}")
    return done


def test_read_only_media_with_a_wal_and_no_shm_exports_every_committed_answer(tmp_path: Path) -> None:
    found = _wal_only_answers(tmp_path, 50)
    done = _export_from_read_only_media(found, tmp_path / "media", scratch_size="16m")
    assert done.returncode == 0, done.stderr
    assert sorted(int(row["seed"]) for row in _rows(done.stdout)) == list(range(50))


def test_a_wal_that_cannot_be_read_is_refused_with_a_message_not_exported_empty(tmp_path: Path) -> None:
    found = _wal_only_answers(tmp_path, 50)
    done = _export_from_read_only_media(found, tmp_path / "media", scratch_size="8k")
    assert done.returncode == 1
    assert "progress.db-wal" in done.stderr and "nothing was exported" in done.stderr
    assert done.stdout == ""
