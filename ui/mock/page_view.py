"""The mock interview page: setup, the running mock with its countdown, the debrief, past mocks.

``pages/mock_interview.py`` only calls :func:`show_mock_page`: what the page draws and its callbacks
live here, so that ``pages/`` holds routing alone."""

from __future__ import annotations

from functools import partial

import streamlit as st

from grader.problem import Kind
from progress import Store, StoreError
from progress.mock.scorecard import problem_title
from progress.mock.session import (
    MAX_ANSWER_CHARS,
    MockSession,
    answers,
    close_expired,
    finish,
    load,
    rate_recall,
)
from ui import state_keys as keys
from ui.bank_view import bank_or_stop
from ui.context import db_path, local_time, now, user_zone
from ui.explanation_view import AT_LIMIT
from ui.mock.interview import (
    ProblemUnavailableError,
    ScreenTime,
    item_titles,
    problem_at,
    problem_slots,
    save_answer,
    settle_mock,
    settle_past,
    unreadable_message,
)
from ui.mock.interview_view import (
    answer_widget,
    countdown,
    history_table,
    items_table,
    show_outcome,
    unavailable_debrief,
    unavailable_problem,
)
from ui.mock.setup_view import show_setup
from ui.practice.scenario_view import show_chain_summaries, show_step_context
from ui.query_params import read_address
from ui.shell_view import open_inside_app
from ui.store_notice_view import show_store_error


