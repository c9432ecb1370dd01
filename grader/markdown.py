"""Markdown the app writes: tables (cheat sheet, readiness, exports) and bank texts made safe to render."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A column's alignment row cell: left, right or centred.
_ALIGN = {"left": ":--", "right": "--:", "center": ":-:"}


def markdown_table(
    columns: Sequence[str], rows: Sequence[Sequence[str]], *, align: Sequence[str] | None = None
) -> str:
    """A Markdown table with a header row; a bar inside a cell is escaped so that it cannot end the cell.

    ``align`` gives each column ``left``, ``right`` or ``center``; without it the renderer decides.
    """

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"

    rule = [_ALIGN[a] for a in align] if align else ["---"] * len(columns)
    return "\n".join([line(columns), line(rule), *(line(row) for row in rows)])


# A lone "*" right after a letter or digit that no opening "*" on its line pairs with is a symbol of
# the field (B* the critical batch), not emphasis: "**B* = peak**" must keep its star and its bold.
_LONE_STAR = re.compile(r"(?<!\*)\*(?!\*)")


def _line_stars(line: str) -> str:
    out: list[str] = []
    cursor = 0
    opened = False
    for m in _LONE_STAR.finditer(line):
        before = line[m.start() - 1] if m.start() else " "
        after = line[m.end()] if m.end() < len(line) else " "
        if before.isspace() or before in "([":
            opened = opened or not after.isspace()  # "*word": an emphasis opens
            continue
        if before.isalnum() and not opened:
            out.append(line[cursor : m.start()] + "\\*")
            cursor = m.end()
        else:
            opened = False  # it closes the emphasis opened before it
    return "".join(out) + line[cursor:]


def bank_markdown(text: str) -> str:
    """A bank text (prompt, model answer, key point, explanation) as Markdown to render: symbols kept."""
    return "\n".join(_line_stars(line) for line in text.split("\n"))
