"""Drawing a scenario on the practice page: the setup, then one step at a time with its feedback."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import streamlit as st

from grader import ExplanationRecord, Verdict, VerdictStatus
from grader.follow_through import ChainReport, ScenarioProblem, StepProblem, StepVerdict
from grader.problem import Kind
from progress import Store, StoreError
from progress.mock.debrief import Outcome
from ui import state_keys as keys
from ui.answer_help_view import show_answer_help
from ui.choice_view import PICK_FIRST, show_choice
from ui.context import now
from ui.explanation_view import (
    escape_markdown,
    practice_record,
    reset_practice_explanation,
    show_recall_answer,
)
from ui.practice.scenario import ScenarioRun, lost_steps, run_state, scenario_chains, submit_step
from ui.render_view import show_verdict


def _key(prefix: str, run: ScenarioRun, number: int) -> str:
    # The seed is part of the key, so a new draw never inherits the last one's typed text.
    return f"{prefix}{run.seed}_{number}"


def current_run(scenario: ScenarioProblem) -> ScenarioRun:
    """This tab's run through the scenario on screen (a fresh one for a new draw)."""
    run = run_state(
        st.session_state.get(keys.PRACTICE_SCENARIO_RUN),
        template_id=scenario.template_id,
        seed=scenario.seed,
        now=now(),
    )
    stale = lost_steps(run, scenario)
    if stale is not None:
        st.session_state[keys.PRACTICE_NOTICE] = stale
        run = ScenarioRun(template_id=scenario.template_id, seed=scenario.seed, step_started_at=now())
    st.session_state[keys.PRACTICE_SCENARIO_RUN] = run
    return run


def _answer(
    store: Store,
    scenario: ScenarioProblem,
    run: ScenarioRun,
    response: str,
    *,
    scheduled: bool,
    explanation: ExplanationRecord | None = None,
) -> None:
    try:
        result = submit_step(
            store, scenario, run, response, scheduled=scheduled, now=now(), explanation=explanation
        )
    except StoreError as exc:
        st.session_state[keys.PRACTICE_NOTICE] = str(exc)
        return
    if result.verdict.status is VerdictStatus.UNPARSABLE:
        st.session_state[keys.PRACTICE_NOTICE] = result.verdict.message
        return
    st.session_state.pop(keys.PRACTICE_NOTICE, None)


def _submit_text(
    store: Store, scenario: ScenarioProblem, run: ScenarioRun, number: int, scheduled: bool
) -> None:
    _answer(
        store,
        scenario,
        run,
        str(st.session_state.get(_key(keys.PRACTICE_STEP_ANSWER_PREFIX, run, number), "")),
        scheduled=scheduled,
    )


def _submit_choice(
    store: Store, scenario: ScenarioProblem, run: ScenarioRun, number: int, scheduled: bool
) -> None:
    choice = st.session_state.get(_key(keys.PRACTICE_STEP_CHOICE_PREFIX, run, number))
    if choice is None:
        st.session_state[keys.PRACTICE_NOTICE] = PICK_FIRST
        return
    _answer(store, scenario, run, str(choice), scheduled=scheduled)


def _rate(
    store: Store, scenario: ScenarioProblem, run: ScenarioRun, number: int, scheduled: bool, rating: str
) -> None:
    # The typed explanation, if one was checked, goes with the step's attempt as for a recall question.
    explanation = practice_record(scenario.step(number), rating)
    _answer(store, scenario, run, rating, scheduled=scheduled, explanation=explanation)


def _move_on(run: ScenarioRun) -> None:
    run.moved_on = run.answered
    run.step_started_at = now()
    reset_practice_explanation()  # a later recall step starts with an empty box


def _step_heading(problem: StepProblem) -> str:
    return f"**Step {problem.step} of {problem.n_steps}: {problem.title}**"


def _answered_step(problem: StepProblem, result: StepVerdict, response: str) -> None:
    mark = "carried forward" if result.carried_forward else ("right" if result.correct else "wrong")
    with st.expander(f"Step {problem.step}: {problem.title} · {mark}", expanded=False):
        st.markdown(problem.prompt)
        st.markdown(f"Your answer: {escape_markdown(response)}")  # as typed, never read as Markdown
        st.markdown(result.verdict.message)


