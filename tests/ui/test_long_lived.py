"""The server's long-lived objects are frozen once, so the collection after each rerun skips them."""

from __future__ import annotations

import gc
import sys

import pytest

from ui.long_lived import MODULES, freeze_long_lived


def test_freezing_happens_once_after_the_pages_modules_are_loaded() -> None:
    freeze_long_lived()  # True here, or False when an app run in this process froze already
    assert gc.get_freeze_count() > 0
    assert all(name in sys.modules for name in MODULES)
    assert freeze_long_lived() is False, "a second call must not freeze a session's objects again"
    assert "torch" not in MODULES and "altair" not in MODULES  # lazy for the pages that need them


def test_make_run_loads_the_bank_before_handing_over_to_streamlit(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web import cli

    from ui import cached, serve

    seen: list[list[str]] = []
    monkeypatch.setattr(cli, "main", lambda: seen.append(list(sys.argv)))
    monkeypatch.setattr(sys, "argv", ["serve"])
    serve.main(["app.py", "--server.port", "8599"])
    assert seen == [["streamlit", "run", "app.py", "--server.port", "8599"]]
    assert cached.bank().templates, "the bank was parsed before the server started"
