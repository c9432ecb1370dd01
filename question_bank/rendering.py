"""Placeholders in prompts: their small grammar, parsing and rendering.

A placeholder is ``{name}`` or ``{name.field}``, optionally followed by a display unit after a
bar: ``{gpu.mem_bandwidth|TB/s}`` renders the SI value in TB/s ("1.555 TB/s"). Nothing else:
no format specs, no indexing, no calls. ``{{`` and ``}}`` stand for literal braces. Without a
unit, integers render with thousands separators and other numbers with 4 significant figures;
a preset renders as its ``name``, a dtype as its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.units import format_quantity

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_GRAMMAR = re.compile(
    r"(?P<name>[a-z_][a-z0-9_]*)(?:\.(?P<field>[a-z_][a-z0-9_]*))?(?:\|(?P<unit>[^{}|]*[^{}|\s][^{}|]*))?"
)
GRAMMAR_HINT = (
    "{name}, {name.field} or {name.field|unit} such as {gpu.mem_bandwidth|TB/s}; {{ for a literal brace"
)


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` in a text: the parameter ``name``, an optional ``field`` and display ``unit``."""

    name: str
    field: str | None
    unit: str | None
    offset: int
    source: str


@dataclass(frozen=True)
class BadPlaceholder:
    """Braces that do not follow the grammar, at ``offset`` in the text."""

    offset: int
    source: str


def parse(text: str) -> list[Placeholder | BadPlaceholder]:
    """Every placeholder in ``text``, in order, including malformed ones."""
    found: list[Placeholder | BadPlaceholder] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        inner = match.group(1)
        grammar = _GRAMMAR.fullmatch(inner.strip()) if inner is not None else None
        if grammar is None:
            found.append(BadPlaceholder(offset=match.start(), source=token))
            continue
        unit = grammar.group("unit")
        found.append(
            Placeholder(
                name=grammar.group("name"),
                field=grammar.group("field"),
                unit=unit.strip() if unit is not None else None,
                offset=match.start(),
                source=token,
            )
        )
    return found


def render(text: str, value_of: Callable[[Placeholder], str]) -> str:
    """``text`` with each placeholder replaced by ``value_of(placeholder)`` and ``{{``/``}}`` unescaped.

    The text must have been checked with :func:`parse` (no :class:`BadPlaceholder`).
    """

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        parsed = parse(token)[0]
        if isinstance(parsed, BadPlaceholder):
            raise ValueError(f"malformed placeholder {token!r}")
        return value_of(parsed)

    return _TOKEN.sub(replace, text)


def plain_number(value: float) -> str:
    """A unitless number in a prompt: whole numbers in full (``4,000,000,000`` parameters reads as a
    count, ``4 G parameters`` would not), others to 4 significant figures."""
    if float(value).is_integer() and abs(value) < 1e18:
        return f"{int(value):,}"
    return f"{value:.4g}"


def format_value(value: Any, unit: str | None) -> str:
    """How a parameter value appears in a prompt (see the module docstring); ``value`` is SI."""
    if unit is not None:
        return format_quantity(float(value), unit)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return plain_number(value)
    name = getattr(value, "name", None)
    return str(name) if isinstance(name, str) else str(value)
