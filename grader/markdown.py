"""Markdown tables, as the cheat sheet, the readiness page and the exports write them."""

from __future__ import annotations

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
