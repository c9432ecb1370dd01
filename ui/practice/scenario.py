"""A scenario in practice: one step at a time, graded with follow-through, one card. No Streamlit here.

Every answered step is stored as an attempt under the scenario's id and the step's own checklist
item (its params say which step), so steps count toward their items in readiness. The scenario's
one FSRS card is reviewed when its last step is answered: Good when every step was right
(carried-forward steps included), else Again. Time always comes in as an argument.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fsrs import Rating

from grader import ExplanationRecord, VerdictStatus
from grader.follow_through import (
    ChainReport,
    ScenarioProblem,
    StepProblem,
    StepVerdict,
    earlier_value,
    grade_step,
)
from progress import Store
from progress.mock.debrief import Outcome
from progress.scheduling import review
from question_bank import Bank
from question_bank.generation_checks import generate_scenario_checked
from question_bank.pins import PinValue
from question_bank.schema import ScenarioTemplate
from ui.practice.loop import in_rotation, practice_attempt

#: The practice filter's value for "scenarios only" (beside None and the checklist ids).
SCENARIOS = "scenarios"
#: A draw's pinned params as (name, value) pairs: hashable, so a cache key.
Pinned = tuple[tuple[str, PinValue], ...]


@dataclass
class ScenarioRun:
    """How far the user is through the scenario on screen: the responses and verdicts of its steps.

    ``step_started_at`` is when the step now on screen appeared (for the time spent on it).
    """

    template_id: str
    seed: int
    step_started_at: datetime
    responses: dict[int, str] = field(default_factory=dict)
    verdicts: dict[int, StepVerdict] = field(default_factory=dict)
    #: How many answered steps the user has moved on from (their feedback read).
    moved_on: int = 0
    #: Recall steps whose model answer is shown.
    revealed: set[int] = field(default_factory=set)

    @property
    def showing_feedback(self) -> bool:
        """Whether the last answered step's feedback is on screen (the next step not opened yet)."""
        return self.answered > self.moved_on

    @property
    def answered(self) -> int:
        return len(self.verdicts)

    def current_step(self, scenario: ScenarioProblem) -> int | None:
        """The 1-based number of the first unanswered step, or None once all are answered."""
        return next((s.step for s in scenario.steps if s.step not in self.verdicts), None)

    def earlier_values(self, scenario: ScenarioProblem) -> dict[int, float]:
        """The SI values the user gave to the numeric steps answered so far, by step number."""
        values = {}
        for number, result in self.verdicts.items():
            value = earlier_value(scenario.step(number), result.verdict)
            if value is not None:
                values[number] = value
        return values

    def report(self) -> ChainReport:
        return ChainReport(tuple(self.verdicts[n] for n in sorted(self.verdicts)))

    def done(self, scenario: ScenarioProblem) -> bool:
        return self.current_step(scenario) is None


#: Recent draws by (id of the scenario template, seed, pins), each kept with its template so an id is
#: never mistaken for another object's: a page reruns on every click and a mock shows every step.
_DRAWS: OrderedDict[tuple[int, int, Pinned], tuple[ScenarioTemplate, ScenarioProblem]] = OrderedDict()
_DRAWS_KEPT = 32


def scenario_for(bank: Bank, template_id: str, seed: int, pins: Pinned = ()) -> ScenarioProblem:
    """The scenario ``template_id`` draws with ``seed``, its params ``pins`` set (a drilled setup).

    ``KeyError`` when it left the bank; ``GenerationError`` when this draw fails or a step has no
    usable answer (``PinError`` when the pins cannot be taken), so the page can skip it with a note.
    """
    template = bank.scenario(template_id)
    key = (id(template), seed, pins)
    hit = _DRAWS.get(key)
    if hit is not None and hit[0] is template:
        _DRAWS.move_to_end(key)
        return hit[1]
    scenario = generate_scenario_checked(template, seed, pins=dict(pins) or None)
    _DRAWS[key] = (template, scenario)
    while len(_DRAWS) > _DRAWS_KEPT:
        _DRAWS.popitem(last=False)
    return scenario


def card_rating(report: ChainReport) -> Rating:
    """The scenario card's rating: Good when every step was right (carried forward counts), else Again."""
    return Rating.Good if report.all_correct else Rating.Again


