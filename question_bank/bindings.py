"""Bindings: how a template's ``with`` arguments take their values from the drawn params.

A binding is a literal, a param's ``name`` or ``name.field``, or a list of bindings. Generation,
the answer's extras and the convention readings all resolve bindings and work derived params out
again; this module is the one place that does it, so none of them imports another for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grader.estimator import FUNCTIONS
from grader.estimator.derivation import recording
from question_bank.params import CallParam
from question_bank.templates import ChoiceTemplate, NumericTemplate, Template


def resolve(binding: Any, values: Mapping[str, Any]) -> Any:
    """A binding's value: a literal as is, ``name`` or ``name.field`` looked up in the drawn values.

    A list argument (a tuple of bindings) resolves to the tuple of its elements' values.
    """
    if isinstance(binding, tuple):
        return tuple(resolve(item, values) for item in binding)
    if not isinstance(binding, str):
        return binding
    name, _, field = binding.partition(".")
    value = values[name]
    return getattr(value, field) if field else value


def bind(bindings: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    return {keyword: resolve(binding, values) for keyword, binding in bindings.items()}


def derived_values(
    template: Template, values: Mapping[str, Any], *, only: frozenset[str] | None = None
) -> dict[str, Any]:
    """``values`` with every derived (``call``) param worked out again, in order, from the others.

    ``only``: just these derived params (the others keep their values), e.g. what the answer rests on.
    """
    out = dict(values)
    with recording():
        for name, spec in template.params.items():
            if isinstance(spec, CallParam) and (only is None or name in only):
                out[name] = FUNCTIONS[spec.call](**bind(spec.with_, out))
    return out


def derivation_params(template: Template) -> frozenset[str]:
    """The derived params the answer (or a choice's ``decide``) rests on, directly or through others.

    Only their steps belong in the derivation a user reads: a value computed for a slip, a
    ``require`` check or the prompt alone would be a detour there.
    """
    if isinstance(template, NumericTemplate):
        roots = _flat(template.answer.with_.values())
    elif isinstance(template, ChoiceTemplate) and template.decide is not None:
        roots = [template.decide.lhs, template.decide.rhs]
    else:
        roots = []
    needed: set[str] = set()
    pending = [root for root in roots if isinstance(root, str)]
    while pending:
        name = pending.pop().partition(".")[0]
        if name in needed or name not in template.params:
            continue
        needed.add(name)
        spec = template.params[name]
        if isinstance(spec, CallParam):
            pending.extend(binding for binding in _flat(spec.with_.values()) if isinstance(binding, str))
    return frozenset(needed)


def _flat(arguments: Iterable[Any]) -> list[Any]:
    """The bindings of ``with`` arguments, a list argument's elements each on their own."""
    return [
        item for argument in arguments for item in (argument if isinstance(argument, tuple) else (argument,))
    ]
