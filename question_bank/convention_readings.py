"""The estimator's conventions (:mod:`grader.estimator.conventions`), applied to every numeric
template and step they change.

One mechanism, not a flag per template: the draw is worked again with the presets read the other
way, and an answer that moves beyond the band is accepted too, named in the feedback.

- **Memory read as GiB**: every accelerator's capacity times 2³⁰ / 10⁹. It changes only answers
  that rest on a capacity (what fits), and those take it.
- **The input embedding not read**: every model's parameter counts less its untied input-embedding
  table. The table still takes memory, so an answer that rests on a capacity does not take it; an
  answer timed on the hardware (a step's time, a rate, a utilisation) or counting the bytes a step
  reads does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import is_dataclass, replace
from typing import Any

from grader.diagnosis import band, within
from grader.estimator.conventions import (
    EMBEDDING_NOT_READ,
    GIB_PER_GB,
    MEMORY_AS_GIB,
    Convention,
    embedding_table_params,
)
from grader.problem import AcceptedValue
from question_bank.bindings import derivation_params, derived_values
from question_bank.params import PresetParam
from question_bank.templates import NumericTemplate

#: Estimator calls whose answer is the weight bytes one decode step reads (no hardware figure in it).
DECODE_READ_CALLS = frozenset({"moe_decode_weight_bytes"})
#: How far apart two workings of the answer must be to differ (float noise is far below it).
_SAME = 1e-9


def _presets(template: NumericTemplate, kind: str) -> list[str]:
    return [
        name
        for name, spec in template.params.items()
        if isinstance(spec, PresetParam) and spec.preset == kind
    ]


def _answer_on(template: NumericTemplate, values: Mapping[str, Any], swapped: Mapping[str, Any]) -> float:
    """The answer worked again, derived params included, with ``swapped`` presets in place."""
    from question_bank.answer_extras import rebound_value

    again = derived_values(template, {**values, **swapped}, only=derivation_params(template))
    return rebound_value(template.answer, template.answer, again, 0.0)


def _differs(value: float, answer: float) -> bool:
    return math.isfinite(value) and abs(value - answer) > _SAME * max(abs(answer), 1e-300)


def _changed(preset: Any, **changes: Any) -> Any:
    """``preset`` with ``changes`` (a pydantic preset or a test's dataclass); as is without those fields."""
    if not all(hasattr(preset, field) for field in changes):
        return preset
    if is_dataclass(preset) and not isinstance(preset, type):
        return replace(preset, **changes)
    return preset.model_copy(update=changes)


def _gib(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        name: _changed(values[name], memory_bytes=values[name].memory_bytes * GIB_PER_GB)
        for name in names
        if hasattr(values[name], "memory_bytes")
    }


def _faster(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        name: _changed(
            values[name],
            mem_bandwidth=2 * getattr(values[name], "mem_bandwidth", 0.0),
            peak_flops=2 * getattr(values[name], "peak_flops", 0.0),
        )
        for name in names
    }


def _without_table(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    swapped = {}
    for name in names:
        model = values[name]
        if not all(hasattr(model, field) for field in ("n_params", "vocab_size", "d_model")):
            continue
        table = embedding_table_params(
            vocab_size=model.vocab_size,
            d_model=model.d_model,
            tied_embeddings=bool(getattr(model, "tied_embeddings", False)),
        )
        swapped[name] = _changed(model, n_params=model.n_params - table)
        if getattr(model, "n_active_params", None) is not None:
            swapped[name] = _changed(swapped[name], n_active_params=model.n_active_params - table)
    return swapped


def convention_readings(
    template: NumericTemplate, values: Mapping[str, Any], answer: float
) -> list[tuple[Convention, float]]:
    """Each convention that changes this draw's answer, with the answer it gives (SI)."""
    hardware, models = _presets(template, "hardware"), _presets(template, "models")
    found: list[tuple[Convention, float]] = []
    capacity = False
    if hardware:
        gib = _answer_on(template, values, _gib(values, hardware))
        capacity = _differs(gib, answer)
        if capacity:
            found.append((MEMORY_AS_GIB, gib))
    if models and not capacity:
        timed = bool(hardware) and _differs(_answer_on(template, values, _faster(values, hardware)), answer)
        if timed or template.answer.call in DECODE_READ_CALLS:
            unread = _answer_on(template, values, _without_table(values, models))
            if _differs(unread, answer):
                found.append((EMBEDDING_NOT_READ, unread))
    return found


def convention_accepted(
    template: NumericTemplate, values: Mapping[str, Any], answer: float, accepted: Sequence[AcceptedValue]
) -> tuple[AcceptedValue, ...]:
    """The answers the conventions give for this draw that lie beyond the band, each named and noted.

    ``accepted``: what the template accepts already; a convention it names itself is not added twice.
    """
    from question_bank.answer_extras import both_count

    spec = template.answer
    exact_band = band(answer, spec.tolerance.to_tolerance(), spec.unit)
    named = {other.name for other in accepted}
    return tuple(
        AcceptedValue(convention.name, value, both_count(convention.note, value, answer, spec.unit))
        for convention, value in convention_readings(template, values, answer)
        if convention.name not in named and not within(value, exact_band)
    )
