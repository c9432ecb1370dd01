"""Checks that a template's draws make usable problems: one set, run by ``validate`` and by the app.

Usable means: it generates, a numeric answer is a finite positive number in its unit's dimension, a
recall problem's rubrics find its own model answer and nothing in off-topic prose, and no text as
drawn holds a Markdown image or raw HTML (:mod:`question_bank.text_safety`).

A template can pass the schema and still fail for some seeds: a draw that divides by zero, an answer
that overflows to infinity, a ``require`` list no draw meets. :func:`sweep_issues` generates each
template for many seeds and reports the first failure; :func:`usable_bank` loads a bank the way the
app does, refusing (by name) every template ``validate`` would refuse and keeping the rest; and
:func:`generate_checked` is what the pages call, so a failure that slipped through every sweep is
a :class:`GenerationError` the page skips with a note, never a traceback.

Seeds: a user template is generated for :data:`SWEEP_SEEDS` (700 seeds, so a template failing on
0.7 % of its draws is caught with 99 % certainty: 0.993^700 < 0.01), by ``validate`` and by the app
alike. A shipped template is checked by the test suite with every check on 200 seeds, so ``validate``
gives it :data:`SMOKE_SEEDS` and the app, which pays for it at every start, :data:`START_SEEDS`.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from grader.follow_through import StepProblem
from grader.problem import Kind, Problem
from grader.units import dimension_name, dimensionality
from question_bank import sweep_cache
from question_bank.bank import Bank, load_bank
from question_bank.binding_checks import recomputation_issue, unbound_recomputations
from question_bank.convention_checks import reading_issue
from question_bank.errors import BankError, BankIssue, GenerationError
from question_bank.generation import generate, generate_drawn
from question_bank.issue_lines import field_line
from question_bank.pins import Pins
from question_bank.rubric_check import explanation_issue
from question_bank.scenarios import ScenarioProblem, generate_scenario, scenario_values, step_view
from question_bank.slip_checks import SlipShares
from question_bank.templates import ScenarioTemplate, Template
from question_bank.text_safety import drawn_text_flaw

_T = TypeVar("_T")

#: Seeds every shipped template is generated with, at load and by ``validate``.
SMOKE_SEEDS = range(20)
#: Seeds every user template is generated with: enough to catch a 0.7 % failure rate (see above).
SWEEP_SEEDS = range(700)
#: The seed whose problem has its rubrics checked. A recall's key points, misconceptions and model
#: answer do not change with the draw, and matching them is the costliest check by far (about 9 ms a
#: problem, 5 s for the shipped bank over 20 seeds), so one draw checks them at start-up.
RUBRIC_SEED = 0
#: Seeds every shipped template is generated with when the app starts (see above).
START_SEEDS = range(1)


def problem_issue(problem: Problem) -> tuple[str, str] | None:
    """What makes a generated problem unusable (message, hint), or None."""
    if problem.kind is not Kind.NUMERIC:
        return None
    answer = problem.answer
    if answer is None or not math.isfinite(answer):
        return f"the answer is {answer}, not a finite number", "keep the params in a range the call can take"
    if not answer > 0:
        hint = "filter the presets or add a require entry so every draw makes sense"
        return f"the answer is {answer}, not a positive number", hint
    si_unit = problem.derivation[-1].unit if problem.derivation else None
    if si_unit is not None and dimensionality(si_unit) != dimensionality(problem.unit):
        shown = dimension_name(problem.unit)
        message = f"the answer is {dimension_name(si_unit)} ({si_unit}) but unit {problem.unit!r} is {shown}"
        return message, f"a unit of the same kind as {si_unit}"
    return None


def generate_checked(template: Template, seed: int, *, pins: Pins | None = None) -> Problem:
    """The problem ``template`` makes for ``seed`` (with ``pins``, see :mod:`question_bank.pins`);
    :class:`GenerationError` when it fails or is unusable."""
    label = f"template {template.id!r}, seed {seed}"
    problem = _guarded(label, lambda: generate(template, seed, pins=pins))
    _refuse_unusable(label, problem)
    return problem


def generate_scenario_checked(
    scenario: ScenarioTemplate, seed: int, *, pins: Pins | None = None
) -> ScenarioProblem:
    """:func:`generate_checked` for a scenario: every step generated and usable, or ``GenerationError``."""
    label = f"scenario {scenario.id!r}, seed {seed}"
    problem = _guarded(label, lambda: generate_scenario(scenario, seed, pins=pins))
    for step in problem.steps:
        _refuse_unusable(f"{label}, step {step.step}", step)
    return problem


def _guarded(label: str, produce: Callable[[], _T]) -> _T:
    try:
        return produce()
    except GenerationError:
        raise
    except Exception as exc:  # a user's template can reach any error in an estimator call
        raise GenerationError(f"{label}: {type(exc).__name__}: {exc}") from exc


def _refuse_unusable(label: str, problem: Problem) -> None:
    issue = problem_issue(problem)
    if issue is not None:
        raise GenerationError(f"{label}: {issue[0]}")


def seeds_for(bank: Bank, template_id: str, *, shipped: Sequence[int] = SMOKE_SEEDS) -> Sequence[int]:
    """The seeds a template is checked with: ``shipped`` for a shipped one, the full sweep for a user's."""
    return shipped if template_id in bank.shipped else SWEEP_SEEDS


