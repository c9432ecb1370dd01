"""Where progress lives: ``DRILL_DB`` when set, else the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path


def default_db_path() -> Path:
    """``$DRILL_DB``, else ``$XDG_DATA_HOME/roofline-drill/progress.db`` (``~/.local/share`` by default)."""
    override = os.environ.get("DRILL_DB")
    if override:
        return Path(override).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "roofline-drill" / "progress.db"
