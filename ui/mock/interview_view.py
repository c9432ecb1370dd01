"""Drawing the mock interview: the countdown, the debrief's parts, the history of mocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from datetime import datetime, timedelta

import pandas as pd
import streamlit as st

from grader.diagnosis import slip_label
from grader.hints import box_label
from grader.markdown import bank_markdown
from grader.problem import Kind, Problem
from progress.mock.debrief import Answer, Debrief, Outcome, Result, answer_heading
from progress.mock.scorecard import exact_text, item_verdict, minutes_seconds, result_word, typed_answer
from progress.mock.session import MAX_ANSWER_CHARS, MockSession
from progress.mock.timer import format_remaining, remaining
from ui.answer_help_view import show_answer_help
from ui.choice_view import show_choice
from ui.context import now
from ui.explanation_view import escape_markdown, show_confirmed_checks, show_mock_checks
from ui.mock.interview import ProblemUnavailableError
from ui.practice.scenario_view import show_step_context
from ui.render_view import revisit_line, show_derivation, show_slip

_ICONS = {
    Result.CORRECT: ":material/check_circle:",
    Result.INCORRECT: ":material/cancel:",
    Result.UNPARSABLE: ":material/cancel:",
    Result.UNANSWERED: ":material/remove_circle:",
    Result.AWAITING_RATING: ":material/rate_review:",
}


#: From this much time left the countdown reminds the user to save what is typed.
LAST_CALL = timedelta(seconds=60)


@st.fragment(run_every="1s")
def countdown(
    deadline: datetime, *, still_running: Callable[[], bool] = lambda: True, remind_to_save: bool = False
) -> None:
    """The time left, redrawn every second from the session's clock; nothing else runs here.

    At zero, or once ``still_running`` says the mock ended elsewhere (another tab finished it),
    it asks for one full rerun: the page then shows the debrief. The server decides; this only draws.
    With ``remind_to_save`` (a written answer on screen, saved only on a click) the last minute says so.
    """
    left = remaining(deadline=deadline, now=now())
    if not left or not still_running():
        st.rerun()
    st.metric("Time left", format_remaining(left))
    if remind_to_save and left <= LAST_CALL:
        st.warning(
            "Under a minute left. A written answer is kept only once saved: press **Save answer**.",
            icon=":material/timer:",
        )


#: A pause in typing this long saves the answer line.
AUTOSAVE_PAUSE = "1s"


def answer_widget(
    problem: Problem, *, key: str, previous: str, on_change: Callable[[], None], save_key: str
) -> None:
    """The answer box for the problem's kind: options by index, a text area for recall, else one line.

    ``on_change`` saves: a pause in typing or Enter in the line, leaving the text area, or picking an
    option. The line saves as the user types (``live``, after a pause of ``AUTOSAVE_PAUSE``) so that a
    number typed without Enter is kept at the deadline; one typed within that pause of it is not.
    Options are picked as in Practice (number keys 1 to n), and their own **Save answer** (key
    ``save_key``) takes Enter; the picked option's index is put under ``key`` for ``on_change``.
    """
    if problem.kind is Kind.CHOICE:
        index = int(previous) if previous.isdecimal() and int(previous) < len(problem.choices) else None

        def pick(option: int) -> None:
            st.session_state[key] = str(option)
            on_change()

        show_choice(
            [choice.text for choice in problem.choices],
            picked=index,
            option_key=lambda i: f"{key}_option_{i}",
            on_pick=pick,
            check_key=save_key,
            on_check=on_change,
            check_label="Save answer",
        )
    elif problem.kind is Kind.RECALL:
        label = "Your explanation (checked against the key points at the debrief)"
        st.text_area(label, value=previous, key=key, on_change=on_change, max_chars=MAX_ANSWER_CHARS)
        st.caption("Saved when you press **Save answer** or click outside the box (Ctrl+Enter too).")
    else:
        label = box_label(problem)
        st.text_input(label, value=previous, key=key, on_change=on_change, live=AUTOSAVE_PAUSE)
        st.caption("Saved as you type.")
        show_answer_help()


def show_outcome(
    outcome: Outcome, *, title: str, on_rate: Callable[[int, str, dict[str, object]], None]
) -> None:
    """One problem of the debrief in an expander: answers, result, slip, derivation, time spent.

    An answered recall problem shows its key-point checks (to confirm or overrule) and four rating
    buttons, the suggested one highlighted, that call ``on_rate(position, rating, explanation)``.
    """
    problem = outcome.problem
    label = f"{outcome.position + 1}. {title}: {result_word(outcome)}"
    with st.expander(label, icon=_ICONS[outcome.result], expanded=not outcome.correct):
        # Every step shows its setup: each expander is read on its own, and a mock may ask a later step only.
        show_step_context(problem, setup=True)
        st.markdown(problem.prompt)
        yours, exact, spent = st.columns(3)
        typed = typed_answer(problem, outcome.response, quote=escape_markdown)  # shown as typed
        yours.markdown(f"**Your answer**  \n{typed}")
        if problem.key_points and (outcome.result is Result.AWAITING_RATING or outcome.explanation):
            exact.markdown("**Key points**  \nChecked one by one below.")
        elif problem.key_points:
            points = "\n".join(f"- {bank_markdown(p)}" for p in problem.key_points)
            exact.markdown("**Key points**\n" + points)
        else:
            exact.markdown(f"**{answer_heading(problem)}**  \n{exact_text(outcome)}")
        spent.markdown(f"**Time spent**  \n{minutes_seconds(outcome.time_spent_s)}")
        if outcome.result is Result.AWAITING_RATING:
            st.markdown("**How well did your answer cover the key points?**")
            show_mock_checks(
                problem,
                outcome.response or "",
                position=outcome.position,
                seconds=outcome.time_spent_s,
                on_rate=on_rate,
            )
        elif outcome.self_rating:
            st.caption(f"You rated this answer: {outcome.self_rating}.")
            if outcome.explanation:
                show_confirmed_checks(problem, dict(outcome.explanation))
        verdict = outcome.verdict
        if outcome.result is Result.UNPARSABLE and verdict is not None:
            st.error(verdict.message, icon=":material/cancel:")
        if outcome.slip and verdict is not None and not outcome.correct:
            show_slip(outcome.slip, verdict.diagnosis_text)
        # A step right on the user's own earlier values shows the derivation those values entered.
        carried = bool(getattr(outcome.verdict, "carried_from", ()))
        steps = getattr(outcome.verdict, "derivation", problem.derivation) if carried else problem.derivation
        show_derivation(steps, expanded=False, answer_unit=problem.unit)
        if problem.explanation:
            st.markdown(problem.explanation)
        if problem.references:
            st.caption(revisit_line(problem.references))


def items_table(result: Debrief, *, titles: Mapping[str, str]) -> pd.DataFrame:
    """Per checklist item: problems asked, right answers, a word on how it went, the slips named."""
    return pd.DataFrame(
        {
            "checklist item": [titles.get(i.checklist_item, i.checklist_item) for i in result.items],
            "correct": [f"{i.correct} / {i.asked}" for i in result.items],
            "how it went": [item_verdict(asked=i.asked, correct=i.correct) for i in result.items],
            "slips": [", ".join(map(slip_label, i.slips)) for i in result.items],
        }
    )


def _score_text(session: MockSession, *, unavailable: bool) -> str:
    score = session.mock.score
    if unavailable:
        return "unavailable" if score is None else f"{score:.0%} (unavailable)"
    return "to self-rate" if score is None else f"{score:.0%}"


def history_table(
    sessions: Sequence[MockSession],
    *,
    shown_at: Callable[[datetime], str],
    unavailable: Set[int] = frozenset(),
) -> pd.DataFrame:
    """Finished mocks, newest first: the score, when (as ``shown_at`` writes it), problems, minutes.

    The score comes right after the mock's number, so a phone shows it without scrolling sideways. A
    mock in ``unavailable`` (its problems can no longer be generated) says so beside its score.
    """
    return pd.DataFrame(
        {
            "mock": [f"#{s.id}" for s in sessions],
            "score": [_score_text(s, unavailable=s.id in unavailable) for s in sessions],
            "started": [shown_at(s.mock.started_at) for s in sessions],
            "problems": [len(s.problems) for s in sessions],
            "minutes": [round(s.config.duration_s / 60, 2) for s in sessions],
        }
    )


def unavailable_problem(error: ProblemUnavailableError) -> None:
    """A running mock's problem that cannot be shown: say why; the other problems go on."""
    st.warning(
        f"Problem {error.position + 1} can no longer be shown ({error.reason}). It counts as unanswered; "
        "move on with **Next**.",
        icon=":material/block:",
    )