#: What a sweep found, by the template's or scenario's whole definition and the seeds it ran: None,
#: or the issue's (field, message, fix). A bank loaded again in one process (each ``validate``, each
#: app session that loads it) does not generate an unchanged template again; presets come from the
#: app's own files, so the definition and the seeds decide the outcome. Bounded, since an author may
#: edit a template many times in one long-running process.
_Found = tuple[str, str, str] | None
_SWEPT: dict[tuple[str, tuple[int, ...]], _Found] = {}
_SWEPT_LIMIT = 4096


def _memoized(
    definition: Template | ScenarioTemplate, seeds: Sequence[int], sweep: Callable[[], _Found]
) -> _Found:
    key = (f"{type(definition).__name__}:{definition.model_dump_json(warnings=False)}", tuple(seeds))
    if key not in _SWEPT:
        if len(_SWEPT) >= _SWEPT_LIMIT:
            _SWEPT.clear()
        _SWEPT[key] = sweep_cache.cached(repr(key), sweep, encode=_list_or_none, decode=_found)
    return _SWEPT[key]


def _list_or_none(found: _Found) -> list[str] | None:
    return None if found is None else list(found)


def _found(stored: object) -> _Found:
    """A stored outcome read back; ValueError when it is not one."""
    if stored is None:
        return None
    if isinstance(stored, list) and len(stored) == 3 and all(isinstance(part, str) for part in stored):
        return stored[0], stored[1], stored[2]
    raise ValueError(f"not a sweep outcome: {stored!r}")


def _template_failure(template: Template, seeds: Sequence[int]) -> _Found:
    """The first seed for which ``template`` fails, as (field, message, fix), or None."""
    for seed in seeds:
        found: tuple[str, str] | None
        try:
            problem, values = generate_drawn(template, seed)
        except Exception as exc:  # reported as the template's issue, whatever the call raised
            found = f"generation failed: {type(exc).__name__}: {exc}", "check the params and bindings"
        else:
            # A text that would fetch or run something is refused before anything else is judged.
            text = drawn_text_flaw(problem)
            if text is not None:
                return text.field, f"seed {seed}: {text.message}", text.hint
            rubric = explanation_issue(problem) if seed == RUBRIC_SEED else None
            found = problem_issue(problem) or rubric or reading_issue(template, values, problem)
        if found is not None:
            field = "key_points" if template.kind == "recall" else "answer"
            return field, f"seed {seed}: {found[0]}", found[1]
    return None


