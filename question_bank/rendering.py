"""Placeholders in prompts: their small grammar, parsing and rendering.

A placeholder is ``{name}`` or ``{name.field}``, optionally followed by a display unit after a
bar: ``{gpu.mem_bandwidth|TB/s}`` renders the SI value in TB/s ("1.555 TB/s"). Nothing else:
no format specs, no indexing, no calls. ``{{`` and ``}}`` stand for literal braces. Without a
unit, integers render with thousands separators and other numbers with 4 significant figures;
a preset renders as its ``name``, a dtype as its name.

A figure shown in a prefixed unit that it has outgrown (``4,608 KiB``) or not reached (``0.005 ms``)
takes the prefix that keeps it between 1 and 1,000 instead (``4.5 MiB``, ``5 µs``), in the same
family (binary stays binary). The words around a placeholder agree with what it rendered as: the
article before it (``an NVIDIA L4``), the noun after a count of one (``1 sequence``), and a name
that ends in its own parenthesis shares the one that follows (``TPU v5e (per chip; 197 TFLOP/s)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.derivation_text import is_binary
from grader.units import base_units, format_quantity, readable, to_display, unit_symbol
from grader.wording import SINGULAR, indefinite_article

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
    """``text`` with each placeholder replaced by ``value_of(placeholder)`` and ``{{``/``}}`` unescaped,
    the words around each placeholder agreeing with its value (see the module docstring).

    The text must have been checked with :func:`parse` (no :class:`BadPlaceholder`).
    """
    # Literal text and rendered values alternate: pieces[0], pieces[2]... are literal.
    pieces: list[str] = []
    literal: list[str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        literal.append(text[position : match.start()])
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            literal.append(token[0])
            continue
        parsed = parse(token)[0]
        if isinstance(parsed, BadPlaceholder):
            raise ValueError(f"malformed placeholder {token!r}")
        pieces += ["".join(literal), value_of(parsed)]
        literal = []
    literal.append(text[position:])
    pieces.append("".join(literal))
    for index in range(1, len(pieces), 2):
        _agree(pieces, index)
    return "".join(pieces)


_ARTICLE_BEFORE = re.compile(r"(?:(?<=\s)|^)(an?|An?)(\s+[*_]*)$")
_NOUN_AFTER = re.compile(r"^([*_]*\s+)([A-Za-z]+)\b")
_OWN_PARENTHESIS = re.compile(r"^(.*\S) \(([^()]*)\)$")
_PARENTHESIS_AFTER = re.compile(r"^([*_]*)\s+\(")


def _agree(pieces: list[str], index: int) -> None:
    """Make the literal pieces around the value ``pieces[index]`` agree with it (in place)."""
    value = pieces[index]
    before, after = pieces[index - 1], pieces[index + 1]
    own, following = _OWN_PARENTHESIS.match(value), _PARENTHESIS_AFTER.match(after)
    if own and following:
        value = own.group(1)
        after = f"{following.group(1)} ({own.group(2)}; {after[following.end() :]}"
    article = _ARTICLE_BEFORE.search(before)
    if article:
        wanted = indefinite_article(value)
        if article.group(1)[0] == "A":
            wanted = wanted.capitalize()
        before = before[: article.start()] + wanted + article.group(2)
    noun = _NOUN_AFTER.match(after)
    if noun and value.strip("*_ ") == "1" and noun.group(2) in SINGULAR:
        after = noun.group(1) + SINGULAR[noun.group(2)] + after[noun.end() :]
    pieces[index - 1], pieces[index], pieces[index + 1] = before, value, after


def plain_number(value: float) -> str:
    """A unitless number in a prompt: whole numbers in full (``4,000,000,000`` parameters reads as a
    count, ``4 G parameters`` would not), others to 4 significant figures."""
    if float(value).is_integer() and abs(value) < 1e18:
        return f"{int(value):,}"
    return f"{value:.4g}"


def format_value(value: Any, unit: str | None) -> str:
    """How a parameter value appears in a prompt (see the module docstring); ``value`` is SI."""
    if unit is not None:
        return _in_range(float(value), unit)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return plain_number(value)
    name = getattr(value, "name", None)
    return str(name) if isinstance(name, str) else str(value)


def _in_range(value_si: float, unit: str) -> str:
    """``value_si`` in ``unit``, or in the prefix of its family that keeps the figure from 1 to 1,000."""
    shown = abs(to_display(value_si, unit))
    if value_si == 0 or 1 <= shown < 1000:
        return format_quantity(value_si, unit)
    try:
        base = unit_symbol(base_units(unit))
    except Exception:  # a unit pint does not know (a user's bank): keep the author's
        return format_quantity(value_si, unit)
    return readable(value_si, base, binary=is_binary(unit))
