"""The device lock lives in a folder only this user can enter, and never follows a planted link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_checks.errors import RunInProgressError, UnsafeLockError
from gpu_checks.lock import DeviceLock, default_lock_dir, private_folder

pytestmark = pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions and advisory locks")


def test_a_missing_folder_is_created_private(tmp_path: Path) -> None:
    folder = tmp_path / "locks"
    lock = DeviceLock(lock_dir=folder, device_key="cpu")
    lock.acquire(what="quick run")
    try:
        assert folder.stat().st_mode & 0o777 == 0o700
        assert lock.path.stat().st_mode & 0o777 == 0o600
        assert lock.path.read_text(encoding="utf-8").startswith(f"process {os.getpid()}, quick run")
    finally:
        lock.release()


def test_a_planted_link_in_place_of_the_lock_file_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    folder = private_folder(tmp_path / "locks")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (folder / "gpu-checks-cpu.lock").symlink_to(victim)
    with pytest.raises(UnsafeLockError, match="symbolic link"):
        DeviceLock(lock_dir=folder, device_key="cpu").acquire(what="quick run")
    assert victim.read_text(encoding="utf-8") == "precious"


def test_a_dangling_planted_link_creates_nothing(tmp_path: Path) -> None:
    folder = private_folder(tmp_path / "locks")
    target = tmp_path / "created-by-the-link"
    (folder / "gpu-checks-cpu.lock").symlink_to(target)
    with pytest.raises(UnsafeLockError):
        DeviceLock(lock_dir=folder, device_key="cpu").acquire(what="quick run")
    assert not target.exists()


def test_a_fifo_in_place_of_the_lock_file_is_refused_without_blocking(tmp_path: Path) -> None:
    folder = private_folder(tmp_path / "locks")
    os.mkfifo(folder / "gpu-checks-cpu.lock")
    with pytest.raises(UnsafeLockError, match="not a regular file"):
        DeviceLock(lock_dir=folder, device_key="cpu").acquire(what="quick run")


def test_a_folder_open_to_others_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "locks"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.raises(UnsafeLockError, match="chmod 700"):
        DeviceLock(lock_dir=folder, device_key="cpu").acquire(what="quick run")
    assert folder.stat().st_mode & 0o777 == 0o777
    assert not (folder / "gpu-checks-cpu.lock").exists()


def test_a_folder_only_this_user_writes_to_is_made_private(tmp_path: Path) -> None:
    folder = tmp_path / "locks"
    folder.mkdir()
    folder.chmod(0o755)
    lock = DeviceLock(lock_dir=folder, device_key="cpu")
    lock.acquire(what="quick run")
    lock.release()
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    real = private_folder(tmp_path / "elsewhere")
    (tmp_path / "locks").symlink_to(real, target_is_directory=True)
    with pytest.raises(UnsafeLockError, match="symbolic link"):
        DeviceLock(lock_dir=tmp_path / "locks", device_key="cpu").acquire(what="quick run")
    assert list(real.iterdir()) == []


def test_a_second_holder_is_still_told_who_holds_the_device(tmp_path: Path) -> None:
    first = DeviceLock(lock_dir=tmp_path / "locks", device_key="cpu")
    first.acquire(what="full run")
    try:
        with pytest.raises(RunInProgressError, match="full run"):
            DeviceLock(lock_dir=tmp_path / "locks", device_key="cpu").acquire(what="quick run")
    finally:
        first.release()


def test_the_default_folder_is_the_users_runtime_folder_when_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert default_lock_dir() == tmp_path / "roofline-drill"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert default_lock_dir().name == f"roofline-drill-{os.getuid()}"
