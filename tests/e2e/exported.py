"""The attempts a progress file holds, as the ``progress export`` command gives them (what a user keeps)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def exported(db: Path) -> list[dict[str, object]]:
    """``python -m progress export --format json --db DB``, read back."""
    command = [sys.executable, "-m", "progress", "export", "--format", "json", "--db", str(db)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(result.stdout)
