"""What a numeric answer carries beside its value: its tolerance class (stated in the prompt), the other
answers a convention or a rounding gives (accepted too), and a verdict asked beside the figure.

- **exact**: a relative band under 10 % (or an absolute one): exact arithmetic may stay tight.
- **rough**: a relative band of 10 % or more, or a factor: an estimate.
- **whole**: ``whole: true``, a count of whole things. The answer's call rounds down and records the
  unrounded quotient as the step before its last; the nearest integer and that quotient are accepted.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from grader.diagnosis import band, within
from grader.estimator import FUNCTIONS
from grader.estimator.derivation import Step, recording
from grader.problem import AcceptedValue, ChoicePart, SlipValue, Tolerance, ToleranceClass, ToleranceKind
from grader.units import format_number, format_quantity
from question_bank.answers import Answer, ChoicePartSpec, Rebound
from question_bank.bindings import derived_values, resolve
from question_bank.catalog import PresetCatalog
from question_bank.params import PresetParam
from question_bank.templates import NumericTemplate

#: The narrowest relative band a question that asks for an estimate may have.
ROUGH_RELATIVE = 0.10


def rebound_value(
    entry: Rebound | Answer, answer_spec: Answer, values: Mapping[str, Any], answer: float
) -> float:
    """A slip's or accept entry's value: another call, the answer's call rebound, or the answer; scaled."""

    def bind(bindings: Mapping[str, Any]) -> dict[str, Any]:
        return {keyword: resolve(binding, values) for keyword, binding in bindings.items()}

    with recording():  # its steps are no part of the derivation shown
        if isinstance(entry, Answer):  # the answer itself, on other values
            return float(FUNCTIONS[entry.call](**bind(entry.with_)))
        if entry.call is not None:
            value = float(FUNCTIONS[entry.call](**bind(entry.with_ or {})))
        elif entry.with_ is not None:
            value = float(FUNCTIONS[answer_spec.call](**bind({**answer_spec.with_, **entry.with_})))
        else:
            value = answer
    return value * entry.scale if entry.scale is not None else value


def tolerance_class(spec: Answer) -> ToleranceClass:
    tolerance = spec.tolerance.to_tolerance()
    if spec.whole:
        return ToleranceClass.WHOLE
    if tolerance.kind is ToleranceKind.GEOMETRIC or (
        tolerance.kind is ToleranceKind.RELATIVE and tolerance.value >= ROUGH_RELATIVE - 1e-12
    ):
        return ToleranceClass.ROUGH
    return ToleranceClass.EXACT


def _percent(fraction: float) -> str:
    return format_number(fraction * 100)


def tolerance_note(spec: Answer) -> str:
    """The sentence a prompt ends with: how strictly it is graded (and how to type two parts)."""
    tolerance = spec.tolerance.to_tolerance()
    kind = tolerance_class(spec)
    if kind is ToleranceClass.WHOLE:
        note = (
            "Give a whole number: rounding down is the strict answer; the nearest whole number and the "
            "unrounded quotient count too."
        )
    elif tolerance.kind is ToleranceKind.GEOMETRIC:
        note = f"An order-of-magnitude estimate: within a factor of {format_number(tolerance.value)} counts."
    elif tolerance.kind is ToleranceKind.ABSOLUTE:
        note = f"Graded to within ±{format_number(tolerance.value)} {spec.unit}".rstrip() + "."
    elif kind is ToleranceClass.ROUGH:
        note = f"A rough estimate: within {_percent(tolerance.value)} % counts."
    else:
        note = f"Graded to within {_percent(tolerance.value)} % of the exact value."
    part = spec.choice_part
    if part is not None:
        example = f"12 {spec.unit}".strip()
        note += (
            f" Give the figure and the {part.asks} in one answer, like `{example}, {part.options[0].text}`."
        )
    return note


def _whole_numbers(answer: float, steps: Sequence[Step], unit: str) -> list[AcceptedValue]:
    """The nearest integer and the unrounded quotient of a whole-unit answer (the floor)."""
    unrounded = steps[-2].value if len(steps) >= 2 else answer
    if not math.isfinite(unrounded) or math.floor(unrounded) != answer:
        return []  # the call did not record its quotient where expected: nothing else to accept
    strict = format_quantity(answer, unit)
    quotient = format_quantity(unrounded, unit)
    why = f"the strict answer is **{strict}**, because only whole ones fit: {quotient} rounds down."
    nearest = float(round(unrounded))
    accepted = []
    if nearest != answer:
        accepted.append(
            AcceptedValue("nearest-whole-number", nearest, f"That is the nearest whole number; {why}", True)
        )
    if unrounded != answer:
        accepted.append(AcceptedValue("unrounded", unrounded, f"That is the unrounded quotient; {why}"))
    return accepted


