"""The question-template format, as pydantic v2 models (extra keys forbidden everywhere).

A bank file is ``templates: [...]``; a pool file is ``scenarios: [...]``. A template holds no
code: parameters are declared draws, the answer and slips are names of estimator functions with
bindings, and a binding is either a parameter path (``model.n_layers``) or a literal number or
bool. These models check the shape of each file; :mod:`question_bank.consistency` checks the
names (checklist ids, estimator functions, presets, parameters, placeholders).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Discriminator, Field, PlainValidator, Tag, model_validator
from pydantic_core import PydanticCustomError

from grader.problem import Tolerance, ToleranceKind
from grader.rubric import Misconception, Rubric

KEBAB_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"
PARAM_NAME = r"^[a-z_][a-z0-9_]*$"
OPTION_ID = r"^[a-z0-9][a-z0-9_-]*$"
#: The longest prompt a template or step may have (the shipped ones stay under 1,000 characters); a
#: longer one is refused before any check reads it.
MAX_PROMPT_CHARS = 20_000

Scalar = bool | int | float | str


def _scalar(value: Any) -> Scalar:
    if isinstance(value, bool | int | float | str):
        return value
    raise PydanticCustomError(
        "bank_scalar",
        "expected a number, a bool or a name, got {got}",
        {"got": type(value).__name__, "hint": "a single value such as 8, 0.5, true or model.n_layers"},
    )


def _argument(value: Any) -> Scalar | tuple[Scalar, ...]:
    if isinstance(value, list | tuple):
        if not value:
            raise PydanticCustomError(
                "bank_scalar",
                "an empty list binds nothing",
                {"hint": "a list of bindings such as [len_a, len_b, 4096]"},
            )
        return tuple(_scalar(item) for item in value)
    return _scalar(value)


#: A binding: a parameter path such as ``model.n_layers`` (a string) or a literal number or bool.
Binding = Annotated[Scalar, PlainValidator(_scalar)]
#: What a ``with`` keyword takes: a binding, or a list of bindings for a keyword that takes a
#: sequence (``request_lengths: [len_a, len_b, 4096]``), resolved element by element.
Argument = Annotated[Scalar | tuple[Scalar, ...], PlainValidator(_argument)]
#: A literal value in a ``choice`` list or a ``where`` equality filter.
Value = Annotated[Scalar, PlainValidator(_scalar)]


def _bank_error(message: str, hint: str) -> PydanticCustomError:
    return PydanticCustomError("bank_rule", message, {"hint": hint})


class Strict(BaseModel):
    """Frozen, and any key the format does not define is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- parameters ------------------------------------------------------------------------------


