"""A worked derivation as text (a Markdown table or lines), its numbers in the units the question uses.

The estimator writes each step with SI prefixes (``26.03 GB / 2.039 TB/s``); a question asked in binary
units (KiB, MiB, GiB) gets its sizes in binary units too, and the last step, the answer, is written in
the question's own unit.

What the text holds to, for every step of every derivation:

- a rounded figure never reads as an exact one: a count of a million or more is written with a
  prefix (``272.6 M``, ``4.76 M tokens``), like the numbers in the formulas, not as ``272,600,000``;
- a step whose result is a product with a factor of zero (the KV read at a context of 0) is not shown:
  it adds nothing to what follows;
- the answer is written in the question's unit and, when that makes it awkward (``0.01084 ms``,
  ``5,240 MB``), also with the prefix a person would say (``10.84 µs``, ``5.24 GB``);
- a result is written once: a step whose formula or numbers already read as its result does not
  repeat it (``= 16.7 ms = 16.7 ms``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.estimator.derivation import Step, num
from grader.units import dimensionality, format_quantity, readable, to_display

_DECIMAL_SIZE = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?) ([KMGTP])B(?=/s\b|\b)")
_DECIMAL_FACTOR = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def is_binary(unit: str) -> bool:
    """Whether ``unit`` is written with a binary prefix (``KiB``, ``GiB/s``)."""
    return "iB" in unit


def to_binary(text: str) -> str:
    """Every decimal size or bandwidth in ``text`` (``26.03 GB``, ``2 TB/s``) rewritten in binary units."""

    def rewrite(match: re.Match[str]) -> str:
        value = float(match.group(1).replace(",", "")) * _DECIMAL_FACTOR[match.group(2)]
        return readable(value, "B", binary=True)

    return _DECIMAL_SIZE.sub(rewrite, text)


def _same_kind(step_unit: str, answer_unit: str) -> bool:
    if not step_unit or not answer_unit:
        return False
    try:
        return dimensionality(step_unit) == dimensionality(answer_unit)
    except Exception:  # a unit pint does not know (a user's bank): keep the step's own
        return False


#: From this many, a count is written with a prefix: four significant figures of it are not all its digits.
_LARGE_COUNT = 1e6
_UNIT_LADDERS = ("B", "B/s", "s", "FLOP", "FLOP/s")


def result_text(step: Step, *, answer_unit: str, last: bool) -> str:
    """A step's result: the answer in the question's unit, other sizes binary when the question is."""
    if step.shown:
        return step.shown
    asked = last and _same_kind(step.unit, answer_unit)
    unit = answer_unit if asked else step.unit
    count = large_count_text(step.value, unit)
    if count is not None:
        return count
    if asked:
        text = format_quantity(step.value, answer_unit)
        said = readable(step.value, step.unit, binary=is_binary(answer_unit))
        # The question's unit decides the figure; a figure it makes awkward is also said as people say it.
        shown = abs(to_display(step.value, answer_unit))
        return text if step.value == 0 or 1 <= shown < 1000 or said == text else f"{text} ({said})"
    return readable(step.value, step.unit, binary=is_binary(answer_unit))


def large_count_text(value: float, unit: str) -> str | None:
    """A count of a million or more with a prefix (``272.6 M``, ``4.76 M tokens``); None for anything
    else. Four significant figures of such a count are not all its digits, so it never reads as exact."""
    if abs(value) >= _LARGE_COUNT and _is_count(unit):
        return f"{num(value)} {unit}".strip()
    return None


def _is_count(unit: str) -> bool:
    """Whether ``unit`` has no prefixes of its own (a pure number, tokens, sequences)."""
    return unit not in _UNIT_LADDERS and not any(c in unit for c in "%/") and not _prefixed(unit)


def _prefixed(unit: str) -> bool:
    try:
        return dimensionality(unit) != dimensionality("")
    except Exception:  # a unit pint does not know: a count as far as the text goes
        return False


def shown_steps(steps: Sequence[Step]) -> list[Step]:
    """The steps a reader is shown: those that add something (see the module docstring)."""
    return [s for index, s in enumerate(steps) if index == len(steps) - 1 or not _zero_product(s)]


def _zero_product(s: Step) -> bool:
    return s.value == 0 and "·" in s.substituted and bool(_ZERO_FACTOR.search(s.substituted))


_ZERO_FACTOR = re.compile(r"(?:^|· )0(?: [A-Za-z/]+)?(?: ·|$)")


def _echoes(part: str, result: str) -> bool:
    """Whether ``part`` of a line already says its ``result``."""
    flat = re.sub(r"[\s,*]", "", part)
    return flat == re.sub(r"[\s,*]", "", result)


def derivation_markdown(steps: Sequence[Step], *, answer_unit: str = "") -> str:
    """The worked steps as a Markdown table: what, formula, with the numbers, result."""
    binary = is_binary(answer_unit)
    rows = ["| step | formula | with the numbers | result |", "|---|---|---|---|"]
    steps = shown_steps(steps)
    for index, s in enumerate(steps):
        substituted = to_binary(s.substituted) if binary else s.substituted
        result = result_text(s, answer_unit=answer_unit, last=index == len(steps) - 1)
        substituted = "" if _echoes(substituted, result) else substituted
        rows.append(
            "| " + " | ".join(_cell(cell) for cell in (s.label, s.formula, substituted, result)) + " |"
        )
    return "\n".join(rows)


def derivation_lines(steps: Sequence[Step], *, answer_unit: str = "") -> str:
    """The worked steps as a numbered Markdown list, one line each (``label = formula = numbers = result``):
    unlike a four-column table, it wraps on a phone instead of running off the screen."""
    binary = is_binary(answer_unit)
    lines = []
    steps = shown_steps(steps)
    for index, s in enumerate(steps):
        substituted = to_binary(s.substituted) if binary else s.substituted
        result = result_text(s, answer_unit=answer_unit, last=index == len(steps) - 1)
        # A line that only recalls an earlier result (a scenario's "Step 4: ...") has no numbers to show.
        parts = (s.formula, substituted)
        middle = "".join(f"{part} = " for part in parts if part and not _echoes(part, result))
        lines.append(f"{index + 1}. **{s.label}** = {middle}**{result}**")
    return "\n".join(lines)


def _cell(text: str) -> str:
    # A bar would end the cell; the formulas never need one, but a user's bank might.
    return text.replace("|", "\\|")
