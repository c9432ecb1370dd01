"""Numeric answer specs: the answer call, its tolerance, slips, accepted conventions, a verdict beside it."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from grader.problem import Tolerance, ToleranceKind
from question_bank.model_base import KEBAB_ID, OPTION_ID, Argument, Binding, Strict, bank_error


class ToleranceSpec(Strict):
    """Exactly one of: ``relative`` (0 < r < 1), ``absolute`` (> 0, display unit), ``geometric`` (> 1)."""

    relative: float | None = Field(default=None, gt=0, lt=1)
    absolute: float | None = Field(default=None, gt=0)
    geometric: float | None = Field(default=None, gt=1)

    @model_validator(mode="after")
    def _exactly_one(self) -> ToleranceSpec:
        given = [name for name in ("relative", "absolute", "geometric") if getattr(self, name) is not None]
        if len(given) != 1:
            raise bank_error(
                f"a tolerance has exactly one of relative, absolute, geometric (got {len(given)})",
                "{relative: 0.05} or {absolute: 0.5} or {geometric: 1.5}",
            )
        return self

    def to_tolerance(self) -> Tolerance:
        for kind in ToleranceKind:
            value = getattr(self, kind.value)
            if value is not None:
                return Tolerance(kind=kind, value=value)
        raise AssertionError("validated tolerance has one kind")  # pragma: no cover


class Rebound(Strict):
    """Another value of the answer: its call rebound (``with``), scaled, or another ``call``."""

    name: str = Field(pattern=KEBAB_ID)
    with_: dict[str, Argument] | None = Field(default=None, alias="with")
    scale: float | None = None
    call: str | None = None

    @model_validator(mode="after")
    def _does_something(self) -> Rebound:
        if self.with_ is None and self.scale is None and self.call is None:
            raise bank_error(
                "a slip or accept entry needs with, scale or call",
                "scale: 0.5, or with: {n_kv_heads: model.n_heads}",
            )
        if self.scale is not None and (self.scale == 0 or not math.isfinite(self.scale)):
            raise bank_error(f"scale must be a non-zero finite number, got {self.scale}", "scale: 0.5")
        return self


class Slip(Rebound):
    """A named wrong answer, and the diagnosis shown when an answer matches it."""

    diagnosis: str = Field(min_length=1)


class Accept(Rebound):
    """A defensible convention's answer, accepted too; ``note`` names the convention (shown with both)."""

    note: str = Field(min_length=1)


class PartOption(Strict):
    id: str = Field(pattern=OPTION_ID)
    text: str = Field(min_length=1)


class ChoicePartSpec(Strict):
    """A verdict asked beside the figure: the option whose ``largest`` binding is largest is right.

    Options whose bindings lie within the answer's tolerance of the largest count as right too.
    """

    asks: str = Field(min_length=1)
    options: list[PartOption] = Field(min_length=2)
    largest: dict[str, Binding]
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _every_option_bound(self) -> ChoicePartSpec:
        ids = [option.id for option in self.options]
        if sorted(ids) != sorted(self.largest):
            raise bank_error(
                f"largest must bind exactly the option ids {ids}", "largest: {compute: compute_s, ...}"
            )
        return self


class Answer(Strict):
    """The exact answer: an estimator call, the display unit a bare number is read in, a tolerance.

    ``whole``: a count of whole things (the call rounds down); the nearest integer and the
    unrounded quotient are accepted too. ``accept``: other conventions' answers, accepted too.
    ``choice_part``: a verdict asked beside the figure, graded from the same typed answer.
    """

    call: str
    with_: dict[str, Argument] = Field(default={}, alias="with")
    unit: str
    tolerance: ToleranceSpec = ToleranceSpec(relative=0.05)
    whole: bool = False
    accept: list[Accept] = []
    choice_part: ChoicePartSpec | None = None


class NumericAnswer(Strict):
    """What a numeric template and a numeric scenario step share: the answer call and the slips."""

    kind: Literal["numeric"]
    answer: Answer
    slips: list[Slip] = []