def submit_step(
    store: Store,
    scenario: ScenarioProblem,
    run: ScenarioRun,
    response: str,
    *,
    scheduled: bool,
    now: datetime,
    enable_fuzzing: bool = True,
    explanation: ExplanationRecord | None = None,
) -> StepVerdict:
    """Grade ``response`` to the step on screen with follow-through; unless unparsable, store it.

    For a recall step ``response`` is the self-rating (``again`` makes the step wrong), and a typed
    ``explanation`` is stored with its attempt as for a recall question. The last step also reviews
    the scenario's card when ``scheduled``, in the same transaction as its attempt. ``run`` moves on
    to the next step.
    """
    number = run.current_step(scenario)
    if number is None:
        raise ValueError(f"every step of {scenario.template_id!r} is answered already")
    problem = scenario.step(number)
    result = grade_step(problem, response, earlier=run.earlier_values(scenario))
    verdict = result.verdict
    if verdict.status is VerdictStatus.UNPARSABLE:
        return result
    duration_s = max(0.0, (now - run.step_started_at).total_seconds())
    attempt = practice_attempt(
        problem, verdict, response, now=now, duration_s=duration_s, explanation=explanation
    )
    run.responses[number] = response
    run.verdicts[number] = result
    run.step_started_at = now
    if not (scheduled and run.done(scenario)):
        store.record_attempt(attempt)
        return result
    review(
        store,
        template_id=scenario.template_id,
        checklist_item=scenario.checklist_item,
        rating=card_rating(run.report()),
        now=now,
        duration_s=duration_s,
        enable_fuzzing=enable_fuzzing,
        attempt=attempt,
    )
    return result


def scenario_order(bank: Bank) -> list[tuple[str, str]]:
    """(scenario id, checklist item) pairs, easiest first (then by id): the "Scenarios" choice's queue."""
    return [(s.id, s.checklist) for s in sorted(bank.scenarios, key=lambda s: (s.difficulty, s.id))]


def queue_scope(
    bank: Bank, item_filter: str | None, *, everything: list[tuple[str, str]]
) -> tuple[list[tuple[str, str]], str | None]:
    """What the practice queue draws from for the filter: (templates, checklist item to keep).

    The "Scenarios" choice (:data:`SCENARIOS`) keeps every scenario and no single item.
    """
    if item_filter == SCENARIOS:
        return scenario_order(bank), None
    return everything, item_filter


def filter_keeps(bank: Bank, item_filter: str | None, template_id: str) -> bool:
    """Whether the practice filter lets the problem of ``template_id`` stay on screen.

    All items keep anything; "Scenarios" keeps scenarios; a checklist item keeps its own templates
    and scenarios.
    """
    if item_filter is None:
        return True
    if bank.is_scenario(template_id):
        return item_filter in (SCENARIOS, bank.scenario(template_id).checklist)
    if item_filter == SCENARIOS:
        return False
    try:
        return bank.get(template_id).checklist == item_filter
    except KeyError:
        return False


def extra_scenario_id(bank: Bank, *, seed: int, recent: Sequence[str] = ()) -> str:
    """A scenario for practice outside the schedule, drawn with ``seed`` (the bank must have one), in
    rotation over ``recent``: every scenario comes once before any comes again."""
    return in_rotation(list(bank.scenario_ids), recent=recent, seed=seed)


def run_state(data: Any, *, template_id: str, seed: int, now: datetime) -> ScenarioRun:
    """The run kept in session state when it belongs to this scenario draw, else a fresh one."""
    if isinstance(data, ScenarioRun) and (data.template_id, data.seed) == (template_id, seed):
        return data
    return ScenarioRun(template_id=template_id, seed=seed, step_started_at=now)


def lost_steps(run: ScenarioRun, scenario: ScenarioProblem) -> str | None:
    """What to tell the user when ``run`` answered steps ``scenario`` no longer has (its bank was edited
    since the run began), else None. Such a run cannot go on: the scenario starts afresh."""
    n_steps = len(scenario.steps)
    if all(1 <= number <= n_steps for number in run.verdicts) and run.moved_on <= n_steps:
        return None
    answered = f"{run.answered} {'was' if run.answered == 1 else 'were'} answered"
    return (
        f"This scenario changed since you started it: it now has {n_steps} steps, and {answered}. "
        "It starts again from step 1; the answers you gave are saved."
    )


def finished_here(data: Any, *, template_id: str, seed: int, steps: Callable[[], int]) -> bool:
    """Whether ``data`` (this tab's kept run) is a run of this scenario draw with every step answered.

    ``steps`` gives the draw's number of steps; it is called only for a run of this very draw.
    """
    if not isinstance(data, ScenarioRun) or (data.template_id, data.seed) != (template_id, seed):
        return False
    return data.answered >= steps()


def scenario_chains(outcomes: Sequence[Outcome]) -> dict[tuple[str, int], list[Outcome]]:
    """A mock's outcomes of scenario steps, grouped by draw (scenario id, seed), each in step order."""
    chains: dict[tuple[str, int], list[Outcome]] = {}
    for outcome in outcomes:
        problem = outcome.problem
        if isinstance(problem, StepProblem):
            chains.setdefault((problem.template_id, problem.seed), []).append(outcome)
    return {key: sorted(chain, key=lambda o: o.problem.step) for key, chain in chains.items()}
