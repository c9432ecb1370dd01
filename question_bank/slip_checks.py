"""The share of a scenario's draws in which each step's declared slips fall outside the step's band.

A single template never draws a slip inside its band (:mod:`question_bank.slip_rule`). A scenario's
steps share one draw, so its slips are counted instead: each must fall outside the band in at least
95 % of the draws, which the scenario meets with ``require`` or better parameter ranges.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from grader.problem import Problem
from question_bank.answer_extras import rebound_value
from question_bank.scenarios import step_view
from question_bank.templates import NumericStep, NumericTemplate, ScenarioTemplate

#: The largest share of draws in which a declared slip may land inside the band (graded right).
INSIDE_SHARE = 0.05


class SlipShares:
    """Counts, over a scenario's draws, how often each step's slip lies inside the step's band."""

    def __init__(self, scenario: ScenarioTemplate) -> None:
        self.scenario = scenario
        self.inside: Counter[tuple[int, int]] = Counter()

    def count(self, index: int, values: Mapping[str, Any], problem: Problem) -> None:
        """Count the slips of step ``index`` that lie inside its band in this draw."""
        step = self.scenario.steps[index]
        if not isinstance(step, NumericStep) or not step.slips or problem.answer is None:
            return
        from grader.diagnosis import band, within

        view = step_view(self.scenario, index)
        assert isinstance(view, NumericTemplate)
        exact = band(problem.answer, problem.tolerance, problem.unit)
        for number, slip in enumerate(step.slips):
            value = rebound_value(slip, view.answer, values, problem.answer)
            if math.isfinite(value) and within(value, exact):
                self.inside[(index, number)] += 1

    def issue(self, draws: int) -> tuple[str, str, str] | None:
        """The first slip inside the band too often, as (field, message, fix), or None."""
        for (index, number), inside in sorted(self.inside.items()):
            if inside > INSIDE_SHARE * draws:
                slip = self.scenario.steps[index].slips[number]  # type: ignore[union-attr]
                return (
                    f"steps.{index}.slips.{number}",
                    f"the slip {slip.name!r} lies inside the step's band in {inside} of {draws} draws, so a "
                    "candidate who makes it is graded right",
                    "a require entry or parameter ranges keeping the slip outside the band in 95 % of draws",
                )
        return None
