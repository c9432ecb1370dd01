"""Markdown tables: a header, an alignment row, and cells that cannot break out of their column."""

from __future__ import annotations

from grader.markdown import markdown_table


def test_a_table_has_its_header_an_alignment_row_and_its_rows() -> None:
    table = markdown_table(("factor", "points"), [("accuracy", "21.0")], align=("left", "right"))
    assert table.splitlines() == ["| factor | points |", "| :-- | --: |", "| accuracy | 21.0 |"]


def test_a_bar_in_a_cell_is_escaped_and_no_alignment_leaves_it_to_the_renderer() -> None:
    table = markdown_table(("what",), [("a | b",)])
    assert table.splitlines() == ["| what |", "| --- |", "| a \\| b |"]
