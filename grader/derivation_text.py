"""A worked derivation as text (a Markdown table or lines), its numbers in the units the question uses.

The estimator writes each step with SI prefixes (``26.03 GB / 2.039 TB/s``); a question asked in binary
units (KiB, MiB, GiB) gets its sizes in binary units too, and the last step, the answer, is written in
the question's own unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.derivation import Step
from grader.units import dimensionality, format_quantity, readable

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


def result_text(step: Step, *, answer_unit: str, last: bool) -> str:
    """A step's result: the answer in the question's unit, other sizes binary when the question is."""
    if last and _same_kind(step.unit, answer_unit):
        return format_quantity(step.value, answer_unit)
    return readable(step.value, step.unit, binary=is_binary(answer_unit))


def derivation_markdown(steps: Sequence[Step], *, answer_unit: str = "") -> str:
    """The worked steps as a Markdown table: what, formula, with the numbers, result."""
    binary = is_binary(answer_unit)
    rows = ["| step | formula | with the numbers | result |", "|---|---|---|---|"]
    for index, s in enumerate(steps):
        substituted = to_binary(s.substituted) if binary else s.substituted
        result = result_text(s, answer_unit=answer_unit, last=index == len(steps) - 1)
        rows.append(
            "| " + " | ".join(_cell(cell) for cell in (s.label, s.formula, substituted, result)) + " |"
        )
    return "\n".join(rows)


def derivation_lines(steps: Sequence[Step], *, answer_unit: str = "") -> str:
    """The worked steps as a numbered Markdown list, one line each (``label = formula = numbers = result``):
    unlike a four-column table, it wraps on a phone instead of running off the screen."""
    binary = is_binary(answer_unit)
    lines = []
    for index, s in enumerate(steps):
        substituted = to_binary(s.substituted) if binary else s.substituted
        result = result_text(s, answer_unit=answer_unit, last=index == len(steps) - 1)
        # A line that only recalls an earlier result (a scenario's "Step 4: ...") has no numbers to show.
        middle = "".join(f"{part} = " for part in (s.formula, substituted) if part)
        lines.append(f"{index + 1}. **{s.label}** = {middle}**{result}**")
    return "\n".join(lines)


def _cell(text: str) -> str:
    # A bar would end the cell; the formulas never need one, but a user's bank might.
    return text.replace("|", "\\|")