def _scenario_failure(scenario: ScenarioTemplate, seeds: Sequence[int]) -> _Found:
    """The first failing step of the first failing seed of ``scenario``, as (field, message, fix).

    Then the first declared slip of a step that lies inside the step's band in more than
    :data:`question_bank.slip_checks.INSIDE_SHARE` of the draws.
    """
    inside = SlipShares(scenario)
    every_draw: set[tuple[int, int]] | None = None  # unbound recomputations found in every draw so far
    steps: tuple[StepProblem, ...] = ()
    for seed in seeds:
        try:
            steps = generate_scenario(scenario, seed).steps
            values = scenario_values(scenario, seed)
        except Exception as exc:  # reported as the scenario's issue, whatever the call raised
            message = f"seed {seed}: generation failed: {type(exc).__name__}: {exc}"
            return "steps", message, "check the params and bindings"
        unbound = unbound_recomputations(scenario, steps, values)
        every_draw = unbound if every_draw is None else every_draw & unbound
        for index, step in enumerate(steps):
            text = drawn_text_flaw(step)
            if text is not None:
                return text.field, f"seed {seed}: step {step.step}: {text.message}", text.hint
            found = (
                problem_issue(step)
                or (explanation_issue(step) if seed == RUBRIC_SEED else None)
                or reading_issue(step_view(scenario, index), values, step)
            )
            inside.count(index, values, step)
            if found is not None:
                field = f"steps.{index}." + ("key_points" if step.kind is Kind.RECALL else "answer")
                return field, f"seed {seed}: step {step.step}: {found[0]}", found[1]
    return recomputation_issue(scenario, steps, every_draw or set()) or inside.issue(len(seeds))


def sweep_issues(bank: Bank, *, shipped_seeds: Sequence[int] = SMOKE_SEEDS) -> list[BankIssue]:
    """One issue per template or scenario of ``bank`` that fails for any of its seeds."""
    issues: list[BankIssue] = []
    for template in bank.templates:
        seeds = seeds_for(bank, template.id, shipped=shipped_seeds)
        found = _memoized(template, seeds, functools.partial(_template_failure, template, seeds))
        if found is not None:
            issues.append(_at_field(bank, template.id, *found))
    for scenario in bank.scenarios:
        issue = scenario_issue(bank, scenario, shipped_seeds=shipped_seeds)
        if issue is not None:
            issues.append(issue)
    return issues


def scenario_issue(
    bank: Bank, scenario: ScenarioTemplate, *, shipped_seeds: Sequence[int] = SMOKE_SEEDS
) -> BankIssue | None:
    """The first failing step of the first failing seed of ``scenario``, as an issue, or None."""
    seeds = seeds_for(bank, scenario.id, shipped=shipped_seeds)
    found = _memoized(scenario, seeds, lambda: _scenario_failure(scenario, seeds))
    return None if found is None else _at_field(bank, scenario.id, *found)


def _at_field(bank: Bank, template_id: str, field: str, message: str, hint: str) -> BankIssue:
    """An issue of ``template_id`` at the line of ``field`` (``steps.3.answer``) inside it."""
    file, line = bank.sources[template_id]
    parts = tuple(int(part) if part.isdigit() else part for part in field.split("."))
    return BankIssue(file, field_line(file, line, parts), template_id, field, message, hint)


def usable_bank(extra_dirs: Iterable[str | os.PathLike[str]] = ()) -> Bank:
    """The bank as the app uses it: what ``validate`` refuses is left out and listed in ``refused``.

    A broken file or template costs only itself: the rest of the bank stays usable.
    """
    try:
        bank = load_bank(extra_dirs)
    except BankError as exc:
        if exc.partial is None:
            raise
        bank, refused = exc.partial, list(exc.issues)
    else:
        refused = []
    failing = sweep_issues(bank, shipped_seeds=START_SEEDS)
    if not failing and not refused:
        return bank
    dropped = {issue.template_id for issue in failing}
    kept = [template for template in bank.templates if template.id not in dropped]
    scenarios = [scenario for scenario in bank.scenarios if scenario.id not in dropped]
    sources = {tid: where for tid, where in bank.sources.items() if tid not in dropped}
    return replace(bank, templates=kept, scenarios=scenarios, sources=sources, refused=(*refused, *failing))
