"""Past runs, one JSON object per line in a file beside the progress database.

A separate JSON-lines file rather than a table in the progress store: runs are append-only,
self-describing (each carries its device fingerprint) and never joined with attempts. A line
that cannot be read (a run cut off mid-write, a byte that is not UTF-8, a newer format) is
skipped and counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from gpu_checks.report import RunReport

#: Suffix of the history file next to a progress database ``progress.db``.
SUFFIX = ".gpu_checks.jsonl"


@dataclass(frozen=True)
class History:
    """Stored reports, oldest first, and how many lines could not be read."""

    reports: tuple[RunReport, ...]
    skipped: int

    def for_device(self, fingerprint: str) -> tuple[RunReport, ...]:
        """The reports of the device with ``fingerprint``, oldest first."""
        return tuple(r for r in self.reports if r.device.fingerprint == fingerprint)


def history_path_for(db_path: Path) -> Path:
    """The history file beside the progress database: ``progress.db`` → ``progress.gpu_checks.jsonl``."""
    return db_path.with_name(db_path.stem + SUFFIX)


def append_report(path: Path, report: RunReport) -> None:
    """Append ``report`` as one line, creating the file and its folder when needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(report.to_dict(), separators=(",", ":"), allow_nan=False) + "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line)


def load_history(path: Path) -> History:
    """Every readable report in ``path`` (an empty history when the file does not exist)."""
    if not path.exists():
        return History(reports=(), skipped=0)
    reports: list[RunReport] = []
    skipped = 0
    # Line by line from bytes: one damaged line (a bad byte, a cut-off write) costs only itself.
    for raw in path.read_bytes().splitlines():
        if not raw.strip():
            continue
        try:
            reports.append(RunReport.from_dict(json.loads(raw.decode("utf-8"))))
        except (ValueError, KeyError, TypeError, AttributeError):  # UnicodeDecodeError is a ValueError
            skipped += 1
    return History(reports=tuple(reports), skipped=skipped)
