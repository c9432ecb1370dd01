"""Templates: the numeric, choice, recall and scenario templates, a scenario's steps, and the bank's files."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from question_bank.answers import NumericAnswer
from question_bank.choices import ChoiceAnswer, Scenario
from question_bank.model_base import KEBAB_ID, MAX_PROMPT_CHARS, PARAM_NAME, Strict
from question_bank.params import CallParam, ParamSpec, Requirement
from question_bank.recall_specs import RecallAnswer


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


class NumericTemplate(TemplateBase, NumericAnswer):
    pass


class ChoiceTemplate(TemplateBase, ChoiceAnswer):
    pass


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
    models: dict[str, type[Strict]] = {
        "numeric": NumericTemplate,
        "choice": ChoiceTemplate,
        "recall": RecallTemplate,
        "scenario": ScenarioTemplate,
    }
    return frozenset(info.alias or name for name, info in models[kind].model_fields.items())
