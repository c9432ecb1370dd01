"""The bank's one error tree.

``BankError`` (a ``ValueError``) is raised when a bank cannot be loaded; it carries every
:class:`BankIssue` found, not just the first, so an author fixes a file in one pass.
``GenerationError`` (also a ``ValueError``) is raised when a loaded template cannot produce a
problem for a seed (for example when no draw satisfies its ``require`` list); ``PinError``, one
kind of it, when it cannot be drawn with the values pinned (see :mod:`question_bank.pins`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class BankIssue:
    """One mistake in a bank file.

    ``line`` is 1-based (0 when the whole file is at fault, e.g. it cannot be read);
    ``template_id`` is empty when the mistake is outside any template; ``field`` is the dotted
    path inside the template (``answer.with.n_kv_heads``); ``hint`` says what to write instead.
    """

    file: str
    line: int
    template_id: str
    field: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        who = f" [{self.template_id}]" if self.template_id else ""
        what = f" {self.field}:" if self.field else ""
        hint = f" (write instead: {self.hint})" if self.hint else ""
        return f"{where}:{who}{what} {self.message}{hint}"


class BankError(ValueError):
    """A bank that cannot be loaded; ``issues`` lists every mistake found, in file and line order."""

    def __init__(self, issues: Iterable[BankIssue], *, partial: Any = None) -> None:
        self.issues: list[BankIssue] = sorted(issues, key=lambda i: (i.file, i.line, i.field))
        #: The templates that did load (a ``Bank``), or None when nothing could be salvaged.
        self.partial = partial
        count = len(self.issues)
        lines = "\n".join(f"  {issue}" for issue in self.issues)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the question bank:\n{lines}")


class GenerationError(ValueError):
    """A loaded template could not produce a problem for the given seed."""


class PinError(GenerationError):
    """A template could not be drawn with the values pinned (``reason``: why, as a phrase)."""

    def __init__(self, template_id: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"template {template_id!r} cannot be drawn with these values: {reason}")


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it, for shorter messages."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
