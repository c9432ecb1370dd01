"""Grading the steps of a scenario with follow-through: one early slip costs one step, not the chain.

A scenario step whose estimator call takes an earlier step's result carries that dependency in
its problem (:class:`StepProblem`): the function's name, every argument's exact value and which
argument each earlier step feeds. :func:`grade_step` grades the response through
:func:`grader.grade` against the exact answer and, when that fails and the user's own earlier
values differ from the exact ones, against the answer recomputed from those values. The grader
never imports the bank: everything it needs travels in the problem.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import Any

from grader.derivation_text import is_binary
from grader.estimator import FUNCTIONS
from grader.estimator.derivation import Step, num, recording
from grader.grading import grade
from grader.problem import Kind, Problem
from grader.units import base_units, format_quantity, readable, unit_symbol
from grader.verdict import Verdict, VerdictStatus


@dataclass(frozen=True)
class Carry:
    """An earlier step's answer that this step's answer is computed from.

    ``step`` is the earlier step's 1-based number and ``name`` its id (the name calls refer to it
    by); ``unit`` its display unit (for showing the carried value); ``exact`` its exact SI value.
    """

    step: int
    name: str
    unit: str
    exact: float


@dataclass(frozen=True)
class Call:
    """One estimator call of a recomputation: ``function`` on literal ``arguments`` plus ``references``.

    ``references`` maps a keyword to the name of a carried step or of an earlier call; ``name`` is
    what later calls refer to this one's result by (the last call is the answer).
    """

    name: str
    function: str
    arguments: Mapping[str, Any]
    references: Mapping[str, str]


@dataclass(frozen=True)
class Dependency:
    """How to recompute a step from earlier steps' values: ``calls`` in order, the last is the answer."""

    calls: tuple[Call, ...]
    carries: tuple[Carry, ...]

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The answer with each carried step's value taken from ``values`` (by step id), SI units."""
        names: dict[str, Any] = dict(values)
        result = math.nan
        for call in self.calls:
            arguments = {**call.arguments, **{k: names[ref] for k, ref in call.references.items()}}
            result = float(FUNCTIONS[call.function](**arguments))
            names[call.name] = result
        return result


@dataclass(frozen=True)
class Decision:
    """How a choice step decided by earlier results is decided: option ``below`` when lhs < rhs.

    ``lhs`` and ``rhs`` are the exact values; ``lhs_step`` / ``rhs_step`` name the earlier step that
    feeds each ("" when it is not one); ``below`` and ``otherwise`` are the options' texts.
    """

    lhs: float
    rhs: float
    below: str
    otherwise: str
    lhs_step: str = ""
    rhs_step: str = ""
    carries: tuple[Carry, ...] = ()


@dataclass(frozen=True)
class StepProblem(Problem):
    """One step of a scenario: a problem, its 1-based ``step`` number and what it depends on.

    ``template_id`` is the scenario's id (its card and history key); ``step_id`` names the step
    within it; ``setup`` is the scenario's shared setup text; ``n_steps`` how many steps it has;
    ``scenario_title`` the scenario's title.
    """

    step: int = 1
    scenario_title: str = ""
    step_id: str = ""
    n_steps: int = 1
    setup: str = ""
    dependency: Dependency | None = None
    decision: Decision | None = None
    carried_steps: tuple[int, ...] = field(default=())


@dataclass(frozen=True)
class CarriedVerdict(Verdict):
    """A step's verdict, right only on the user's own earlier values: ``carried_from`` names those steps."""

    carried_from: tuple[int, ...] = ()


@dataclass(frozen=True)
class StepVerdict:
    """A step's verdict and how it was reached.

    ``carried_from`` lists the earlier steps whose user values the step was graded on when it is
    right only on them (empty when it is right on the exact values, or wrong).
    """

    step: int
    verdict: Verdict
    carried_from: tuple[int, ...] = ()

    @property
    def correct(self) -> bool:
        return self.verdict.correct

    @property
    def carried_forward(self) -> bool:
        return bool(self.carried_from)


def _differs(*, carried: float, exact: float) -> bool:
    """Whether ``carried`` differs from ``exact`` by more than rounding (so grading on it can matter)."""
    return not math.isclose(carried, exact, rel_tol=1e-9, abs_tol=0.0)


def _used(carries: Sequence[Carry], earlier: Mapping[int, float]) -> tuple[Carry, ...]:
    """The carries whose user value is a finite number other than the exact one."""
    return tuple(
        carry
        for carry in carries
        if carry.step in earlier
        and math.isfinite(earlier[carry.step])
        and _differs(carried=earlier[carry.step], exact=carry.exact)
    )


