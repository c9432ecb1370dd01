"""DRILL_SWEEP_CACHE: a sweep's outcome is stored on disk under a key of everything it depends on."""

from __future__ import annotations

from pathlib import Path

import pytest
from bank_kit import ALWAYS_INFINITE

from question_bank import generation_checks, sweep_cache
from question_bank.generation_checks import sweep_issues


def _counting(outcome: list[str] | None) -> tuple[list[int], object]:
    calls: list[int] = []

    def compute() -> list[str] | None:
        calls.append(1)
        return outcome

    return calls, compute


def test_unset_nothing_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(sweep_cache.ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    calls, compute = _counting(None)
    for _ in range(2):
        assert sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v) is None
    assert len(calls) == 2 and not list(tmp_path.iterdir())


def test_set_an_outcome_is_computed_once_per_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sweep_cache.ENV_VAR, str(tmp_path / "sweeps"))
    calls, compute = _counting(["answer", "seed 3: boom", "fix it"])
    for _ in range(2):
        found = sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v)
        assert found == ["answer", "seed 3: boom", "fix it"]
    assert len(calls) == 1
    sweep_cache.cached("another key", compute, encode=lambda v: v, decode=lambda v: v)
    assert len(calls) == 2
    assert len(list((tmp_path / "sweeps").glob("*.json"))) == 2


def test_a_new_fingerprint_is_a_new_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sweep_cache.ENV_VAR, str(tmp_path))
    calls, compute = _counting(None)
    sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v)
    monkeypatch.setattr(sweep_cache, "code_fingerprint", lambda: "changed code")
    sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v)
    assert len(calls) == 2


def test_the_fingerprint_covers_the_code_and_the_presets() -> None:
    roots = {path.name for path in sweep_cache._PACKAGE_DIRS}
    assert roots == {"grader", "question_bank"}
    assert all((root / "__init__.py").is_file() for root in sweep_cache._PACKAGE_DIRS)
    assert len(sweep_cache.code_fingerprint()) == 64


def test_an_unreadable_entry_or_unwritable_folder_only_computes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(sweep_cache.ENV_VAR, str(blocker))
    calls, compute = _counting(None)
    assert sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v) is None
    monkeypatch.setenv(sweep_cache.ENV_VAR, str(tmp_path))
    sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v)
    [entry] = tmp_path.glob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    sweep_cache.cached("k", compute, encode=lambda v: v, decode=lambda v: v)
    assert len(calls) == 3


def test_a_sweep_read_back_finds_the_same_issues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user template that fails: the stored outcome, read in a fresh process's memo, is the same issue."""
    monkeypatch.setenv(sweep_cache.ENV_VAR, str(tmp_path / "sweeps"))
    monkeypatch.setattr(generation_checks, "_SWEPT", {})
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "mine.yaml").write_text(ALWAYS_INFINITE, encoding="utf-8")
    bank = generation_checks.load_bank([tmp_path / "mine"], include_shipped=False)
    first = sweep_issues(bank)
    assert [issue.template_id for issue in first] == ["always-infinite"]
    assert list((tmp_path / "sweeps").glob("*.json"))
    monkeypatch.setattr(generation_checks, "_SWEPT", {})  # as a new process would start
    monkeypatch.setattr(generation_checks, "_template_failure", lambda *_: pytest.fail("swept again"))
    assert sweep_issues(bank) == first
