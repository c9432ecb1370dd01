"""What to type: the examples and unit lists that messages about unreadable answers end with."""

from __future__ import annotations

from typing import TYPE_CHECKING

from grader.errors import GradingError, WrongDimensionError
from grader.problem import Problem
from grader.units import base_units, describe_units, dimension_name, unit_symbol

if TYPE_CHECKING:
    import pint

# Keyed by grader.units.dimension_name: examples of an answer of each kind.
_EXAMPLES = {
    "a size in bytes": "`800 KiB` or `819,200 B`",
    "a time": "`12.5 ms` or `0.0125 s`",
    "a FLOP count": "`26 GFLOP` or `2.6e10 FLOP`",
    "a FLOP rate (FLOP/s)": "`100 TFLOP/s`, `100 TFLOPS` or `1e14 FLOP/s`",
    "a bandwidth (bytes/s)": "`2 TB/s` or `2e12 B/s`",
    "an arithmetic intensity (FLOP/B)": "`150 FLOP/B`",
    "a token rate (tokens/s)": "`40 tokens/s`",
    "a number of tokens": "`4,096 tokens` or `16K`",
    "a pure number": "`64`, `1.5e3` or `50%`",
}

# The units an answer of each kind can take, for a message about a word that is none of them.
_UNITS = {
    "a size in bytes": "B, KB, KiB, MB, MiB, GB, GiB or TB (capital B a byte, small b a bit)",
    "a time": "s, ms, µs (or us) or ns",
    "a FLOP count": "FLOP, MFLOP, GFLOP or TFLOP (or FLOPs, with a small s)",
    "a FLOP rate (FLOP/s)": "FLOP/s, GFLOP/s, TFLOP/s or TFLOPS",
    "a bandwidth (bytes/s)": "B/s, GB/s or TB/s",
    "an arithmetic intensity (FLOP/B)": "FLOP/B or FLOPs per byte",
    "a token rate (tokens/s)": "tokens/s or tok/s",
}
# Kinds with no unit of their own say it in a sentence of their own.
_NO_UNIT = {
    "a pure number": "For a pure number, type just the number or a percentage: `64`, `1.5e3` or `50%`.",
    "a count": "For a count, type just the number: `64` or `1.5e3`.",
    "a number of tokens": "For a number of tokens, type the number, with `tokens` or K after it if you like: "
    "`4,096 tokens` or `16K`.",
}


def answer_hint(unit: str) -> str:
    """What to type for a question in display ``unit``: ``Type a number with a unit, like `800 KiB`...``."""
    try:
        name = dimension_name(unit)
    except GradingError:
        return "Type a number with a unit, like `800 KiB` or `819,200 B`."
    examples = _EXAMPLES.get(name, f"`12 {unit}`")
    if not unit.strip():
        return f"Type a number, like {examples}."
    return f"Type a number with a unit, like {examples}; a bare number is read in {unit}."


def units_hint(unit: str) -> str:
    """The units a question in display ``unit`` takes, and an example: ``For a time, type s, ms...``."""
    try:
        name = dimension_name(unit)
    except GradingError:
        return answer_hint(unit)
    if name in _NO_UNIT:
        return _NO_UNIT[name]
    units = _UNITS.get(name)
    if units is None:
        return answer_hint(unit)
    return f"For {name}, put {units} after the number: {_EXAMPLES[name]}."


def wrong_dimension(found_units: pint.Unit, unit: str, typed_words: list[str]) -> WrongDimensionError:
    """The error for an answer in ``found_units`` where display ``unit`` is asked, naming both kinds.

    FLOPs and FLOPS are told apart by the case of the s alone, so a mix-up gets a note on which is which.
    """
    found, wanted = describe_units(found_units), dimension_name(unit)
    hint = ""
    if found == "a FLOP count" and wanted == "a FLOP rate (FLOP/s)":
        hint = "`FLOPs` with a small s is a count; for a rate write `TFLOP/s` or `TFLOPS`."
    elif "FLOP" in wanted and "rate" not in wanted and any(word.endswith("OPS") for word in typed_words):
        hint = "`FLOPS` with a capital S is a rate (FLOP/s); for a count write `FLOP` or `FLOPs`."
    return WrongDimensionError(
        f"That is {found}, but the question asks for {wanted}.", hint, found=found, expected=wanted
    )


def box_label(problem: Problem) -> str:
    """The label of a numeric answer box: what to type, and the unit a bare number is read in.

    A question whose display unit carries a prefix also takes a bare number in its base unit
    (bytes for a KiB question), so the label says both; a two-part question asks for both parts.
    """
    unit = problem.unit.strip()
    if not unit:
        reading = "a number"
    else:
        try:
            base = unit_symbol(base_units(unit))
        except GradingError:
            base = unit
        reading = f"a bare number is read in {unit}"
        if base and base != unit:
            reading += f", or in {base} when that is the right figure"
    part = problem.choice_part
    if part is not None:
        example = f"12 {unit}".strip()
        figure = f"the figure, then the {part.asks}, like `{example}, {part.options[0]}`"
        return f"Your answer: {figure} ({reading})"
    return f"Your answer ({reading})"
