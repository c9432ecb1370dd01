"""Checks that a scenario's names refer to real things: its setup, then each step in order.

The setup (checklist, params, require, prompt) is checked like any template. Each step is then
checked like a template of its kind whose scope is the scenario's params plus the ids of the
earlier numeric steps; its issues point into ``steps.N`` of the scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from question_bank.margins import decide_margin, step_bands
from question_bank.names import Context, ParamInfo
from question_bank.reporter import Reporter
from question_bank.scenarios import STEP_PARAM, step_view
from question_bank.template_checker import TemplateChecker
from question_bank.templates import ChoiceStep, NumericStep, ScenarioTemplate
from question_bank.yaml_source import PathPart

#: Names a step id may not take: the step number's key in params and the drawn choice scenario.
RESERVED = frozenset({STEP_PARAM, "scenario"})


@dataclass
class _StepReporter(Reporter):
    """A reporter whose paths are inside ``steps.<index>`` of the scenario."""

    index: int = 0

    def __call__(self, path: tuple[PathPart, ...], message: str, hint: str, *, line: int = 0) -> None:
        super().__call__(("steps", self.index, *path), message, hint, line=line)

    def text_line(self, path: tuple[PathPart, ...], text: str, offset: int) -> int:
        return super().text_line(("steps", self.index, *path), text, offset)


class _StepChecker(TemplateChecker):
    """A template check of a step's own params only (the scenario's were checked once already)."""

    def __init__(self, view: Any, own_params: Mapping[str, Any], context: Context, report: Reporter) -> None:
        super().__init__(view.model_copy(update={"params": dict(own_params), "require": []}), context, report)


def check_scenario(template: ScenarioTemplate, context: Context, report: Reporter) -> None:
    """Report every broken reference in ``template``: setup, step ids, then each step."""
    setup = TemplateChecker(template, context, report)  # type: ignore[arg-type]  # same fields as a template
    setup.run()
    seen: set[str] = set()
    scope = dict(setup.scope)
    for index, step in enumerate(template.steps):
        if step.id in template.params or step.id in seen or step.id in RESERVED:
            report(
                ("steps", index, "id"),
                f"the step id {step.id!r} is already a param, a step or a reserved name",
                "a distinct snake_case id such as kv_per_token",
            )
        seen.add(step.id)
        if "{" in step.title:
            report(
                ("steps", index, "title"),
                "a step title is shown as written",
                "a title without {placeholders}",
            )
        step_report = _StepReporter(report.file, report.template_id, report.node, report.issues, index)
        checker = _StepChecker(step_view(template, index), step.params, context, step_report)
        checker.scope = dict(scope)
        checker.run()
        for name in step.params:
            if name in template.params or name in seen or name in RESERVED:
                report(
                    ("steps", index, "params", name),
                    f"the name {name!r} is already a param, a step or a reserved name",
                    "a name used nowhere else in the scenario",
                )
            seen.add(name)
            scope[name] = ParamInfo("value")
        if isinstance(step, NumericStep):
            scope[step.id] = ParamInfo("value")
        if isinstance(step, ChoiceStep) and step.decide is not None and step.decide.margin is not None:
            least = decide_margin(step.decide.model_copy(update={"margin": None}), step_bands(template))
            if step.decide.margin < least:
                report(
                    ("steps", index, "decide", "margin"),
                    f"a margin of {step.decide.margin:g} is inside the band of the steps the choice rests on",
                    f"margin: {least:g} or more, or leave it out (the bank then uses {least:g})",
                )