def show_mock_page() -> None:
    """Draw the page, top to bottom, as one Streamlit run."""
    open_inside_app("pages/mock_interview.py")
    st.title("Mock interview")

    bank = bank_or_stop()
    store = Store(db_path(), clock=now)

    def _notice(kind: str, text: str) -> None:
        pending = st.session_state.get(keys.MOCK_NOTICE)
        # Enter in the answer box and a click on "Save" can both save in one rerun; the first refusal
        # says why (the deadline), the second would only say the mock is over.
        if pending and pending["kind"] == "error":
            return
        st.session_state[keys.MOCK_NOTICE] = {"kind": kind, "text": text}

    def _show_notice() -> None:
        notice = st.session_state.pop(keys.MOCK_NOTICE, None)
        if notice:
            show = {"error": st.error, "warning": st.warning}.get(notice["kind"], st.success)
            show(notice["text"])

    def _attach(mock_id: int, *, position: int = 0) -> None:
        st.session_state[keys.MOCK_ACTIVE_ID] = mock_id
        st.session_state[keys.MOCK_SCREEN_TIME] = ScreenTime(mock_id, position, now()).to_dict()
        st.query_params[keys.MOCK_QUERY_PARAM] = str(mock_id)
        _show_problem(position)

    def _show_problem(position: int) -> None:
        """Put ``position`` on screen and in the address, so that a refresh comes back to it."""
        st.session_state[keys.MOCK_POSITION] = position
        st.query_params[keys.MOCK_PROBLEM_QUERY_PARAM] = str(position + 1)

    def _detach() -> None:
        for key in (
            keys.MOCK_ACTIVE_ID,
            keys.MOCK_POSITION,
            keys.MOCK_SCREEN_TIME,
            keys.MOCK_CONFIRMING,
            keys.MOCK_FINISH_CONFIRMING,
        ):
            st.session_state.pop(key, None)
        st.query_params.pop(keys.MOCK_QUERY_PARAM, None)
        st.query_params.pop(keys.MOCK_PROBLEM_QUERY_PARAM, None)

    def _active_session() -> MockSession | None:
        """The mock this tab shows: from session state, else from the query string (a browser refresh)."""
        mock_id = st.session_state.get(keys.MOCK_ACTIVE_ID)
        from_url = str(st.query_params.get(keys.MOCK_QUERY_PARAM, ""))
        if mock_id is None:
            # Anything that is not a stored mock's id (², a 20-digit number, text) is ignored, with a notice.
            address = read_address("mock_interview", st.query_params)
            for notice in address.notices:
                st.info(notice)
            mock_id = address.get(keys.MOCK_QUERY_PARAM)
            if not isinstance(mock_id, int):
                st.query_params.pop(keys.MOCK_QUERY_PARAM, None)
                return None
            # The page clamps the problem number to the mock's size.
            shown = address.get(keys.MOCK_PROBLEM_QUERY_PARAM)
            _attach(mock_id, position=shown - 1 if isinstance(shown, int) else 0)
        session = load(store, int(mock_id))
        if session is None:
            _detach()
        elif from_url != str(session.id):
            st.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
        return session

    # --- callbacks: each runs once per click, before the page is drawn again -----------------------------
    def _set_finish_confirming(flag: bool) -> None:
        st.session_state[keys.MOCK_FINISH_CONFIRMING] = flag

    def _still_running(mock_id: int) -> bool:
        """Whether the mock is still running in the store (another tab may have finished it)."""
        session = load(store, mock_id)
        return session is not None and session.running

    def _move(session: MockSession, step: int) -> None:
        position = st.session_state.get(keys.MOCK_POSITION, 0) + step
        _show_problem(min(max(position, 0), len(session.problems) - 1))

    def _answer_key(session: MockSession, position: int) -> str:
        return f"{keys.MOCK_ANSWER_PREFIX}{session.id}_{position}"

    def _save(session: MockSession, position: int) -> None:
        raw = st.session_state.get(_answer_key(session, position))
        response = "" if raw is None else str(raw)  # a choice arrives as its option's index
        moment = now()
        screen = ScreenTime.from_dict(st.session_state[keys.MOCK_SCREEN_TIME])
        try:
            reply = save_answer(
                store, session, position=position, response=response, screen=screen, now=moment
            )
        except StoreError as exc:
            _notice("error", str(exc))
            return
        st.session_state[keys.MOCK_SCREEN_TIME] = screen.to_dict()
        if not reply.accepted:
            _notice("error", reply.message)
            return
        # Read it now, as Practice does, so that an answer the grader cannot read is retyped before the
        # debrief; only whether it can be read is said, never whether it is right.
        try:
            unreadable = unreadable_message(problem_at(bank, session, position), response)
        except ProblemUnavailableError:
            unreadable = None
        if reply.cut:
            _notice("warning", f"Answer to problem {position + 1} saved. {reply.message}")
        elif len(response) >= MAX_ANSWER_CHARS:  # the box keeps no more: the rest of a paste was cut
            _notice("warning", f"Answer to problem {position + 1} saved. {AT_LIMIT}")
        elif unreadable:
            _notice("warning", f"Answer to problem {position + 1} saved, but it cannot be read. {unreadable}")
        else:
            _notice("success", f"Answer to problem {position + 1} saved.")

    def _rate(
        session: MockSession, position: int, rating: str, explanation: dict[str, object] | None = None
    ) -> None:
        try:
            rated = rate_recall(
                store, session=session, position=position, self_rating=rating, explanation=explanation
            )
        except StoreError as exc:
            _notice("error", str(exc))
            return
        if not rated:
            _notice("warning", f"Mock #{session.id}'s score is already final: this rating was not saved.")

    def _finish(session: MockSession) -> None:
        st.session_state.pop(keys.MOCK_FINISH_CONFIRMING, None)
        try:
            finish(store, mock_id=session.id, now=now())
        except StoreError as exc:
            _notice("error", str(exc))

    def _open_picked() -> None:
        _attach(int(st.session_state[keys.MOCK_HISTORY_PICK]))

    # --- the three screens (setup: ui.mock.setup_view) ---------------------------------------------------
    def _running(session: MockSession) -> None:
        problems = problem_slots(bank, session)
        stored = answers(store, session.id)
        position = min(int(st.session_state.get(keys.MOCK_POSITION, 0)), len(problems) - 1)
        screen = ScreenTime.resume(st.session_state.get(keys.MOCK_SCREEN_TIME), mock_id=session.id, now=now())
        screen.look_at(position, now=now())
        st.session_state[keys.MOCK_SCREEN_TIME] = screen.to_dict()

        head, clock = st.columns([3, 1])
        head.subheader(f"Mock #{session.id}: problem {position + 1} of {len(problems)}")
        answered = [str(p + 1) for p in sorted(stored) if stored[p].response.strip()]
        head.caption("Answered: " + (", ".join(answered) if answered else "none yet"))
        problem = problems[position]
        with clock:
            countdown(
                session.deadline,
                still_running=partial(_still_running, session.id),
                remind_to_save=getattr(problem, "kind", None) is Kind.RECALL,
            )
        if isinstance(problem, ProblemUnavailableError):
            unavailable_problem(problem)
        else:
            show_step_context(problem)
            st.markdown(problem.prompt)
            previous = stored[position].response if position in stored else ""
            answer_widget(
                problem,
                key=_answer_key(session, position),
                previous=previous,
                on_change=partial(_save, session, position),
                save_key=keys.MOCK_SAVE,
            )
        _show_notice()
        # One row that wraps, not four columns: columns stack on a phone and put Finish right under Next.
        row = st.container(horizontal=True)
        row.button("Previous", key=keys.MOCK_PREV, disabled=position == 0, on_click=_move, args=(session, -1))
        if getattr(problem, "kind", None) is not Kind.CHOICE:  # a choice's options carry their own (Enter)
            row.button(
                "Save answer",
                key=keys.MOCK_SAVE,
                disabled=isinstance(problem, ProblemUnavailableError),
                on_click=_save,
                args=(session, position),
            )
        row.button(
            "Next",
            key=keys.MOCK_NEXT,
            disabled=position == len(problems) - 1,
            on_click=_move,
            args=(session, 1),
        )
        if not st.session_state.get(keys.MOCK_FINISH_CONFIRMING):
            row.space("stretch")  # Finish stands apart from the moves between problems
            row.button(
                "Finish", key=keys.MOCK_FINISH, type="primary", on_click=_set_finish_confirming, args=(True,)
            )
            return
        left = len(problems) - len(answered)
        st.warning(
            "Finish the mock now? "
            + (
                f"{left} of {len(problems)} problems {'has' if left == 1 else 'have'} no answer yet. "
                if left
                else ""
            )
            + "Answers cannot change after this, and the debrief opens."
        )
        choice = st.container(horizontal=True)
        choice.button(
            "Yes, finish now", key=keys.MOCK_FINISH_CONFIRM, type="primary", on_click=_finish, args=(session,)
        )
        choice.button(
            "Keep going", key=keys.MOCK_FINISH_CANCEL, on_click=_set_finish_confirming, args=(False,)
        )

    def _debrief(session: MockSession) -> None:
        _show_notice()
        try:
            problems, result, scorecard = settle_mock(store, bank, session, now=now(), zone=user_zone())
        except ProblemUnavailableError as exc:
            unavailable_debrief(session, answers(store, session.id), exc)
            st.button("New mock", key=keys.MOCK_NEW, on_click=_detach)
            return
        titles = item_titles()
        finished_at = session.mock.finished_at or session.deadline
        used_s = (finished_at - session.mock.started_at).total_seconds()
        with st.container(horizontal=True, gap="medium"):  # one row that wraps, not three stacked on a phone
            st.metric("Score" if result.final else "Score so far", f"{result.score:.0%}", width="content")
            st.metric("Correct", f"{result.n_correct} of {len(problems)}", width="content")
            used = f"{used_s / 60:.1f} of {session.config.duration_s / 60:g} min"
            st.metric("Time used", used, width="content")
        if not result.final:
            st.info(
                "Rate your recall answers against their key points below; "
                "the score is final once all are rated."
            )
        st.subheader("By checklist item")
        st.dataframe(items_table(result, titles=titles), hide_index=True, width="stretch")
        st.subheader("Problem by problem")
        show_chain_summaries(result.outcomes)
        for outcome in result.outcomes:
            show_outcome(
                outcome,
                title=problem_title(outcome.problem)
                if outcome.problem.title
                else titles.get(outcome.problem.checklist_item, ""),
                on_rate=partial(_rate, session),
            )
        st.download_button(
            "Download the scorecard (Markdown)",
            scorecard,
            file_name=f"roofline-drill-mock-{session.id}.md",
            mime="text/markdown",
            key=keys.MOCK_DOWNLOAD,
            on_click="ignore",  # nothing to redraw; a rerun would only race the download
        )
        st.button("New mock", key=keys.MOCK_NEW, on_click=_detach)

    def _history() -> None:
        past, unavailable = settle_past(store, bank, now=now(), zone=user_zone())
        if not past:
            return
        st.subheader("Past mocks")
        table = history_table(past, shown_at=local_time, unavailable=unavailable)
        st.dataframe(table, hide_index=True, width="stretch")
        st.selectbox(
            "Open a debrief",
            [s.id for s in past],
            format_func=lambda i: f"Mock #{i}",
            key=keys.MOCK_HISTORY_PICK,
        )
        st.button("Open", key=keys.MOCK_HISTORY_OPEN, on_click=_open_picked)

    try:
        close_expired(store, now=now())
        active = _active_session()
        if active is None:
            _show_notice()
            show_setup(store, bank, attach=_attach, notice=_notice)
            _history()
        elif active.running:
            _running(active)
        else:
            _debrief(active)
            _history()
    except StoreError as exc:
        show_store_error(exc, key=keys.MOCK_START_AFRESH)