def _entry_step(carry: Carry, value: float) -> Step:
    """The derivation line that says where a carried value entered: the user's figure and the exact
    one, in the earlier step's own unit family (the names calls use stay out of what is shown)."""
    binary = is_binary(carry.unit)
    unit = unit_symbol(base_units(carry.unit)) if carry.unit else ""
    yours, exact = (readable(v, unit, binary=binary) if unit else num(v) for v in (value, carry.exact))
    return Step(
        label=f"Carried from your step {carry.step}",
        formula=f"your answer to step {carry.step}",
        substituted="",
        value=value,
        unit=unit,
        shown=f"{yours} (exact: {exact})",
    )


def carried_problem(
    problem: StepProblem, earlier: Mapping[int, float]
) -> tuple[StepProblem, tuple[int, ...]]:
    """``problem`` recomputed from the user's earlier values, and the steps whose values entered.

    ``earlier`` maps an earlier step's number to the SI value the user gave for it. Steps the user
    got right (or did not answer with a number) keep their exact value. A numeric step gets a new
    answer; a choice step decided by earlier results (:class:`Decision`) gets its right option
    decided on the user's values. Returns ``problem`` unchanged and ``()`` when no carried value
    differs from the exact one (or, for a choice, when the decision does not change).
    """
    if problem.kind is Kind.CHOICE and problem.decision is not None:
        return _carried_choice(problem, problem.decision, earlier)
    dependency = problem.dependency
    if dependency is None or problem.kind is not Kind.NUMERIC:
        return problem, ()
    used = _used(dependency.carries, earlier)
    if not used:
        return problem, ()
    values = {carry.name: carry.exact for carry in dependency.carries}
    values.update({carry.name: earlier[carry.step] for carry in used})
    entry_steps = [_entry_step(carry, earlier[carry.step]) for carry in used]
    try:
        with recording() as steps:
            answer = dependency.evaluate(values)
    except (ArithmeticError, ValueError):
        return problem, ()  # a carried value the formula cannot take (zero, negative) earns no credit
    if not math.isfinite(answer):
        return problem, ()
    carried = replace(
        problem,
        answer=answer,
        slips=(),  # the slips were drawn for the exact values; on carried values they would mislead
        derivation=(*entry_steps, *steps),
        carried_steps=tuple(carry.step for carry in used),
    )
    return carried, carried.carried_steps


def _carried_choice(
    problem: StepProblem, decision: Decision, earlier: Mapping[int, float]
) -> tuple[StepProblem, tuple[int, ...]]:
    used = _used(decision.carries, earlier)
    values = {carry.name: earlier[carry.step] for carry in used}
    lhs = values.get(decision.lhs_step, decision.lhs)
    rhs = values.get(decision.rhs_step, decision.rhs)
    right = decision.below if lhs < rhs else decision.otherwise
    if not used or right == (decision.below if decision.lhs < decision.rhs else decision.otherwise):
        return problem, ()  # the user's values lead to the same option: nothing to carry
    comparison = _comparison_step(decision, lhs=lhs, rhs=rhs)
    carried = replace(
        problem,
        choices=tuple(replace(choice, correct=choice.text == right) for choice in problem.choices),
        derivation=(*(_entry_step(carry, earlier[carry.step]) for carry in used), comparison),
        carried_steps=tuple(carry.step for carry in used),
    )
    return carried, carried.carried_steps


def _comparison_step(decision: Decision, *, lhs: float, rhs: float) -> Step:
    """The line that decides a choice on the user's values: each side named by its step, in its unit."""
    numbers = {carry.name: carry.step for carry in decision.carries}
    units = {carry.name: carry.unit for carry in decision.carries}
    # A side that is no earlier step is a drawn figure in the other side's unit (both sides compare).
    unit = units.get(decision.lhs_step) or units.get(decision.rhs_step, "")

    def side(step_name: str, value: float) -> tuple[str, str]:
        shown = format_quantity(value, units.get(step_name) or unit) if unit else num(value)
        return (f"your step {numbers[step_name]}" if step_name in numbers else shown), shown

    (lhs_name, lhs_shown), (rhs_name, rhs_shown) = side(decision.lhs_step, lhs), side(decision.rhs_step, rhs)
    return Step(
        label="Decided on your values",
        formula=f"{lhs_name} < {rhs_name}",
        substituted=f"{lhs_shown} < {rhs_shown}",
        value=float(lhs < rhs),
        unit="",
        shown="yes" if lhs < rhs else "no",
    )


def _steps_words(steps: Sequence[int]) -> str:
    numbers = [str(s) for s in steps]
    joined = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return f"step{'s' * (len(numbers) > 1)} {joined}"


