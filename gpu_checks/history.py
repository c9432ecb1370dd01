"""Past runs, one JSON object per line in a file beside the progress database.

A separate JSON-lines file rather than a table in the progress store: runs are append-only,
self-describing (each carries its device fingerprint) and never joined with attempts. A line
that cannot be read (a run cut off mid-write, a byte that is not UTF-8, a newer format, values
of the wrong type, brackets nested too deep for the reader) is skipped, and its number kept so
that the page can name it.
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
    """Stored reports, oldest first, and the numbers (from 1) of the lines that could not be read."""

    reports: tuple[RunReport, ...]
    skipped_lines: tuple[int, ...] = ()

    @property
    def skipped(self) -> int:
        """How many lines could not be read."""
        return len(self.skipped_lines)

    def skipped_note(self, path: Path) -> str:
        """A sentence naming the lines skipped, for the page ("" when none were)."""
        lines = self.skipped_lines
        if not lines:
            return ""
        shown = [str(n) for n in lines[:10]] + ([f"{len(lines) - 10} more"] if len(lines) > 10 else [])
        named = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        one = len(lines) == 1
        return (
            f"{'Line' if one else 'Lines'} {named} of the GPU history {path} could not be read (damaged, "
            f"or from another version) and {'was' if one else 'were'} skipped; the other runs are shown. "
            f"Delete {'that line' if one else 'those lines'} to silence this note."
        )

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
        return History(reports=())
    reports: list[RunReport] = []
    skipped: list[int] = []
    # Line by line from bytes: one damaged line (a bad byte, a cut-off write) costs only itself.
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            reports.append(RunReport.from_dict(json.loads(raw.decode("utf-8"))))
        # UnicodeDecodeError is a ValueError; RecursionError: brackets nested past the reader's depth.
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            skipped.append(number)
    return History(reports=tuple(reports), skipped_lines=tuple(skipped))