def unavailable_debrief(
    session: MockSession, stored: Mapping[int, Answer], error: ProblemUnavailableError
) -> None:
    """What is stored of a mock whose problems can no longer be generated: score, scorecard, answers."""
    st.warning(
        f"Mock #{session.id} can no longer be regenerated: {error}. What was stored is below; nothing "
        "was changed or lost. Putting its bank folder back brings the full debrief back.",
        icon=":material/block:",
    )
    score = session.mock.score
    st.metric("Score", "not settled" if score is None else f"{score:.0%}")
    if session.mock.scorecard:
        st.markdown(session.mock.scorecard)
        return
    st.dataframe(
        pd.DataFrame(
            {
                "problem": [f"{p + 1}. {ref.template_id}" for p, ref in enumerate(session.problems)],
                "your answer": [
                    stored[p].response if p in stored else "" for p in range(len(session.problems))
                ],
                "time spent": [
                    minutes_seconds(stored[p].time_spent_s) if p in stored else ""
                    for p in range(len(session.problems))
                ],
            }
        ),
        hide_index=True,
        width="stretch",
    )


def running_banner(session: MockSession) -> None:
    """A mock is running that this tab is not showing: say so, with the time it has left."""
    left = format_remaining(remaining(deadline=session.deadline, now=now()))
    st.info(
        f"Mock #{session.id} is running: {left} left of {minutes_seconds(session.config.duration_s)}. "
        "Its clock does not stop while you are away.",
        icon=":material/timer:",
    )