def grade_step(
    problem: StepProblem, response: str, *, earlier: Mapping[int, float] | None = None
) -> StepVerdict:
    """Grade ``response`` to a scenario step, with follow-through from ``earlier`` (step → SI value).

    Right on the exact values: the plain verdict. Wrong there but right on the answer recomputed
    from the user's own earlier values: correct, score 1, the message says which steps it was
    carried forward from and the derivation starts where the carried values entered. Never raises.
    """
    verdict = grade(problem, response)
    if verdict.status is not VerdictStatus.INCORRECT or not earlier:
        return StepVerdict(problem.step, verdict)
    carried, used = carried_problem(problem, earlier)
    if not used:
        return StepVerdict(problem.step, verdict)
    on_carried = grade(carried, response)
    if not on_carried.correct:
        return StepVerdict(problem.step, verdict)
    words = _steps_words(used)
    if problem.kind is Kind.CHOICE:
        message = (
            f"**Correct, carried forward from your {words}.** On the values you gave there, this is the "
            f"option that follows. {on_carried.message.removeprefix('**Correct:** ')}"
        )
    else:
        message = (
            f"**Correct, carried forward from your {words}.** Your answer follows from the value you gave "
            f"there. {verdict.message.removeprefix('**Not quite.** ')}"
        )
    fields = {f.name: getattr(on_carried, f.name) for f in dataclass_fields(Verdict)}
    fields["message"] = message
    return StepVerdict(problem.step, CarriedVerdict(**fields, carried_from=used), carried_from=used)


@dataclass(frozen=True)
class ChainReport:
    """A scenario's graded steps so far, and what they add up to."""

    verdicts: tuple[StepVerdict, ...]

    @property
    def first_wrong(self) -> int | None:
        """The first step graded wrong, even on the user's own earlier values (None when none was)."""
        return next((v.step for v in self.verdicts if not v.correct), None)

    @property
    def all_correct(self) -> bool:
        """Every step right, carried-forward ones included."""
        return all(v.correct for v in self.verdicts)

    def feedback(self) -> str:
        """One sentence naming the first step that went wrong (or saying none did)."""
        first = self.first_wrong
        carried = [v.step for v in self.verdicts if v.carried_forward]
        tail = f"{_steps_words(carried)} right on your own earlier values" if carried else ""
        if first is None:
            return f"Every step right, {tail}." if carried else "Every step right."
        return f"The chain first went wrong at step {first}" + (f"; {tail}." if carried else ".")


def earlier_value(problem: StepProblem, verdict: Verdict) -> float | None:
    """The SI value a later step may carry from this step's verdict: the user's number, if numeric."""
    if problem.kind is not Kind.NUMERIC or verdict.status is VerdictStatus.UNPARSABLE:
        return None
    return verdict.value


def grade_chain(problems: Sequence[StepProblem], responses: Mapping[int, str]) -> ChainReport:
    """Grade a scenario's answered steps in order (``responses`` by step number), with follow-through."""
    earlier: dict[int, float] = {}
    verdicts: list[StepVerdict] = []
    for problem in problems:
        if problem.step not in responses:
            continue
        result = grade_step(problem, responses[problem.step], earlier=earlier)
        verdicts.append(result)
        value = earlier_value(problem, result.verdict)
        if value is not None:
            earlier[problem.step] = value
    return ChainReport(tuple(verdicts))


@dataclass(frozen=True)
class ScenarioProblem:
    """One draw of a scenario: the setup everyone sees and its steps in order.

    ``template_id`` is the scenario's id (its card key); ``checklist_item`` the item the scenario
    serves best (each step names its own); ``params`` the drawn values (JSON form).
    """

    template_id: str
    checklist_item: str
    title: str
    setup: str
    seed: int
    params: dict[str, Any]
    steps: tuple[StepProblem, ...]
    difficulty: int = 1
    explanation: str = ""
    references: tuple[str, ...] = ()

    def step(self, number: int) -> StepProblem:
        """Step ``number`` (1-based)."""
        return self.steps[number - 1]


def chain_grader(
    problems: Sequence[Problem], responses: Mapping[int, str]
) -> Callable[[Problem, str], Verdict]:
    """A ``grade(problem, response)`` for a list of problems answered together (a mock interview).

    ``responses`` holds the numeric answers by position. A scenario step is graded with follow-through
    from the answers to the earlier steps of the same draw (same scenario and seed) in the list; any
    other problem as :func:`grader.grade` does.
    """
    positions = {id(problem): index for index, problem in enumerate(problems)}

    def earlier_of(problem: StepProblem) -> dict[int, float]:
        chain = [
            (index, other)
            for index, other in enumerate(problems)
            if isinstance(other, StepProblem)
            and (other.template_id, other.seed) == (problem.template_id, problem.seed)
            and other.step < problem.step
        ]
        earlier: dict[int, float] = {}
        for index, step in sorted(chain, key=lambda pair: pair[1].step):
            response = responses.get(index, "")
            if not response.strip():
                continue
            value = earlier_value(step, grade_step(step, response, earlier=earlier).verdict)
            if value is not None:
                earlier[step.step] = value
        return earlier

    def grade_one(problem: Problem, response: str) -> Verdict:
        if not isinstance(problem, StepProblem) or id(problem) not in positions:
            return grade(problem, response)
        return grade_step(problem, response, earlier=earlier_of(problem)).verdict

    return grade_one