def _step_input(
    store: Store, scenario: ScenarioProblem, run: ScenarioRun, problem: StepProblem, *, scheduled: bool
) -> None:
    number = problem.step
    args = (store, scenario, run, number, scheduled)
    if problem.kind is Kind.NUMERIC:
        with st.form(key=f"practice_step_form_{run.seed}_{number}", enter_to_submit=True, border=False):
            st.text_input(
                f"Your answer (a bare number is read in {problem.unit or 'plain numbers'})",
                key=_key(keys.PRACTICE_STEP_ANSWER_PREFIX, run, number),
                placeholder=f"e.g. 12.5 {problem.unit}".strip(),
            )
            st.form_submit_button(
                "Check", key=keys.PRACTICE_STEP_SUBMIT, type="primary", on_click=_submit_text, args=args
            )
        show_answer_help()
    elif problem.kind is Kind.CHOICE:
        choice_key = _key(keys.PRACTICE_STEP_CHOICE_PREFIX, run, number)
        show_choice(
            [choice.text for choice in problem.choices],
            picked=st.session_state.get(choice_key),
            option_key=lambda i: f"{_key(keys.PRACTICE_STEP_OPTION_PREFIX, run, number)}_{i}",
            on_pick=partial(st.session_state.__setitem__, choice_key),
            check_key=keys.PRACTICE_STEP_SUBMIT,
            on_check=partial(_submit_choice, *args),
        )
    else:
        show_recall_answer(
            problem,
            started_at=run.step_started_at,
            revealed=number in run.revealed,
            on_reveal=partial(run.revealed.add, number),
            on_rate=partial(_rate, *args),
            reveal_key=keys.PRACTICE_STEP_REVEAL,
            rate_prefix=keys.PRACTICE_STEP_RATE_PREFIX,
        )


def show_scenario(
    store: Store,
    scenario: ScenarioProblem,
    *,
    scheduled: bool,
    caption: str,
    on_next: Callable[[], None],
    on_variant: Callable[[], None],
) -> None:
    """The scenario: setup, the steps answered so far, then the open step or the last one's feedback."""
    run = current_run(scenario)
    st.caption(caption)
    st.subheader(scenario.title)
    with st.container(border=True):
        st.markdown(scenario.setup)
    for number in range(1, run.moved_on + 1):
        _answered_step(scenario.step(number), run.verdicts[number], run.responses[number])
    notice = st.session_state.get(keys.PRACTICE_NOTICE)
    if run.showing_feedback:
        problem = scenario.step(run.answered)
        st.markdown(_step_heading(problem))
        st.markdown(problem.prompt)
        show_verdict(problem, run.verdicts[problem.step].verdict)
        if not run.done(scenario):
            st.button(
                f"Next step ({problem.step + 1} of {problem.n_steps})",
                key=keys.PRACTICE_STEP_NEXT,
                type="primary",
                on_click=_move_on,
                args=(run,),
                shortcut="N",
            )
            return
        _summary(run, scheduled=scheduled, on_next=on_next, on_variant=on_variant)
        return
    open_step = run.current_step(scenario)
    assert open_step is not None  # not done, or the last feedback would be showing
    problem = scenario.step(open_step)
    st.markdown(_step_heading(problem))
    st.markdown(problem.prompt)
    _step_input(store, scenario, run, problem, scheduled=scheduled)
    if notice:
        st.warning(notice, icon=":material/edit:")


def _summary(
    run: ScenarioRun, *, scheduled: bool, on_next: Callable[[], None], on_variant: Callable[[], None]
) -> None:
    report = run.report()
    right = sum(v.correct for v in report.verdicts)
    outcome = "Good" if report.all_correct else "Again"
    text = f"**Scenario done: {right} of {len(report.verdicts)} steps right.** {report.feedback()}"
    if scheduled:
        text += f" The scenario's card was rated **{outcome}**."
    (st.success if report.all_correct else st.info)(text, icon=":material/flag:")
    next_col, variant_col = st.columns(2)
    next_col.button(
        "Next", key=keys.PRACTICE_NEXT, type="primary", on_click=on_next, width="stretch", shortcut="N"
    )
    variant_col.button(
        "Another variant (not scheduled)",
        key=keys.PRACTICE_VARIANT,
        on_click=on_variant,
        width="stretch",
        shortcut="V",
    )


def show_step_context(problem: object, *, setup: bool = True) -> None:
    """Above a scenario step in a mock: which scenario and step it is, and the setup (nothing for atoms)."""
    if not isinstance(problem, StepProblem):
        return
    st.caption(f"Scenario: {problem.scenario_title} · step {problem.step} of {problem.n_steps}")
    if setup:
        with st.container(border=True):
            st.markdown(problem.setup)


def show_chain_summaries(outcomes: Sequence[Outcome]) -> None:
    """For each scenario of a mock, one line: how many steps were right and where the chain first broke."""
    for (template_id, _), chain in scenario_chains(outcomes).items():
        first = chain[0].problem
        report = ChainReport(
            tuple(
                StepVerdict(o.problem.step, o.verdict)
                if isinstance(o.verdict, Verdict)
                else StepVerdict(o.problem.step, Verdict(VerdictStatus.INCORRECT))
                for o in chain
            )
        )
        right = sum(o.correct for o in chain)
        name = first.scenario_title or template_id
        st.markdown(f"**{name}**: {right} of {len(chain)} steps right. {report.feedback()}")
