"""The store's own errors: a full disk, a file deleted or emptied under the app, a path that is no file.

Each is a StoreError naming the file and what to do; a vanished file is never re-created behind the
user's back, only by their choice (``start_afresh``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest
from store_kit import attempt, fingerprint, new_store

import progress.store
from progress import DatabaseAccessError, DiskFullError, Store, StoreError, VanishedDatabaseError
from progress.store import insert_attempts


def test_a_full_disk_names_the_file_and_keeps_what_was_saved(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    with pytest.raises(DiskFullError) as caught, store.connect() as conn:
        # SQLite's page limit answers exactly as a full disk does: SQLITE_FULL on the next write.
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        insert_attempts(conn, [attempt(response="x" * 200_000)])
    message = str(caught.value)
    assert str(store.path) in message and "Free some disk space" in message
    assert store.attempt_count() == 1


def _io_error(extended_code: int) -> sqlite3.OperationalError:
    """The error SQLite raises when the OS refuses a write it cannot report as SQLITE_FULL."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = extended_code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize("extended_code", [778, 1034, 4874], ids=["write", "fsync", "shm size"])
def test_an_io_error_on_a_full_disk_is_named_a_full_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extended_code: int
) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    monkeypatch.setattr(progress.store, "free_bytes", lambda folder: 4096)
    with pytest.raises(DiskFullError) as caught, store.connect() as conn:
        insert_attempts(conn, [attempt()])
        raise _io_error(extended_code)
    message = str(caught.value)
    assert "is full" in message and "Nothing was lost" in message and "Free some disk space" in message
    assert "permissions" not in message
    monkeypatch.undo()
    assert store.attempt_count() == 1


def test_an_io_error_with_room_on_the_disk_is_still_an_io_error(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    with pytest.raises(DatabaseAccessError) as caught, store.connect():
        raise _io_error(778)
    assert "the disk reported an error" in str(caught.value)
    assert not isinstance(caught.value, DiskFullError)


@pytest.mark.parametrize("same_store", [True, False], ids=["running store", "new store on the path"])
def test_a_database_deleted_under_the_app_is_refused_not_recreated(tmp_path: Path, same_store: bool) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    os.remove(store.path)
    reader = store if same_store else Store(store.path)
    for use in (reader.attempt_count, reader.settings, lambda: reader.record_attempt(attempt())):
        with pytest.raises(VanishedDatabaseError) as caught:
            use()
        assert str(store.path) in str(caught.value) and "was deleted" in str(caught.value)
    assert not store.path.exists()


@pytest.mark.parametrize("same_store", [True, False], ids=["running store", "new store on the path"])
def test_a_database_emptied_under_the_app_is_refused_and_left_empty(tmp_path: Path, same_store: bool) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    os.truncate(store.path, 0)
    reader = store if same_store else Store(store.path)
    with pytest.raises(VanishedDatabaseError) as caught:
        reader.attempts()
    assert "was emptied" in str(caught.value) and str(store.path) in str(caught.value)
    with pytest.raises(VanishedDatabaseError):
        reader.record_attempt(attempt())
    assert store.path.stat().st_size == 0


def test_starting_afresh_is_the_users_choice_and_never_replaces_data(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    os.remove(store.path)
    Store(store.path).start_afresh()
    assert store.attempt_count() == 0
    store.record_attempt(attempt())
    before = fingerprint(store.path)
    Store(store.path).start_afresh()  # a file with data in it is opened as it is
    assert store.attempt_count() == 1 and fingerprint(store.path) == before


def test_a_first_run_still_creates_the_file(tmp_path: Path) -> None:
    store = Store(tmp_path / "new" / "progress.db")
    assert store.attempt_count() == 0
    assert store.path.is_file()


def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "progress.db"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def use() -> None:
        try:
            Store(fifo).attempt_count()
        except BaseException as exc:  # collected for the assertion below
            outcome.append(exc)
        else:
            outcome.append(None)

    # Opening a FIFO for reading blocks until a writer comes; a hang would show as no outcome.
    worker = threading.Thread(target=use, daemon=True)
    worker.start()
    worker.join(timeout=30)
    if worker.is_alive():  # unblock the stuck open so the test process can end
        with open(fifo, "wb"):
            pass
    assert outcome and isinstance(outcome[0], DatabaseAccessError), outcome
    assert "not a regular file" in str(outcome[0]) and str(fifo) in str(outcome[0])


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_is_refused(device: str) -> None:
    with pytest.raises(DatabaseAccessError) as caught:
        Store(device).attempt_count()
    assert "not a regular file" in str(caught.value) and device in str(caught.value)


def test_a_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "progress.db"
    link.symlink_to("/dev/null")
    with pytest.raises(StoreError, match="not a regular file"):
        Store(link).record_attempt(attempt())