def accepted_values(
    spec: Answer, values: Mapping[str, Any], answer: float, steps: Sequence[Step]
) -> tuple[AcceptedValue, ...]:
    """The other answers accepted: the whole-number readings, then each convention in ``accept``.

    One that already lies in the answer's band is left out: it is accepted anyway.
    """
    tolerance = spec.tolerance.to_tolerance()
    found = _whole_numbers(answer, steps, spec.unit) if spec.whole else []
    for entry in spec.accept:
        value = rebound_value(entry, spec, values, answer)
        if not math.isfinite(value):
            continue
        found.append(AcceptedValue(entry.name, value, both_count(entry.note, value, answer, spec.unit)))
    return tuple(other for other in found if not within(other.value, band(answer, tolerance, spec.unit)))


def both_count(note: str, value: float, answer: float, unit: str) -> str:
    """The feedback for an answer another convention gives: which reading gave which number."""
    shown, exact = format_quantity(value, unit), format_quantity(answer, unit)
    return f"{note} gives **{shown}**; the derivation's convention gives **{exact}**. Both count."


def choice_part(spec: ChoicePartSpec, values: Mapping[str, Any], tolerance: Tolerance) -> ChoicePart:
    """The verdict asked beside the figure; options within ``tolerance`` of the largest are right too."""

    sizes = [float(resolve(spec.largest[option.id], values)) for option in spec.options]
    top = max(sizes)
    slack = 1 + tolerance.value if tolerance.kind is ToleranceKind.RELATIVE else 1.0
    correct = tuple(i for i, size in enumerate(sizes) if size * slack >= top)
    return ChoicePart(
        asks=spec.asks, options=tuple(option.text for option in spec.options), correct=correct, why=spec.why
    )


def numeric_fields(
    spec: Answer, values: Mapping[str, Any], answer: float, steps: Sequence[Step]
) -> dict[str, Any]:
    """The Problem fields a numeric answer adds beside its value, slips and tolerance."""
    part = spec.choice_part
    return {
        "tolerance_class": tolerance_class(spec),
        "accepted": accepted_values(spec, values, answer, steps),
        "choice_part": choice_part(part, values, spec.tolerance.to_tolerance()) if part else None,
    }


#: The figures of a GPU that people confuse with a sibling's: field, what it is, its display unit.
_GPU_FIGURES = (("mem_bandwidth", "memory bandwidth", "TB/s"), ("peak_flops", "dense peak", "TFLOP/s"))


def other_gpu_slips(
    template: NumericTemplate,
    values: Mapping[str, Any],
    shown: Mapping[str, Any],
    catalog: PresetCatalog,
) -> list[SlipValue]:
    """Slips of a figure taken from a sibling GPU (another A100, another H100) instead of the one given.

    For each hardware preset param of the draw and each of its bandwidth and dense peak, the
    answer is worked again, derived params included, with the sibling's figure in its place.
    Siblings share the id's first word (``a100_40gb_sxm`` and ``a100_80gb_pcie``).
    """

    hardware = catalog.lists.get("hardware", {})
    found: list[SlipValue] = []
    for name, spec in template.params.items():
        if not isinstance(spec, PresetParam) or spec.preset != "hardware":
            continue
        gpu, gpu_id = values[name], str(shown[name])
        family = gpu_id.split("_")[0]
        for other_id, other in hardware.items():
            if other_id == gpu_id or other_id.split("_")[0] != family:
                continue
            for field, what, unit in _GPU_FIGURES:
                theirs, ours = getattr(other, field, None), getattr(gpu, field, None)
                if theirs is None or ours is None or theirs == ours:
                    continue
                swapped = derived_values(template, {**values, name: gpu.model_copy(update={field: theirs})})
                value = rebound_value(template.answer, template.answer, swapped, 0.0)
                diagnosis = (
                    f"Yours matches the {other.name}'s {what} ({format_quantity(theirs, unit)}), not the "
                    f"{gpu.name}'s ({format_quantity(ours, unit)}) that the question gives."
                )
                found.append(SlipValue(f"used-other-gpu-{field.replace('_', '-')}", value, diagnosis))
    return found
