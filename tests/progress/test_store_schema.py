"""A database of this app's schema that was tampered with (a trigger, a view, a table gone) is refused by
name at the first open, by the store and by the export, and is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_kit import TAMPERINGS, attempt, fingerprint, tampered_file

from progress import CorruptDatabaseError, Store, export_attempts


@pytest.fixture(params=sorted(TAMPERINGS))
def tampered(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    path = tampered_file(tmp_path / "progress.db", request.param)
    return path, TAMPERINGS[request.param][1]


def test_the_store_refuses_a_tampered_file_by_name_and_leaves_it_alone(tampered: tuple[Path, str]) -> None:
    path, named = tampered
    before = fingerprint(path)
    for use in (
        lambda store: store.attempt_count(),
        lambda store: store.record_attempt(attempt()),
        lambda store: store.settings(),
    ):
        with pytest.raises(CorruptDatabaseError) as caught:
            use(Store(path))
        message = str(caught.value)
        assert named in message and str(path) in message and "It has not been changed" in message
    assert fingerprint(path) == before


def test_the_export_refuses_a_tampered_file_by_name(tampered: tuple[Path, str]) -> None:
    path, named = tampered
    with pytest.raises(CorruptDatabaseError, match=named.replace("`", ".")):
        export_attempts(path, "json")


def test_an_untouched_file_still_opens_and_keeps_its_answers(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    Store(path).record_attempt(attempt())
    Store(path).record_attempt(attempt(seed=2))
    assert Store(path).attempt_count() == 2
