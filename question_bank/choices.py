"""Choice specs: the options, the scenarios (listed or from a pool) or the decide rule that picks one."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import Discriminator, Field, Tag, model_validator

from question_bank.model_base import OPTION_ID, Binding, Strict, bank_error


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


#: The least margin of a computed choice, as a share of its threshold (``rhs``).
MIN_MARGIN = 0.10


class Decide(Strict):
    """A computed choice: option ``below`` when lhs < rhs, else option ``otherwise``.

    ``margin``: how far apart the two sides must be, as a share of ``rhs``; a draw closer than that is
    drawn again, so no draw is a near tie a rounding or a convention could turn. At least
    :data:`MIN_MARGIN`, and never less than the band of a scenario step either side rests on (the
    bank works that out when ``margin`` is left out).
    """

    lhs: Binding
    rhs: Binding
    below: str
    otherwise: str
    margin: float | None = Field(default=None, ge=MIN_MARGIN, lt=1)


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


class ChoiceAnswer(Strict):
    """What a choice template and a choice scenario step share: the options and how one is chosen."""

    kind: Literal["choice"]
    options: list[Option] = Field(min_length=2)
    scenarios: Scenarios | None = None
    decide: Decide | None = None

    @model_validator(mode="after")
    def _one_way_to_answer(self) -> Self:
        if (self.scenarios is None) == (self.decide is None):
            raise bank_error(
                "a choice template has either scenarios or decide (exactly one)",
                "scenarios: {pool: symptoms}, or decide: {lhs: x, rhs: ridge, below: ID, otherwise: ID}",
            )
        return self
