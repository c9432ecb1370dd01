"""The base of every bank model (``Strict``) and what all models share: id patterns, bindings."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainValidator
from pydantic_core import PydanticCustomError

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


def bank_error(message: str, hint: str) -> PydanticCustomError:
    return PydanticCustomError("bank_rule", message, {"hint": hint})


class Strict(BaseModel):
    """Frozen, and any key the format does not define is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)
