"""What the page tests share: the exact response a step expects, as a user would type it, and what a
browser draws of a Markdown element."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from grader.problem import Kind, Problem
from grader.units import format_quantity

#: A typed recall answer (the mock keeps prose; practice takes a self-rating instead).
RECALL_TEXT = "Decode is memory-bound; a big batch reads nearly every expert."


def exact_response(problem: Problem, *, recall: str = "good") -> str:
    """The exact number in the step's unit, the right option's index, or ``recall`` for a recall step."""
    if problem.kind is Kind.NUMERIC:
        assert problem.answer is not None
        return format_quantity(problem.answer, problem.unit, sig_figs=8)
    if problem.kind is Kind.CHOICE:
        return str([c.correct for c in problem.choices].index(True))
    return recall


def drawn(markdown: str) -> tuple[str, str]:
    """A Markdown element as a CommonMark browser draws it: its HTML (raw HTML kept), and its text alone."""
    rendered = MarkdownIt("commonmark").render(markdown)
    return rendered, html.unescape(re.sub(r"<[^>]*>", "", rendered)).strip()
