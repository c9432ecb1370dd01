"""A bare number right only in another unit than the box's: when it counts, and what to say when not.

One rule for the grade and the stored value alike. A bare number is read in the box's unit. One that
is right only in the base unit (``0.0067`` on a ms box whose answer is 6.7 ms, ``819200`` on a KiB box
whose answer is 800 KiB) counts only where the prompt itself asks in that unit ("how many bytes ...?"
shown in KiB), and is then stored in that unit. Anywhere else it is the ×1000 slip the drill exists to
catch: not counted, not stored, and the message says how it was read and what to type.
"""

from __future__ import annotations

import re

from grader.units import format_quantity

#: How a question asks for a figure in each base unit, matched in its question sentence(s).
_ASKED_IN: dict[str, re.Pattern[str]] = {
    "B": re.compile(r"\bbytes?\b(?!\s*(?:/|per\s+s))", re.IGNORECASE),
    "FLOP": re.compile(r"\bFLOPs?\b(?!\s*/)"),
    "FLOP/s": re.compile(r"\bFLOP/s\b|\bFLOPS\b"),
    "s": re.compile(r"\bseconds?\b(?!\s*(?:/|per\b))", re.IGNORECASE),
    "B/s": re.compile(r"\bbytes?\s*(?:/\s*s|per\s+second)\b", re.IGNORECASE),
    "": re.compile(r"\b(?:fraction|ratio)\b", re.IGNORECASE),
}
#: The base unit as said in a sentence ("if you meant seconds").
_SAID: dict[str, str] = {
    "B": "bytes",
    "FLOP": "FLOPs",
    "FLOP/s": "FLOP/s",
    "s": "seconds",
    "B/s": "bytes per second",
    "": "a fraction",
}
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
# The italic closing line on how strictly it is graded (one star: bold text starts a sentence).
_GRADED_LINE = re.compile(r"\s*\*(?!\*)")


def question_sentences(prompt: str) -> list[str]:
    """The sentences of ``prompt`` that ask (end in ``?``), else its last sentence; markup and the
    closing line on how it is graded (in italics) left out."""
    lines = [line for line in prompt.splitlines() if not _GRADED_LINE.match(line)]
    text = " ".join(" ".join(lines).replace("**", "").split())
    sentences = [s for s in _SENTENCE_END.split(text) if s]
    return [s for s in sentences if "?" in s] or sentences[-1:]


def asks_in_base_unit(prompt: str, *, base_unit: str) -> bool:
    """Whether the question itself asks for its figure in ``base_unit`` ("how many bytes ...?")."""
    pattern = _ASKED_IN.get(base_unit)
    if pattern is None:
        return False
    return any(pattern.search(sentence) for sentence in question_sentences(prompt))


def said_unit(base_unit: str) -> str:
    """The base unit as said in a sentence: ``seconds``, ``bytes``, ``a fraction``."""
    return _SAID.get(base_unit, base_unit)


def read_as_message(bare: str, *, unit: str, base_unit: str, value_in_base: float) -> str:
    """Why a bare number right only in ``base_unit`` was not counted, and what to type if it was meant:
    ``a bare number is read in ms, so `0.0067` was read as 0.0067 ms; if you meant seconds, type
    `0.0067 s`.``"""
    said = said_unit(base_unit)
    # A fraction is typed as the percentage it is; any other base unit is typed after the same number.
    typed = format_quantity(value_in_base, unit) if not base_unit else f"{bare} {base_unit}"
    return (
        f"A bare number is read in {unit}, so `{bare}` was read as {bare} {unit}; "
        f"if you meant {said}, type `{typed}`."
    )
