"""The field's lexicon: concepts and the ways candidates say them, shared by every rubric.

:func:`alternatives` widens a rubric concept's phrases with the lexicon: a phrase that reads like one
of a lexicon concept's forms (same tokens) stands for all of that concept's forms, and ``@name``
names a concept outright. The data is ``lexicon.yaml`` beside this module, read once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

import yaml

from grader.text_match import phrase_tokens

LEXICON_PATH = Path(__file__).with_name("lexicon.yaml")


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(t.norm if t.number is None else f"#{t.number:g}" for t in phrase_tokens(phrase))


@functools.cache
def concepts() -> dict[str, tuple[str, ...]]:
    """Concept name → its forms, as ``lexicon.yaml`` lists them."""
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))
    return {str(name): tuple(str(form) for form in forms) for name, forms in data.items()}


@functools.cache
def _by_form() -> dict[tuple[str, ...], tuple[str, ...]]:
    index: dict[tuple[str, ...], list[str]] = {}
    for name, forms in concepts().items():
        for form in forms:
            index.setdefault(_key(form), []).append(name)
    return {key: tuple(names) for key, names in index.items()}


@functools.lru_cache(maxsize=4096)
def _widened(phrase: str) -> tuple[str, ...]:
    if phrase.startswith("@"):
        return concepts().get(phrase[1:], ())
    names = _by_form().get(_key(phrase), ())
    out = [phrase]
    for name in names:
        out.extend(concepts()[name])
    return tuple(dict.fromkeys(out))


def alternatives(phrases: Iterable[str]) -> tuple[str, ...]:
    """The phrases of one rubric concept, each widened by the lexicon concept it reads as."""
    out: list[str] = []
    for phrase in phrases:
        out.extend(_widened(phrase))
    return tuple(dict.fromkeys(out))


def unknown_references(phrases: Iterable[str]) -> list[str]:
    """``@name`` references to concepts the lexicon does not have (for validation)."""
    return [p for p in phrases if p.startswith("@") and p[1:] not in concepts()]
