"""Tolerance bands, and naming the slip behind a wrong numeric answer.

A response is correct when it lies in the answer's band (see :func:`band`); only otherwise is
it compared with slips, so a slip is never accepted. The problem's declared slips are tried
first, each under the same tolerance as the answer; then the generic slips every numeric
answer can suffer: a factor of 2 either way (naming only the causes of a 2 that the problem's
derivation holds), 8 (bits and bytes), 1000 and 10⁶ (one or two prefix steps), and, where data
is counted, a binary prefix read as a decimal one (GiB for GB, 2³⁰/10⁹ ≈ 1.074). When several
match, the closest wins. Before the generic slips, a bare number that is right in the display
unit's base unit (``1.35e10`` on a GFLOP question) is named as a unit left off. An answer that
nothing explains but lies just outside a relative band is called close: check the rounding.
Any percentage in a diagnosis is the user's own offset from the exact answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from grader.estimator.derivation import Step
from grader.factor_causes import factor_two_causes
from grader.problem import SlipValue, Tolerance, ToleranceKind
from grader.units import (
    base_units,
    dimensionality,
    display_units,
    format_quantity,
    si_per_display,
    unit_symbol,
)

# Rounding in a typed answer ("16.72 ms") must not push it out of a band it is meant to sit on.
_EDGE_SLACK = 1e-9


# Words of a slip's name written as a reader writes them (``forgot-k-and-v`` → "forgot K and V").
_SLIP_WORDS = {
    "k": "K", "v": "V", "kv": "KV", "p": "P", "2p": "2P", "6p": "6P", "gib": "GiB", "gb": "GB",
    "gpu": "GPU", "mfu": "MFU", "fp32": "fp32", "bf16": "bf16", "int8": "int8",
}  # fmt: skip


def slip_label(name: str) -> str:
    """A slip's name as words to show (``counted-it-fused`` → "counted it fused"); names are ids in the
    bank and in stored attempts, so they stay as they are there."""
    return " ".join(_SLIP_WORDS.get(word.casefold(), word) for word in name.split("-"))


def band(target_si: float, tolerance: Tolerance, unit: str) -> tuple[float, float]:
    """The (low, high) SI values accepted around ``target_si``.

    Relative: target ± value·|target|. Absolute: target ± value, with value in the display
    ``unit``. Geometric: target/value to target·value (value below 1 counts as 1).
    """
    if tolerance.kind is ToleranceKind.ABSOLUTE:
        half_width = abs(tolerance.value) * si_per_display(unit)
        return target_si - half_width, target_si + half_width
    if tolerance.kind is ToleranceKind.GEOMETRIC:
        factor = max(abs(tolerance.value), 1.0)
        low, high = target_si / factor, target_si * factor
        return min(low, high), max(low, high)
    half_width = abs(tolerance.value * target_si)
    return target_si - half_width, target_si + half_width


def within(value_si: float, bounds: tuple[float, float]) -> bool:
    low, high = bounds
    slack = _EDGE_SLACK * max(abs(low), abs(high))
    if not math.isfinite(slack):
        slack = 0.0  # a band that overflowed float range: an infinite slack would accept anything
    return low - slack <= value_si <= high + slack


@dataclass(frozen=True)
class GenericSlip:
    """A slip any numeric answer can suffer: the answer times ``factor``."""

    name: str
    factor: float
    diagnosis: str


# Replaced by the user's own offset ("9.1% above") once the slip is chosen.
_YOURS = "{yours}"
# Replaced by the causes of a factor of 2 the problem's derivation holds (see grader.factor_causes).
_CAUSES = "{causes}"
_PREFIX = "k, M, G, T step by 1000, and so do s, ms, µs, ns"
DECIMAL_SLIPS: tuple[GenericSlip, ...] = (
    GenericSlip("factor-2-high", 2.0, f"Yours is twice the exact answer: {_CAUSES}"),
    GenericSlip("factor-2-low", 0.5, f"Yours is half the exact answer: {_CAUSES}"),
    GenericSlip(
        "bits-vs-bytes-high",
        8.0,
        "Yours is 8× the exact answer: bits counted where bytes were meant? A byte is 8 bits.",
    ),
    GenericSlip(
        "bits-vs-bytes-low",
        1 / 8,
        "Yours is ⅛ of the exact answer: bits where bytes were meant? Small `b` is a bit and capital `B` "
        "a byte (`Gb` is gigabits, `GB` gigabytes).",
    ),
    GenericSlip("prefix-1000-high", 1e3, f"Yours is 1000× the exact answer: a prefix slip ({_PREFIX})."),
    GenericSlip("prefix-1000-low", 1e-3, f"Yours is 1/1000 of the exact answer: a prefix slip ({_PREFIX})."),
    GenericSlip("prefix-1e6-high", 1e6, f"Yours is 10⁶× the exact answer: two prefix steps ({_PREFIX})."),
    GenericSlip("prefix-1e6-low", 1e-6, f"Yours is 10⁻⁶ of the exact answer: two prefix steps ({_PREFIX})."),
)
#: The name of the diagnosis of an answer just outside a relative band, that no slip explains.
CLOSE = "close-check-rounding"

_BINARY_PREFIXES = ((1, "k", "Ki"), (2, "M", "Mi"), (3, "G", "Gi"), (4, "T", "Ti"), (5, "P", "Pi"))
_EXPONENT_SUPERSCRIPT = {1: "¹⁰", 2: "²⁰", 3: "³⁰", 4: "⁴⁰", 5: "⁵⁰"}
_DECIMAL_SUPERSCRIPT = {1: "³", 2: "⁶", 3: "⁹", 4: "¹²", 5: "¹⁵"}
_PREFIXED_INFORMATION = re.compile(r"(kilo|kibi|mega|mebi|giga|gibi|tera|tebi|peta|pebi)(?:byte|bit)")
_POWER_OF_PREFIX = {"kilo": 1, "kibi": 1, "mega": 2, "mebi": 2, "giga": 3, "gibi": 3, "tera": 4, "tebi": 4,
                    "peta": 5, "pebi": 5}  # fmt: skip


def binary_slips(power: int) -> tuple[GenericSlip, GenericSlip]:
    """The two slips between 1024^power and 1000^power bytes (power 3: GiB vs GB)."""
    _, decimal, binary = _BINARY_PREFIXES[power - 1]
    ratio = 1024.0**power / 1000.0**power
    gap = (
        f"about the gap between {binary}B (2{_EXPONENT_SUPERSCRIPT[power]} bytes) and "
        f"{decimal}B (10{_DECIMAL_SUPERSCRIPT[power]} bytes)"
    )
    return (
        GenericSlip(
            f"{binary.lower()}b-for-{decimal.lower()}b",
            1 / ratio,
            f"Yours is {_YOURS} the exact answer, {gap}: a number of {binary}B given where {decimal}B "
            "were asked?",
        ),
        GenericSlip(
            f"{decimal.lower()}b-for-{binary.lower()}b",
            ratio,
            f"Yours is {_YOURS} the exact answer, {gap}: {decimal}B converted as if they were {binary}B?",
        ),
    )


def _binary_power(answer_si: float, unit: str) -> int:
    """Which of GiB/GB, MiB/MB... a person answering in ``unit`` is likely to confuse.

    The display unit's own prefix when it has one; else the size of the answer.
    """
    match = _PREFIXED_INFORMATION.search(str(display_units(unit)))
    if match is not None:
        return _POWER_OF_PREFIX[match.group(1)]
    if answer_si != 0 and math.isfinite(answer_si):
        return min(max(int(math.log10(abs(answer_si)) // 3), 1), 5)
    return 3


def _factor_two_advice(derivation: Iterable[Step]) -> str:
    causes = factor_two_causes(derivation)
    if not causes:
        return "check each factor of your working against the derivation."
    return f"look for a 2 that does not belong, or one left out (here: {', '.join(causes)})."


def generic_slips(answer_si: float, unit: str, *, derivation: Iterable[Step] = ()) -> tuple[SlipValue, ...]:
    """The generic slips for an answer, as SI values in the order they are tried.

    A binary prefix (GiB for GB) is a slip only where data is counted (bytes, bytes/s, bytes per
    token); a factor-2 slip names only the causes of a 2 that ``derivation`` holds.
    """
    advice = _factor_two_advice(derivation)
    return tuple(
        SlipValue(s.name, s.value, s.diagnosis.replace(_CAUSES, advice)) for s in _generic(answer_si, unit)
    )


def _generic(answer_si: float, unit: str) -> tuple[SlipValue, ...]:
    """The generic slips with their texts still holding the ``{causes}`` and ``{yours}`` marks."""
    slips = DECIMAL_SLIPS
    if "[information]" in dimensionality(unit):
        slips = (*slips, *binary_slips(_binary_power(answer_si, unit)))
    return tuple(SlipValue(s.name, answer_si * s.factor, s.diagnosis) for s in slips)


def offset(value_si: float, answer_si: float) -> str:
    """How far ``value_si`` lies from ``answer_si``, for people: ``9.1% above``, ``12% below``."""
    ratio = value_si / answer_si - 1 if answer_si else math.inf
    if not math.isfinite(ratio):
        return "far from"
    side = "above" if ratio > 0 else "below"
    percent = abs(ratio) * 100
    shown = f"{percent:.1f}" if percent < 10 else f"{percent:.0f}"
    return f"{shown}% {side}"


def close_slip(value_si: float, *, answer_si: float, tolerance: Tolerance) -> SlipValue | None:
    """The note for an answer just outside a relative band (within twice its width, or 5 % more).

    Such an answer is most often rounded too early, not a slip of method, so that is what it is called.
    """
    if tolerance.kind is not ToleranceKind.RELATIVE or answer_si == 0:
        return None
    reach = abs(tolerance.value) + max(abs(tolerance.value), 0.05)
    if abs(value_si / answer_si - 1) > reach * (1 + _EDGE_SLACK):
        return None
    return SlipValue(
        CLOSE,
        value_si,
        f"Close: yours is {offset(value_si, answer_si)} the exact answer, just outside the accepted range. "
        "Check your rounding: keep three significant figures until the last step.",
    )


def _distance(value_si: float, slip_si: float) -> float:
    if value_si > 0 and slip_si > 0:
        return abs(math.log(value_si / slip_si))
    return abs(value_si - slip_si) / max(abs(slip_si), 1e-300)


def _closest(
    value_si: float, candidates: Iterable[SlipValue], tolerance: Tolerance, unit: str
) -> SlipValue | None:
    matching = [
        s for s in candidates if math.isfinite(s.value) and within(value_si, band(s.value, tolerance, unit))
    ]
    return min(matching, key=lambda s: _distance(value_si, s.value), default=None)


def unit_left_off(
    value_si: float, *, answer_si: float, unit: str, tolerance: Tolerance, bare: str
) -> SlipValue | None:
    """The slip of a bare number that is right in the display unit's base unit (``1.35e10`` for GFLOP).

    A bare number is read in the display unit, and an engineer who worked in FLOP or seconds often
    types the figure without its unit; saying so beats naming a bare power of ten.
    """
    factor = si_per_display(unit)
    if factor == 1 or not within(value_si / factor, band(answer_si, tolerance, unit)):
        return None
    base = unit_symbol(base_units(unit))
    meant = f"`{bare}` is right in {base}. Next time type the unit: `{bare} {base}`"
    if not base:  # a percentage question answered with a fraction
        meant = (
            f"`{bare}` is right as a fraction. Next time type `{format_quantity(value_si / factor, unit)}`"
        )
    return SlipValue("unit-left-off", value_si, f"A bare number is read in {unit}, but {meant}.")


#: The name of the slip of two overlapping times added where the step takes the larger.
SUMMED = "added-overlapping-times"
#: The smaller time's least share of the larger for the sum to be named: below it, a sum lies within a
#: near miss of the answer (a 20 % slip), which rounding explains as well.
_SUMMED_SHARE = 0.3


def summed_times_slip(answer_si: float, derivation: Iterable[Step]) -> SlipValue | None:
    """The slip of adding the two times whose larger one is the answer (a roofline's max(memory, compute)).

    The answer's own step is a ``max(…)`` of two times worked out in earlier steps; their sum is what a
    candidate who forgot that the two overlap gives. None when the derivation holds no such step, or the
    smaller time is under :data:`_SUMMED_SHARE` of the larger.
    """
    steps = list(derivation)
    if not steps or not steps[-1].formula.startswith("max(") or steps[-1].unit != "s":
        return None
    last = steps[-1]
    if not math.isclose(last.value, answer_si, rel_tol=1e-9):
        return None
    times = [s.value for s in steps[:-1] if s.unit == "s" and s.value > 0]
    for index in range(len(times) - 1, 0, -1):
        for other in range(index - 1, -1, -1):
            pair = (times[other], times[index])
            if math.isclose(max(pair), last.value, rel_tol=1e-9) and min(pair) >= _SUMMED_SHARE * max(pair):
                return SlipValue(
                    SUMMED,
                    sum(pair),
                    "You added the two times; they overlap (the bytes stream in while the math runs), so "
                    "the step takes the larger of the two.",
                )
    return None


def diagnose(
    value_si: float,
    *,
    answer_si: float,
    unit: str,
    tolerance: Tolerance,
    slips: Iterable[SlipValue] = (),
    bare: str | None = None,
    derivation: Iterable[Step] = (),
) -> SlipValue | None:
    """The slip a wrong answer matches: the closest declared one, else the closest generic one, else None.

    ``bare``: the text of an answer typed without a unit; when it is right in the base unit, that
    is the slip named (after a declared slip, before the generic ones). ``derivation``: the
    problem's worked steps, which the factor-2 advice draws its causes from. An answer no slip
    explains but just outside a relative band is told it is close (see :func:`close_slip`).
    """
    declared = _closest(value_si, slips, tolerance, unit)
    if declared is not None:
        return declared
    summed = summed_times_slip(answer_si, derivation)
    if summed is not None and within(value_si, band(summed.value, tolerance, unit)):
        return summed
    if bare is not None:
        left_off = unit_left_off(value_si, answer_si=answer_si, unit=unit, tolerance=tolerance, bare=bare)
        if left_off is not None:
            return left_off
    generic = _closest(value_si, _generic(answer_si, unit), tolerance, unit)
    if generic is not None:
        text = generic.diagnosis.replace(_YOURS, offset(value_si, answer_si))
        if _CAUSES in text:  # worked out only when needed: it reads the whole derivation
            text = text.replace(_CAUSES, _factor_two_advice(derivation))
        return SlipValue(generic.name, generic.value, text)
    return close_slip(value_si, answer_si=answer_si, tolerance=tolerance)


def generic_slip_names() -> frozenset[str]:
    """The names every generic diagnosis may carry (for audits and tests)."""
    binary = (s.name for power in range(1, 6) for s in binary_slips(power))
    return frozenset((*(s.name for s in DECIMAL_SLIPS), *binary, CLOSE, SUMMED))