class RangeFilter(Strict):
    """Keep presets whose field lies in [min, max]; either bound may be left out."""

    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> RangeFilter:
        if self.min is None and self.max is None:
            raise _bank_error("a range filter needs min, max or both", "{min: 2.0e10} or {min: 1, max: 8}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise _bank_error(f"min ({self.min}) is above max ({self.max})", "swap min and max")
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
        raise _bank_error(f"low ({low}) is above high ({high})", "swap low and high")
    if log and low <= 0:
        raise _bank_error(f"a log range needs low > 0, got {low}", "a positive low, or log: false")
    if step is not None and step <= 0:
        raise _bank_error(f"step must be positive, got {step}", "a positive step such as 1 or 0.05")


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


# --- answers and slips -----------------------------------------------------------------------


class ToleranceSpec(Strict):
    """Exactly one of: ``relative`` (0 < r < 1), ``absolute`` (> 0, display unit), ``geometric`` (> 1)."""

    relative: float | None = Field(default=None, gt=0, lt=1)
    absolute: float | None = Field(default=None, gt=0)
    geometric: float | None = Field(default=None, gt=1)

    @model_validator(mode="after")
    def _exactly_one(self) -> ToleranceSpec:
        given = [name for name in ("relative", "absolute", "geometric") if getattr(self, name) is not None]
        if len(given) != 1:
            raise _bank_error(
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
            raise _bank_error(
                "a slip or accept entry needs with, scale or call",
                "scale: 0.5, or with: {n_kv_heads: model.n_heads}",
            )
        if self.scale is not None and (self.scale == 0 or not math.isfinite(self.scale)):
            raise _bank_error(f"scale must be a non-zero finite number, got {self.scale}", "scale: 0.5")
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
            raise _bank_error(
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


# --- choice and recall -----------------------------------------------------------------------


class Option(Strict):
    id: str = Field(pattern=OPTION_ID)
    text: str = Field(min_length=1)
    explanation: str = Field(min_length=1)


class Scenario(Strict):
    """A situation whose right option is ``answer`` (an option id), with ``why`` it is right."""

    text: str = Field(min_length=1)
    answer: str
    why: str = Field(min_length=1)


class PoolRef(Strict):
    """Scenarios taken from ``question_bank/data/pools/<pool>.yaml`` (or a pool in a user bank folder)."""

    pool: str


class Decide(Strict):
    """A computed choice: option ``below`` when lhs < rhs, else option ``otherwise``."""

    lhs: Binding
    rhs: Binding
    below: str
    otherwise: str


def _scenarios_kind(value: Any) -> str | None:
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict | PoolRef):
        return "pool"
    return None


Scenarios = Annotated[
    Annotated[list[Scenario], Tag("list")] | Annotated[PoolRef, Tag("pool")],
    Discriminator(
        _scenarios_kind,
        custom_error_type="bank_scenarios",
        custom_error_message="scenarios is a list of {text, answer, why} or {pool: NAME}",
    ),
]


# --- templates -------------------------------------------------------------------------------


class TemplateBase(Strict):
    id: str = Field(pattern=KEBAB_ID)
    checklist: str
    difficulty: int = Field(ge=1, le=3)
    title: str = Field(min_length=1)
    prompt: str = Field(min_length=1, max_length=MAX_PROMPT_CHARS)
    params: dict[Annotated[str, Field(pattern=PARAM_NAME)], ParamSpec] = {}
    require: list[Requirement] = []
    explanation: str = Field(min_length=1)
    references: list[str] = Field(min_length=1)
    #: Free tags for what a template is about beyond its one checklist item (tensor-parallel,
    #: speculative, flash-attention, paged-kv, quantization, moe, latency...), for filters.
    topics: list[Annotated[str, Field(pattern=KEBAB_ID)]] = []


class NumericAnswer(Strict):
    """What a numeric template and a numeric scenario step share: the answer call and the slips."""

    kind: Literal["numeric"]
    answer: Answer
    slips: list[Slip] = []


class ChoiceAnswer(Strict):
    """What a choice template and a choice scenario step share: the options and how one is chosen."""

    kind: Literal["choice"]
    options: list[Option] = Field(min_length=2)
    scenarios: Scenarios | None = None
    decide: Decide | None = None

    @model_validator(mode="after")
    def _one_way_to_answer(self) -> Self:
        if (self.scenarios is None) == (self.decide is None):
            raise _bank_error(
                "a choice template has either scenarios or decide (exactly one)",
                "scenarios: {pool: symptoms}, or decide: {lhs: x, rhs: ridge, below: ID, otherwise: ID}",
            )
        return self


class NumericTemplate(TemplateBase, NumericAnswer):
    pass


class ChoiceTemplate(TemplateBase, ChoiceAnswer):
    pass


def _phrase(value: Any) -> str:
    # YAML reads 200 or 0.5 as numbers; a rubric phrase may be a bare number.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    raise PydanticCustomError(
        "bank_phrase",
        "expected a phrase (words or a number), got {got!r}",
        {"got": value, "hint": 'a phrase such as "memory-bound", "flop per byte" or 200'},
    )


#: A rubric phrase: words (matched on their stems) or a number (matched by value within 10 %).
Phrase = Annotated[str, PlainValidator(_phrase)]


class RubricSpec(Strict):
    """Concepts that must appear (each a list of alternative phrases), how many, and what must not.

    ``need`` defaults to all concepts; ``forbid`` phrases void the point when they appear un-negated.
    """

    concepts: list[Annotated[list[Phrase], Field(min_length=1)]] = Field(min_length=1)
    need: int | None = Field(default=None, ge=1)
    forbid: list[Phrase] = []

    @model_validator(mode="after")
    def _need_fits(self) -> RubricSpec:
        if self.need is not None and self.need > len(self.concepts):
            raise _bank_error(
                f"need ({self.need}) is more than the {len(self.concepts)} concepts listed",
                f"need: {len(self.concepts)} or less, or list more concepts",
            )
        return self

    def to_rubric(self) -> Rubric:
        return Rubric(
            concepts=tuple(tuple(concept) for concept in self.concepts),
            need=self.need or 0,
            forbid=tuple(self.forbid),
        )


class KeyPoint(RubricSpec):
    """A key point as shown (``point``) and the rubric that finds it in a typed explanation."""

    point: str = Field(min_length=1)


class MisconceptionSpec(RubricSpec):
    """A common wrong belief (``name``, as people say it), its ``correction``, and how to spot it.

    It is found when every concept appears, un-negated, in one sentence.
    """

    name: str = Field(min_length=1)
    correction: str = Field(min_length=1)
    need: None = None

    def to_misconception(self) -> Misconception:
        return Misconception(name=self.name, correction=self.correction, rubric=self.to_rubric())


class RecallAnswer(Strict):
    """What a recall template and a recall scenario step share: key points, misconceptions, the answer.

    Listed first among a recall class's bases, so its optional ``explanation`` wins over the required one.
    """

    kind: Literal["recall"]
    key_points: list[KeyPoint] = Field(min_length=3, max_length=6)
    misconceptions: list[MisconceptionSpec] = Field(min_length=2)
    model_answer: str = Field(min_length=1)
    explanation: str = ""

    @model_validator(mode="after")
    def _distinct_misconceptions(self) -> Self:
        names = [m.name for m in self.misconceptions]
        if len(set(names)) != len(names):
            raise _bank_error("two misconceptions share a name", "give each misconception its own name")
        return self


class RecallTemplate(RecallAnswer, TemplateBase):
    pass


Template = NumericTemplate | ChoiceTemplate | RecallTemplate


# --- scenarios: one setup, several ordered steps -----------------------------------------------


class StepBase(Strict):
    """One step of a scenario: a numeric, choice or recall part on the scenario's shared draw.

    ``id`` is snake_case: a later step binds this step's result by it (``weights_per_chip``), in
    its answer or in its own ``params``.
    """

    id: str = Field(pattern=PARAM_NAME)
    checklist: str
    title: str = Field(min_length=1)
    prompt: str = Field(min_length=1, max_length=MAX_PROMPT_CHARS)
    #: Derived values of this step alone (``call`` params); they may use earlier steps' results.
    params: dict[Annotated[str, Field(pattern=PARAM_NAME)], CallParam] = {}
    explanation: str = Field(min_length=1)
    references: list[str] = Field(min_length=1)


class NumericStep(StepBase, NumericAnswer):
    pass


class ChoiceStep(StepBase, ChoiceAnswer):
    pass


class RecallStep(RecallAnswer, StepBase):
    """A recall step, with key points and misconceptions as a recall template has them."""


StepSpec = Annotated[
    Annotated[NumericStep, Tag("numeric")]
    | Annotated[ChoiceStep, Tag("choice")]
    | Annotated[RecallStep, Tag("recall")],
    Discriminator(
        lambda value: value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None),
        custom_error_type="bank_kind",
        custom_error_message="a step's kind must be numeric, choice or recall",
    ),
]
Step = NumericStep | ChoiceStep | RecallStep
#: How many steps a scenario asks.
MIN_STEPS, MAX_STEPS = 4, 8


