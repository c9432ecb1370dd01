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
from typing import TypedDict


class StepDict(TypedDict):
    """The stored form of a :class:`Step`."""

    label: str
    formula: str
    substituted: str
    value: float
    unit: str


@dataclass(frozen=True)
class Step:
    """One line of a worked derivation.

    ``unit`` is the SI unit symbol of ``value`` (``B``, ``s``, ``FLOP``, ``FLOP/s``, ``B/s``,
    ``FLOP/B``, ``B/token``, ``tokens`` or ``""`` for a pure number).
    """

    label: str
    formula: str
    substituted: str
    value: float
    unit: str

    def to_dict(self) -> StepDict:
        return StepDict(
            label=self.label,
            formula=self.formula,
            substituted=self.substituted,
            value=self.value,
            unit=self.unit,
        )

    @staticmethod
    def from_dict(data: StepDict) -> Step:
        return Step(
            label=data["label"],
            formula=data["formula"],
            substituted=data["substituted"],
            value=float(data["value"]),
            unit=data["unit"],
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


def num(value: float) -> str:
    """A number as it appears inside a substituted formula: exact integers, else 4 significant figures."""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.4g}"
