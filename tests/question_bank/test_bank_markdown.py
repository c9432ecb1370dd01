"""Every model answer, explanation and key point renders as written: no stray markers, symbols kept."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from grader import Problem
from grader.markdown import bank_markdown
from question_bank import generate, load_bank
from question_bank.scenarios import generate_scenario

BANK = load_bank()
_MD = MarkdownIt("commonmark")
_TAG = re.compile(r"<[^>]+>")
_SYMBOL = re.compile(r"\bB\*(?!\*)")


def _problems() -> list[Problem]:
    out: list[Problem] = [generate(t, 0) for t in BANK.templates]
    for scenario in BANK.scenarios:
        out.extend(generate_scenario(scenario, 0).steps)
    return out


def _texts(problem: Problem) -> list[str]:
    return [t for t in (problem.model_answer, problem.explanation, *problem.key_points) if t]


def _shown(text: str) -> str:
    return _TAG.sub("", _MD.render(bank_markdown(text)))


@pytest.mark.parametrize("problem", _problems(), ids=lambda p: f"{p.template_id}-{getattr(p, 'step', 0)}")
def test_bank_texts_render_without_stray_markers(problem: Problem) -> None:
    for text in _texts(problem):
        shown = _shown(text)
        assert "**" not in shown and "__" not in shown, text
        # Each B* (the critical batch) written in the source is still there once drawn.
        assert len(_SYMBOL.findall(shown)) == len(_SYMBOL.findall(text)), text


def test_the_critical_batch_formula_keeps_its_star_and_its_bold() -> None:
    html = _MD.render(bank_markdown("so **B* = peak · bytes per weight / (2 · bandwidth)**."))
    assert "<strong>B* = peak" in html and "<em>" not in html


def test_single_star_emphasis_still_works() -> None:
    assert "<em>word</em>" in _MD.render(bank_markdown("a *word* here"))
