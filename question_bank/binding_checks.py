"""A scenario step that works out again what an earlier step asked for must build on that answer.

A later step that recomputes an earlier step's quantity from the setup, instead of binding the earlier
step's id, grades a user who slipped there twice: the slip is not carried forward. In the exact draw
such a step shows it: its derivation holds the earlier step's whole working (folded into a "Step K"
line), or a line whose value equals the earlier answer, or a decided choice compares that value, and
the step carries nothing from step K. A coincidence (two quantities equal for one model) holds in some
draws only, so a step is refused only when it recomputes the same earlier step in every draw checked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from grader.follow_through import StepProblem
from grader.problem import Kind
from question_bank.generation import resolve
from question_bank.templates import ChoiceStep, ScenarioTemplate

#: How close two values must be to count as the same quantity (float noise is far below it).
_SAME = 1e-9
_FOLDED = "found in step "


def _carried(step: StepProblem) -> set[int]:
    numbers = {carry.step for carry in step.dependency.carries} if step.dependency else set()
    if step.decision is not None:
        numbers |= {carry.step for carry in step.decision.carries}
    return numbers


def unbound_recomputations(
    scenario: ScenarioTemplate, steps: Sequence[StepProblem], values: Mapping[str, Any]
) -> set[tuple[int, int]]:
    """(index of a step, number of an earlier step) for each earlier answer a step works out again unbound."""
    found: set[tuple[int, int]] = set()
    for index, (step, spec) in enumerate(zip(steps, scenario.steps, strict=True)):
        carried = _carried(step)
        figures: list[float] = []
        for line in step.derivation:
            if line.formula.startswith(_FOLDED):
                number = int(line.label.split()[1].rstrip(":"))
                if number not in carried:
                    found.add((index, number))
            else:
                figures.append(line.value)
        if isinstance(spec, ChoiceStep) and spec.decide is not None:
            figures += [float(resolve(side, values)) for side in (spec.decide.lhs, spec.decide.rhs)]
        for earlier in steps[:index]:
            if earlier.kind is not Kind.NUMERIC or earlier.answer is None or earlier.step in carried:
                continue
            answer = earlier.answer
            if any(
                figure and math.isfinite(figure) and abs(figure - answer) <= _SAME * abs(answer)
                for figure in figures
            ):
                found.add((index, earlier.step))
    return found


def recomputation_issue(
    scenario: ScenarioTemplate, steps: Sequence[StepProblem], every_draw: set[tuple[int, int]]
) -> tuple[str, str, str] | None:
    """The first step that recomputes an earlier answer in every draw, as (field, message, fix)."""
    if not every_draw:
        return None
    index, number = min(every_draw)
    spec, earlier = scenario.steps[index], steps[number - 1]
    field = f"steps.{index}." + ("decide" if isinstance(spec, ChoiceStep) else "answer")
    return (
        field,
        f"step {index + 1} works out step {number}'s answer ({earlier.title}) again from the setup in every "
        f"draw instead of building on it, so a slip at step {number} is charged twice",
        f"bind the step id {earlier.step_id!r} in the answer's `with` (an estimator form that takes the "
        "earlier result), as follow-through needs",
    )
