"""Scenarios: one draw of a setup, then its steps as problems that may build on each other.

Each step is generated as an ordinary template (its *view*): the scenario's params, then one
derived param per earlier numeric step (that step's answer call, named by the step's id), so a
step's answer can bind ``weights_per_chip`` like any param. Every view has the scenario's id and
draws in the same order from the same seed, and derived params draw nothing, so all the steps of
one (scenario, seed) share one draw. The dependency on earlier steps travels in each
:class:`grader.follow_through.StepProblem`, so grading can follow through without the bank.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from grader.derivation_text import is_binary
from grader.estimator.derivation import Step
from grader.follow_through import Call, Carry, Decision, Dependency, ScenarioProblem, StepProblem
from grader.problem import Kind, Problem
from grader.units import base_units, format_quantity, unit_symbol
from question_bank.bindings import resolve
from question_bank.catalog import PresetCatalog
from question_bank.generation import draw_values, generate
from question_bank.margins import scenario_margin_requirements
from question_bank.params import CallParam
from question_bank.pins import Pins
from question_bank.rendering import Placeholder, format_value, render
from question_bank.templates import (
    ChoiceStep,
    ChoiceTemplate,
    NumericStep,
    NumericTemplate,
    RecallStep,
    RecallTemplate,
    ScenarioTemplate,
    Template,
)

#: The key a step's number is stored under in its params (so an attempt says which step it was).
STEP_PARAM = "step"


def step_results(scenario: ScenarioTemplate, index: int) -> dict[str, CallParam]:
    """What step ``index`` may bind beyond the scenario's params, as derived params in order.

    Each earlier step's own params, then (numeric steps) its result under the step's id.
    """
    results: dict[str, CallParam] = {}
    for step in scenario.steps[:index]:
        results.update(step.params)
        if isinstance(step, NumericStep):
            results[step.id] = CallParam.model_validate(
                {"call": step.answer.call, "with": dict(step.answer.with_)}
            )
    return results


#: Step views by the scenario object they were built from (kept, so its id is not reused): generation
#: builds every view of a scenario for every seed, and the views never change.
_VIEWS: dict[int, tuple[ScenarioTemplate, dict[int, Template]]] = {}
_VIEWS_LIMIT = 512


def step_view(scenario: ScenarioTemplate, index: int) -> Template:
    """Step ``index`` (0-based) as an ordinary template on the scenario's params and earlier results."""
    held = _VIEWS.get(id(scenario))
    if held is None or held[0] is not scenario:
        if len(_VIEWS) >= _VIEWS_LIMIT:
            _VIEWS.clear()
        held = _VIEWS[id(scenario)] = (scenario, {})
    if index not in held[1]:
        held[1][index] = _build_view(scenario, index)
    return held[1][index]


def _build_view(scenario: ScenarioTemplate, index: int) -> Template:
    step = scenario.steps[index]
    # The scenario's one draw meets every computed choice's margin and every draw rule, so every view
    # checks them all: it works out the later steps' results too (derived params draw nothing).
    margins = scenario_margin_requirements(scenario)
    results = step_results(scenario, len(scenario.steps))
    common: dict[str, Any] = {
        "id": scenario.id,
        "checklist": step.checklist,
        "difficulty": scenario.difficulty,
        "title": step.title,
        "prompt": step.prompt,
        "params": {**scenario.params, **results, **step.params},
        "require": [*scenario.require, *margins],
        "references": list(step.references),
    }
    if isinstance(step, NumericStep):
        return NumericTemplate(
            kind="numeric", explanation=step.explanation, answer=step.answer, slips=step.slips, **common
        )
    if isinstance(step, ChoiceStep):
        return ChoiceTemplate(
            kind="choice",
            explanation=step.explanation,
            options=step.options,
            scenarios=step.scenarios,
            decide=step.decide,
            **common,
        )
    assert isinstance(step, RecallStep)
    return RecallTemplate(
        kind="recall",
        explanation=step.explanation,
        key_points=step.key_points,
        misconceptions=step.misconceptions,
        model_answer=step.model_answer,
        **common,
    )


def _dependency(
    scenario: ScenarioTemplate, index: int, values: dict[str, Any], numbers: dict[str, int]
) -> Dependency | None:
    """The calls that turn earlier steps' results into this step's answer (None when none do)."""
    step = scenario.steps[index]
    if not isinstance(step, NumericStep):
        return None
    carried = {name for name in numbers if numbers[name] <= index and name in values}  # earlier numeric steps
    depends = set(carried)
    calls: list[Call] = []
    chain = [
        *step.params.items(),
        ("", CallParam.model_validate({"call": step.answer.call, "with": dict(step.answer.with_)})),
    ]
    for name, spec in chain:
        references = {
            keyword: binding
            for keyword, binding in spec.with_.items()
            if isinstance(binding, str) and binding in depends
        }
        if not references:
            continue
        arguments = {k: resolve(b, values) for k, b in spec.with_.items() if k not in references}
        calls.append(Call(name=name, function=spec.call, arguments=arguments, references=references))
        depends.add(name)
    if not calls or calls[-1].name != "":
        return None
    used = {ref for call in calls for ref in call.references.values()} & carried
    carries = tuple(
        Carry(step=numbers[name], name=name, unit=_unit_of(scenario, name), exact=float(values[name]))
        for name in sorted(used, key=numbers.__getitem__)
    )
    return Dependency(calls=tuple(calls), carries=carries)


