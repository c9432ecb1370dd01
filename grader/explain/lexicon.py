"""The field's lexicon: concepts and the ways candidates say them, shared by every rubric.

:func:`alternatives` widens a rubric concept's phrases with the lexicon: ``@name`` stands for every
form of the lexicon's concept ``name``. A plain phrase stands for itself only: widening every
phrase that reads like a lexicon form was measured on the labelled texts and bought nothing but
false hits, so a rubric says where it means the shared concept. The data is ``lexicon.yaml``
beside this module, read once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

import yaml

LEXICON_PATH = Path(__file__).with_name("lexicon.yaml")


@functools.cache
def concepts() -> dict[str, tuple[str, ...]]:
    """Concept name → its forms, as ``lexicon.yaml`` lists them."""
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))
    return {str(name): tuple(str(form) for form in forms) for name, forms in data.items()}


@functools.lru_cache(maxsize=4096)
def _widened(phrase: str) -> tuple[str, ...]:
    if phrase.startswith("@"):
        return concepts().get(phrase[1:], ())
    return (phrase,)


def alternatives(phrases: Iterable[str]) -> tuple[str, ...]:
    """The phrases of one rubric concept, each widened by the lexicon concept it reads as."""
    out: list[str] = []
    for phrase in phrases:
        out.extend(_widened(phrase))
    return tuple(dict.fromkeys(out))


def unknown_references(phrases: Iterable[str]) -> list[str]:
    """``@name`` references to concepts the lexicon does not have (for validation)."""
    return [p for p in phrases if p.startswith("@") and p[1:] not in concepts()]
