"""Parameter specs: a template's declared draws (preset, dtype, int, float, choice, call) and requirements."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag, model_validator

from question_bank.model_base import Argument, Binding, Strict, Value, bank_error


class RangeFilter(Strict):
    """Keep presets whose field lies in [min, max]; either bound may be left out."""

    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> RangeFilter:
        if self.min is None and self.max is None:
            raise bank_error("a range filter needs min, max or both", "{min: 2.0e10} or {min: 1, max: 8}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise bank_error(f"min ({self.min}) is above max ({self.max})", "swap min and max")
        return self


#: A ``where`` condition: ``present`` (the field is set), a range, or a literal the field must equal.
WhereCondition = Annotated[
    Annotated[RangeFilter, Tag("range")] | Annotated[Value, Tag("value")],
    Discriminator(lambda value: "range" if isinstance(value, dict | RangeFilter) else "value"),
]
PRESENT = "present"


class PresetParam(Strict):
    """One preset drawn from a list (``models`` or ``hardware``), optionally filtered."""

    preset: str
    ids: list[str] | None = Field(default=None, min_length=1)
    exclude: list[str] = []
    where: dict[str, WhereCondition] = {}


class DtypeParam(Strict):
    """One number format drawn from a list of names in ``grader.estimator.DTYPE_BYTES``."""

    dtype: list[str] = Field(min_length=1)


def _check_range(low: float, high: float, log: bool, step: float | None) -> None:
    if low > high:
        raise bank_error(f"low ({low}) is above high ({high})", "swap low and high")
    if log and low <= 0:
        raise bank_error(f"a log range needs low > 0, got {low}", "a positive low, or log: false")
    if step is not None and step <= 0:
        raise bank_error(f"step must be positive, got {step}", "a positive step such as 1 or 0.05")


class IntRange(Strict):
    """Integers in [low, high] on the grid low, low + step, ...; log-uniform when ``log``."""

    low: int
    high: int
    log: bool = False
    step: int = 1

    @model_validator(mode="after")
    def _ordered(self) -> IntRange:
        _check_range(self.low, self.high, self.log, self.step)
        return self


class FloatRange(Strict):
    """Floats in [low, high], on a grid when ``step`` is given, else rounded to 4 significant figures."""

    low: float
    high: float
    log: bool = False
    step: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> FloatRange:
        _check_range(self.low, self.high, self.log, self.step)
        return self


class IntParam(Strict):
    int_: IntRange = Field(alias="int")


class FloatParam(Strict):
    float_: FloatRange = Field(alias="float")


class ChoiceParam(Strict):
    """One value drawn from a literal list."""

    choice: list[Value] = Field(min_length=1)


class CallParam(Strict):
    """A derived value: an estimator function applied to bindings of earlier parameters."""

    call: str
    with_: dict[str, Argument] = Field(default={}, alias="with")


PARAM_KINDS = ("preset", "dtype", "int", "float", "choice", "call")
PARAM_FORMS = (
    "{preset: models}, {dtype: [bf16]}, {int: {low, high}}, {float: {low, high}}, {choice: [...]}, "
    "{call: NAME, with: {...}}"
)


def _param_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return next((kind for kind in PARAM_KINDS if kind in value), None)
    return next((kind for kind in PARAM_KINDS if isinstance(value, _PARAM_MODELS[kind])), None)


ParamSpec = Annotated[
    Annotated[PresetParam, Tag("preset")]
    | Annotated[DtypeParam, Tag("dtype")]
    | Annotated[IntParam, Tag("int")]
    | Annotated[FloatParam, Tag("float")]
    | Annotated[ChoiceParam, Tag("choice")]
    | Annotated[CallParam, Tag("call")],
    Discriminator(
        _param_kind,
        custom_error_type="bank_param_kind",
        custom_error_message="a param must be one of the declared draws",
    ),
]
_PARAM_MODELS: dict[str, type[Strict]] = {
    "preset": PresetParam,
    "dtype": DtypeParam,
    "int": IntParam,
    "float": FloatParam,
    "choice": ChoiceParam,
    "call": CallParam,
}


class Requirement(Strict):
    """A condition every draw must meet; draws that fail it are drawn again.

    ``lhs < rhs``; or, with ``apart`` (a factor above 1), the larger of the two at least ``apart``
    times the smaller, so that a "which is bigger" question never draws a near tie.
    """

    lhs: Binding
    rhs: Binding
    apart: float | None = Field(default=None, gt=1)

    def met(self, lhs: float, rhs: float) -> bool:
        if self.apart is None:
            return lhs < rhs
        low, high = sorted((abs(lhs), abs(rhs)))
        return high >= self.apart * low