def _decision(
    scenario: ScenarioTemplate, index: int, values: dict[str, Any], numbers: dict[str, int]
) -> Decision | None:
    """How a choice step decided by earlier steps' results is decided (None for any other step)."""
    step = scenario.steps[index]
    if not isinstance(step, ChoiceStep) or step.decide is None:
        return None
    decide = step.decide

    def earlier_step(binding: Any) -> str:
        name = binding if isinstance(binding, str) else ""
        return name if name in numbers and numbers[name] <= index and name in values else ""

    lhs_step, rhs_step = earlier_step(decide.lhs), earlier_step(decide.rhs)
    if not (lhs_step or rhs_step):
        return None
    text = {option.id: option.text for option in step.options}
    carries = tuple(
        Carry(step=numbers[name], name=name, unit=_unit_of(scenario, name), exact=float(values[name]))
        for name in dict.fromkeys(n for n in (lhs_step, rhs_step) if n)
    )
    return Decision(
        lhs=float(resolve(decide.lhs, values)),
        rhs=float(resolve(decide.rhs, values)),
        below=text[decide.below],
        otherwise=text[decide.otherwise],
        lhs_step=lhs_step,
        rhs_step=rhs_step,
        carries=carries,
    )


def _shortened(
    derivation: tuple[Step, ...], earlier: list[tuple[StepProblem, tuple[Step, ...]]]
) -> tuple[Step, ...]:
    """``derivation`` with each earlier step's own derivation folded into one line naming that step.

    ``earlier`` pairs each earlier step with its full derivation. A later step recomputes what
    earlier steps found: the same lines (equal values), in the same order though not always side by
    side. Shown once, as "Step 4: Largest batch", the derivation reads as the chain an interviewer
    follows. The latest steps are folded first, since their lines include the earlier ones'.
    """
    lines = list(derivation)
    for step, block in reversed(earlier):
        if step.kind is not Kind.NUMERIC or not block or step.answer is None:
            continue
        found: list[int] = []
        for line in block:
            start = found[-1] + 1 if found else 0
            at = next((i for i in range(start, len(lines)) if lines[i] == line), None)
            if at is None:
                break
            found.append(at)
        if len(found) != len(block):
            continue
        # A percentage keeps its sign; other units go to the SI unit the later lines use.
        unit = "%" if step.unit == "%" else unit_symbol(base_units(step.unit)) if step.unit else ""
        # The later lines use decimal sizes; a step asked in binary units is named with its answer as
        # asked (512 KiB), so the reader can match it with what that step showed.
        asked = f" ({format_quantity(step.answer, step.unit)})" if is_binary(step.unit) else ""
        summary = Step(
            f"Step {step.step}: {step.title}", f"found in step {step.step}{asked}", "", step.answer, unit
        )
        for index in reversed(found[:-1]):
            del lines[index]
        lines[found[-1] - len(found) + 1] = summary
    return tuple(lines)


def _unit_of(scenario: ScenarioTemplate, step_id: str) -> str:
    step = next(s for s in scenario.steps if s.id == step_id)
    return step.answer.unit if isinstance(step, NumericStep) else ""


def _setup_text(scenario: ScenarioTemplate, values: dict[str, Any]) -> str:
    def value_of(placeholder: Placeholder) -> str:
        value = values[placeholder.name]
        if placeholder.field is not None:
            value = getattr(value, placeholder.field)
        return format_value(value, placeholder.unit)

    return render(scenario.prompt, value_of)


def scenario_values(
    scenario: ScenarioTemplate, seed: int, *, catalog: PresetCatalog | None = None, pins: Pins | None = None
) -> dict[str, Any]:
    """The values every step of (scenario, seed) draws: its params and every step's results, by name;
    ``pins`` as :func:`generate_scenario` takes them."""
    # Every view draws the same values; the scenario's params with every step's results hold them all.
    everything = step_view(scenario, 0).model_copy(
        update={"params": {**scenario.params, **step_results(scenario, len(scenario.steps))}}
    )
    return draw_values(everything, seed, catalog=catalog, slips_apart=False, pins=pins)


def generate_scenario(
    scenario: ScenarioTemplate, seed: int, *, catalog: PresetCatalog | None = None, pins: Pins | None = None
) -> ScenarioProblem:
    """The scenario ``scenario`` makes for ``seed``: the setup and every step, each a StepProblem.

    ``pins`` set some of the scenario's params (see :mod:`question_bank.pins`); every step then draws
    with them, and the params not pinned keep the seed's draws.
    """
    numbers = {step.id: number for number, step in enumerate(scenario.steps, start=1)}
    shown: dict[str, Any] = {}
    steps: list[StepProblem] = []
    full: list[tuple[Step, ...]] = []  # each step's derivation before earlier steps are folded in
    values = scenario_values(scenario, seed, catalog=catalog, pins=pins)
    setup = _setup_text(scenario, values)
    for index in range(len(scenario.steps)):
        problem: Problem = generate(
            step_view(scenario, index), seed, catalog=catalog, slips_apart=False, pins=pins
        )
        if not shown:
            shown = {name: problem.params[name] for name in scenario.params}
        fields = {f.name: getattr(problem, f.name) for f in dataclass_fields(problem)}
        fields["params"] = {**shown, STEP_PARAM: index + 1}
        fields["derivation"] = _shortened(problem.derivation, list(zip(steps, full, strict=True)))
        full.append(problem.derivation)
        steps.append(
            StepProblem(
                **fields,
                step=index + 1,
                scenario_title=scenario.title,
                step_id=scenario.steps[index].id,
                n_steps=len(scenario.steps),
                setup=setup,
                dependency=_dependency(scenario, index, values, numbers),
                decision=_decision(scenario, index, values, numbers),
            )
        )
    return ScenarioProblem(
        template_id=scenario.id,
        checklist_item=scenario.checklist,
        title=scenario.title,
        setup=setup,
        seed=seed,
        params=shown,
        steps=tuple(steps),
        difficulty=scenario.difficulty,
        explanation=scenario.explanation,
        references=tuple(scenario.references),
    )
