"""Question-bank tests see only the bank folders they name, whatever the environment says."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_user_banks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DRILL_BANK_DIRS", raising=False)
