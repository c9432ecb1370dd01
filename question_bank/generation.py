"""Seeded generation: a template and a seed make one concrete :class:`grader.problem.Problem`.

Parameters are drawn in their declared order from ``random.Random`` seeded with the template id
and the seed, so the same (template, seed) always gives the same problem and two templates with
the same seed draw independently. Estimator calls (derived parameters and the answer) run inside
one :func:`grader.estimator.derivation.recording` block, which becomes the problem's derivation; slips run
outside it. A slip that lands within tolerance of the answer, or of an earlier slip, for a
particular draw is dropped for that draw, so every slip that remains can be told apart.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from grader.diagnosis import band, within
from grader.estimator import FUNCTIONS
from grader.estimator.derivation import recording
from grader.problem import Choice, Kind, Problem, SlipValue, Tolerance
from question_bank.answer_extras import numeric_fields, other_gpu_slips, rebound_value, tolerance_note
from question_bank.answers import Answer
from question_bank.bindings import bind, derivation_params, resolve
from question_bank.catalog import Dtype, PresetCatalog, select_presets, shipped_catalog
from question_bank.convention_readings import convention_accepted
from question_bank.draw_rules import draw_issue, rules_of
from question_bank.errors import GenerationError, PinError
from question_bank.margins import margin_requirements
from question_bank.params import (
    CallParam,
    ChoiceParam,
    DtypeParam,
    FloatParam,
    FloatRange,
    IntParam,
    IntRange,
    PresetParam,
    Requirement,
)
from question_bank.pins import Pins, pin_issue, pinned_value
from question_bank.rendering import Placeholder, format_value, render
from question_bank.slip_rule import slip_inside
from question_bank.templates import ChoiceTemplate, NumericTemplate, RecallTemplate, Template

#: How many times the parameters are drawn again when a draw breaks the template's ``require`` list.
MAX_DRAWS = 200


def generate(
    template: Template,
    seed: int,
    *,
    catalog: PresetCatalog | None = None,
    slips_apart: bool = True,
    pins: Pins | None = None,
) -> Problem:
    """The problem ``template`` makes for ``seed``; ``catalog`` defaults to the shipped presets.

    ``slips_apart``: a draw in which a declared slip lands inside the answer's band is drawn again
    (see :func:`question_bank.slip_rule.slip_inside`). A scenario's step views share one draw, so they
    leave it to the scenario's own checks.

    ``pins``: params set to given values (see :mod:`question_bank.pins`), the others drawn as the seed
    draws them; :class:`GenerationError` when a pin is not one the template can take.
    """
    return generate_drawn(template, seed, catalog=catalog, slips_apart=slips_apart, pins=pins)[0]


def generate_drawn(
    template: Template,
    seed: int,
    *,
    catalog: PresetCatalog | None = None,
    slips_apart: bool = True,
    pins: Pins | None = None,
) -> tuple[Problem, dict[str, Any]]:
    """:func:`generate`, with the values drawn (presets as objects, derived params worked out) by name."""
    catalog = catalog or shipped_catalog()
    rng = random.Random(f"{template.id}/{seed}")
    with recording() as steps:
        values, shown = _draw_until_valid(
            template, rng, catalog, steps, slips_apart=slips_apart, pins=pins or {}
        )
        answer = _call(template.answer, values) if isinstance(template, NumericTemplate) else None
    scenario_text = ""
    fields: dict[str, Any] = {}
    if isinstance(template, NumericTemplate):
        assert answer is not None
        tolerance = template.answer.tolerance.to_tolerance()
        extras = numeric_fields(template.answer, values, answer, steps)
        extras["accepted"] += convention_accepted(template, values, answer, extras["accepted"])
        accepted = [answer, *(other.value for other in extras["accepted"])]
        fields.update(
            answer=answer,
            unit=template.answer.unit,
            tolerance=tolerance,
            slips=_slips(
                template, values, accepted, tolerance, other_gpu_slips(template, values, shown, catalog)
            ),
            explanation=template.explanation,
            **extras,
        )
    elif isinstance(template, ChoiceTemplate):
        choices, scenario_text, why = _choices(template, values, rng)
        fields.update(
            choices=choices, explanation="\n\n".join(part for part in (why, template.explanation) if part)
        )
    else:
        assert isinstance(template, RecallTemplate)
        explanation = "\n\n".join(part for part in (template.model_answer, template.explanation) if part)
        fields.update(
            key_points=tuple(point.point for point in template.key_points),
            key_point_rubrics=tuple(point.to_rubric() for point in template.key_points),
            key_point_probes=tuple(p.probe.to_probe() if p.probe else None for p in template.key_points),
            misconceptions=tuple(m.to_misconception() for m in template.misconceptions),
            model_answer=template.model_answer,
            explanation=explanation,
        )

    def value_of(placeholder: Placeholder) -> str:
        if placeholder.name == "scenario" and scenario_text:
            return scenario_text
        if placeholder.name == "answer" and answer is not None and placeholder.name not in values:
            return format_value(answer, placeholder.unit)
        value = values[placeholder.name]
        if placeholder.field is not None:
            value = getattr(value, placeholder.field)
        return format_value(value, placeholder.unit)

    prompt = render(template.prompt, value_of)
    # Explanations and diagnoses are rendered from the same draw, so they never quote another case.
    if isinstance(template, NumericTemplate):
        fields["explanation"] = render(fields["explanation"], value_of)
        prompt = f"{prompt.rstrip()}\n\n*{tolerance_note(template.answer)}*"
        fields["slips"] = tuple(
            SlipValue(s.name, s.value, render(s.diagnosis, value_of)) for s in fields["slips"]
        )
    problem = Problem(
        template_id=template.id,
        checklist_item=template.checklist,
        kind=Kind(template.kind),
        prompt=prompt,
        seed=seed,
        params=shown,
        derivation=tuple(steps),
        references=tuple(template.references),
        difficulty=template.difficulty,
        title=template.title,
        topics=tuple(template.topics),
        **fields,
    )
    return problem, values


# --- drawing -----------------------------------------------------------------------------------


def draw_values(
    template: Template,
    seed: int,
    *,
    catalog: PresetCatalog | None = None,
    slips_apart: bool = True,
    pins: Pins | None = None,
) -> dict[str, Any]:
    """The values ``generate`` draws for (template, seed), by param name; nothing is recorded."""
    rng = random.Random(f"{template.id}/{seed}")
    with recording():
        values, _ = _draw_until_valid(
            template, rng, catalog or shipped_catalog(), [], slips_apart=slips_apart, pins=pins or {}
        )
    return values


def _draw_until_valid(
    template: Template,
    rng: random.Random,
    catalog: PresetCatalog,
    steps: list[Any],
    *,
    slips_apart: bool,
    pins: Pins,
) -> tuple[dict[str, Any], dict[str, Any]]:
    refused = pin_issue(template, pins, catalog) if pins else None
    if refused:
        raise PinError(template.id, refused)
    shown_steps = derivation_params(template)
    requirements = [*template.require, *margin_requirements(template)]
    rules = rules_of(template)
    broken = None
    for _ in range(MAX_DRAWS):
        steps.clear()  # only the accepted draw's derived values belong in the derivation
        values: dict[str, Any] = {}
        shown: dict[str, Any] = {}
        for name, spec in template.params.items():
            if isinstance(spec, CallParam) and name not in shown_steps:
                with recording():  # computed, but not part of the answer's derivation
                    values[name], shown[name] = _draw(spec, values, rng, catalog)
            else:
                values[name], shown[name] = _draw(spec, values, rng, catalog)
            if name in pins:  # drawn all the same, so that the params after it keep the seed's draws
                values[name], shown[name] = pinned_value(spec, pins[name], catalog)
        unmet = next(
            (r for r in requirements if not r.met(resolve(r.lhs, values), resolve(r.rhs, values))), None
        )
        if unmet is not None and pins:
            broken = _unmet_phrase(unmet, values)
        if unmet is None:
            broken = draw_issue(rules, values)
            if broken is None and slips_apart:
                broken = slip_inside(template, values)
            if broken is None:
                return values, shown
    why = f" (the last one drawn: {broken})" if broken else ""
    if pins:
        raise PinError(template.id, broken or "no draw meets what its questions require")
    raise GenerationError(
        f"template {template.id!r}: no draw in {MAX_DRAWS} met its require list and the draw rules{why}"
    )


def _unmet_phrase(requirement: Requirement, values: Mapping[str, Any]) -> str:
    """A ``require`` entry a draw breaks, with the values it was held to."""
    lhs, rhs = resolve(requirement.lhs, values), resolve(requirement.rhs, values)
    said = f"`{requirement.lhs}` ({lhs:,.4g}) and `{requirement.rhs}` ({rhs:,.4g})"
    if requirement.apart is None:
        return f"it needs {said} in that order, the first below the second"
    return f"it needs {said} at least {requirement.apart:g} times apart"


def _draw(
    spec: Any, values: Mapping[str, Any], rng: random.Random, catalog: PresetCatalog
) -> tuple[Any, Any]:
    """The drawn value and its JSON form (preset id, dtype name or the number itself)."""
    if isinstance(spec, PresetParam):
        preset_id, preset = rng.choice(select_presets(spec, catalog.lists[spec.preset]))
        return preset, preset_id
    if isinstance(spec, DtypeParam):
        name = rng.choice(spec.dtype)
        return Dtype.named(name), name
    # A number or a choice is its own JSON form.
    if isinstance(spec, IntParam):
        whole = _draw_int(spec.int_, rng)
        return whole, whole
    if isinstance(spec, FloatParam):
        number = _draw_float(spec.float_, rng)
        return number, number
    if isinstance(spec, ChoiceParam):
        chosen = rng.choice(spec.choice)
        return chosen, chosen
    if isinstance(spec, CallParam):
        computed = FUNCTIONS[spec.call](**bind(spec.with_, values))
        return computed, computed
    raise TypeError(f"unknown param spec {type(spec).__name__}")  # pragma: no cover - the schema is closed


def _grid_index(low: float, high: float, step: float, x: float | None, rng: random.Random) -> int:
    """Index k of low + k · step: uniform over the grid, or the grid point nearest ``x`` (log draws)."""
    last = math.floor((high - low) / step + 1e-9)
    if x is None:
        return rng.randint(0, last)
    return min(last, max(0, round((x - low) / step)))


def _log_uniform(low: float, high: float, rng: random.Random) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def _draw_int(spec: IntRange, rng: random.Random) -> int:
    x = _log_uniform(spec.low, spec.high, rng) if spec.log else None
    return spec.low + _grid_index(spec.low, spec.high, spec.step, x, rng) * spec.step


def _draw_float(spec: FloatRange, rng: random.Random) -> float:
    x = _log_uniform(spec.low, spec.high, rng) if spec.log else None
    if spec.step is not None:
        value = spec.low + _grid_index(spec.low, spec.high, spec.step, x, rng) * spec.step
        return float(f"{value:.12g}")  # 0.3 + 3 · 0.05 is 0.45000000000000007 in binary
    if x is None:
        x = rng.uniform(spec.low, spec.high)
    # The prompt shows 4 significant figures, so the value computed with must be exactly that.
    return min(spec.high, max(spec.low, float(f"{x:.4g}")))


# --- bindings and calls --------------------------------------------------------------------


def _call(answer: Answer, values: Mapping[str, Any]) -> float:
    return float(FUNCTIONS[answer.call](**bind(answer.with_, values)))


def _slips(
    template: NumericTemplate,
    values: Mapping[str, Any],
    accepted: list[float],
    tolerance: Tolerance,
    more: list[SlipValue],
) -> tuple[SlipValue, ...]:
    """The template's slips for this draw, then ``more`` (worked out from the presets).

    ``accepted``: the answer first, then the other accepted values.
    """
    kept: list[SlipValue] = []
    base = template.answer
    candidates = [(s.name, s.diagnosis, rebound_value(s, base, values, accepted[0])) for s in template.slips]
    for name, diagnosis, value in [*candidates, *((s.name, s.diagnosis, s.value) for s in more)]:
        # Within an accepted value's band it would be graded correct; within an earlier slip's band the
        # two could not be told apart, and the earlier (the template lists the likelier first) wins.
        if not math.isfinite(value) or any(
            within(value, band(other, tolerance, base.unit))
            for other in (*accepted, *(k.value for k in kept))
        ):
            continue
        kept.append(SlipValue(name=name, value=value, diagnosis=diagnosis))
    return tuple(kept)


# --- choice ----------------------------------------------------------------------------------


def _choices(
    template: ChoiceTemplate, values: Mapping[str, Any], rng: random.Random
) -> tuple[tuple[Choice, ...], str, str]:
    """The shuffled options, the scenario text shown (or ""), and why its answer is right (or "")."""
    scenario_text = why = ""
    if template.decide is not None:
        below = resolve(template.decide.lhs, values) < resolve(template.decide.rhs, values)
        correct = template.decide.below if below else template.decide.otherwise
    else:
        scenarios = template.scenarios
        assert isinstance(scenarios, list)  # pool references are resolved at load
        scenario = rng.choice(scenarios)
        correct, scenario_text, why = scenario.answer, scenario.text.strip(), scenario.why
    options = list(template.options)
    rng.shuffle(options)
    choices = tuple(
        Choice(text=option.text, correct=option.id == correct, explanation=option.explanation)
        for option in options
    )
    return choices, scenario_text, why
