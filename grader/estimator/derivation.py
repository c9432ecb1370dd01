"""Recording the worked derivation of an estimate while it is computed.

The estimator's functions call :func:`step` for each intermediate result. Outside a
:func:`recording` block that costs one context-variable lookup and records nothing; inside it,
every step (its label, the symbolic formula, the formula with the numbers put in, the value
and its SI unit) is appended to the block's list. Because the steps are written by the same
lines that compute the value, the derivation a user sees can never drift from the answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import NotRequired, TypedDict


class StepDict(TypedDict):
    """The stored form of a :class:`Step`."""

    label: str
    formula: str
    substituted: str
    value: float
    unit: str
    shown: NotRequired[str]


@dataclass(frozen=True)
class Step:
    """One line of a worked derivation.

    ``unit`` is the SI unit symbol of ``value`` (``B``, ``s``, ``FLOP``, ``FLOP/s``, ``B/s``,
    ``FLOP/B``, ``B/token``, ``tokens``, ``%`` for a fraction shown as a percentage, or ``""`` for a
    pure number). ``shown``, when set, is the result in words, written instead of the value (a
    comparison's "yes", a carried answer with its exact value beside it).
    """

    label: str
    formula: str
    substituted: str
    value: float
    unit: str
    shown: str = ""

    def to_dict(self) -> StepDict:
        data = StepDict(
            label=self.label,
            formula=self.formula,
            substituted=self.substituted,
            value=self.value,
            unit=self.unit,
        )
        if self.shown:
            data["shown"] = self.shown
        return data

    @staticmethod
    def from_dict(data: StepDict) -> Step:
        return Step(
            label=data["label"],
            formula=data["formula"],
            substituted=data["substituted"],
            value=float(data["value"]),
            unit=data["unit"],
            shown=data.get("shown", ""),
        )


_steps: ContextVar[list[Step] | None] = ContextVar("roofline_drill_steps", default=None)


def step(label: str, formula: str, substituted: str, value: float, unit: str) -> float:
    """Record one step when a :func:`recording` block is active; return ``value`` unchanged."""
    steps = _steps.get()
    if steps is not None:
        steps.append(Step(label, formula, substituted, float(value), unit))
    return value


@contextmanager
def recording() -> Iterator[list[Step]]:
    """Collect the steps of every estimator call made inside the block, in order."""
    steps: list[Step] = []
    token = _steps.set(steps)
    try:
        yield steps
    finally:
        _steps.reset(token)


# SI prefixes from the largest down; a derivation writes each quantity with the largest that keeps it >= 1.
_PREFIXES: tuple[tuple[float, str], ...] = (
    (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""),
    (1e-3, "m"), (1e-6, "µ"), (1e-9, "n"),
)  # fmt: skip
_FIGURES = 4


def num(value: float) -> str:
    """A plain number inside a substituted formula: exact integers below a million (``4,096``), larger
    ones with an SI prefix (``13.02 G``), others to 4 significant figures, never in e-notation
    (``447,283``, ``3.2 × 10⁻⁵``)."""
    if value == 0 or not _finite(value):
        return _num(value)
    return _cached_num(value)


def _num(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e6:
        return f"{int(value):,}"
    if abs(value) >= 1e6:
        return qty(value, "")
    if abs(value) >= 1e4:
        return f"{value:,.0f}"
    if abs(value) < 1e-4:
        mantissa, exponent = f"{value:.3e}".split("e")
        return f"{float(mantissa):g} × 10{str(int(exponent)).translate(_SUPERSCRIPTS)}"
    return f"{value:.4g}"


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def qty(value: float, unit: str, *, sig_figs: int = _FIGURES) -> str:
    """A quantity in SI ``unit`` (``B``, ``s``, ``FLOP``, ``FLOP/s``, ``B/s``) with an SI prefix, as a
    person writes it: ``qty(3.12e14, "FLOP/s")`` → ``312 TFLOP/s``, ``qty(8.344e-5, "s")`` → ``83.44 µs``.

    Only seconds go below the unit (ms, µs, ns) and never above it; bytes write kilo as ``K`` (``KB``,
    as answers do).
    """
    if value == 0 or not _finite(value):
        return f"{value:g} {unit}".strip()
    return _cached_qty(value, unit, sig_figs)


def _qty(value: float, unit: str, sig_figs: int) -> str:
    magnitude = abs(value)
    candidates = _PREFIXES[5:] if unit == "s" else _PREFIXES[:6]
    for index, (scale, prefix) in enumerate(candidates):
        if magnitude >= scale or index == len(candidates) - 1:
            shown = float(f"{value / scale:.{sig_figs}g}")
            if abs(shown) >= 1000 and index > 0:  # 999.96 rounds up into the next prefix
                scale, prefix = candidates[index - 1]
                shown = float(f"{value / scale:.{sig_figs}g}")
            if prefix == "k" and unit.startswith("B"):
                prefix = "K"
            text = f"{shown:,.{sig_figs}g}" if abs(shown) < 1e4 else f"{shown:,.0f}"
            return f"{text} {prefix}{unit}".rstrip()
    raise AssertionError("unreachable: the last prefix always matches")


# Derivations format the same few thousand numbers over and over (a preset's layer count, a GPU's
# bandwidth), many of them for steps that are worked out and then dropped. Equal non-zero finite
# numbers print alike whatever their type (4096 and 4096.0), so they share a cache entry; zero
# (0.0 and -0.0 compare equal but print differently) and NaN or infinity never reach the cache.
_cached_num = lru_cache(maxsize=8192)(_num)
_cached_qty = lru_cache(maxsize=8192)(_qty)


def _finite(value: float) -> bool:
    return value == value and abs(value) != float("inf")