class ScenarioTemplate(TemplateBase):
    """A chain of steps on ONE draw: ``prompt`` is the setup shown above every step.

    The card (and the history) is the scenario's ``id``; ``checklist`` is the item it serves best,
    while each step counts toward its own ``checklist`` item.
    """

    kind: Literal["scenario"]
    steps: list[StepSpec] = Field(min_length=MIN_STEPS, max_length=MAX_STEPS)
    explanation: str = ""


AnyTemplate = Template | ScenarioTemplate
KINDS = ("numeric", "choice", "recall", "scenario")


def _template_kind(value: Any) -> str | None:
    return value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)


TemplateSpec = Annotated[
    Annotated[NumericTemplate, Tag("numeric")]
    | Annotated[ChoiceTemplate, Tag("choice")]
    | Annotated[RecallTemplate, Tag("recall")]
    | Annotated[ScenarioTemplate, Tag("scenario")],
    Discriminator(
        _template_kind,
        custom_error_type="bank_kind",
        custom_error_message="kind must be numeric, choice, recall or scenario",
    ),
]


class TemplateFile(Strict):
    """A bank file: ``templates: [...]``."""

    templates: list[TemplateSpec] = Field(min_length=1)


class PoolFile(Strict):
    """A scenario pool file: ``scenarios: [...]``; the pool's name is the file's stem."""

    scenarios: list[Scenario] = Field(min_length=1)


def kind_fields(kind: str) -> frozenset[str]:
    """The keys a template of ``kind`` may have (by their YAML names)."""
    model = {
        "numeric": NumericTemplate,
        "choice": ChoiceTemplate,
        "recall": RecallTemplate,
        "scenario": ScenarioTemplate,
    }[kind]
    return frozenset(info.alias or name for name, info in model.model_fields.items())
