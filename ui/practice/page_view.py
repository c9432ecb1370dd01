"""The practice page: today's spaced-repetition queue, one fresh problem at a time, instant feedback.

``pages/practice.py`` only calls :func:`show_practice_page`: what the page draws and its callbacks
live here, so that ``pages/`` holds routing alone."""

from __future__ import annotations

from datetime import datetime
from functools import partial

import streamlit as st

from grader import Verdict, VerdictStatus
from grader.hints import box_label
from grader.problem import Kind, Problem
from progress import StoreError
from progress.scheduling import Queue, due_queue, next_due, streak
from question_bank import GenerationError, load_checklist
from ui import cached
from ui import state_keys as keys
from ui.answer_help_view import show_answer_help
from ui.bank_view import bank_or_stop
from ui.choice_view import PICK_FIRST, show_choice
from ui.context import local_time, new_seed, now
from ui.explanation_view import (
    escape_markdown,
    practice_record,
    reset_practice_explanation,
    show_recall_answer,
)
from ui.practice.address import PARAMS as ADDRESS_PARAMS
from ui.practice.address import from_query, to_query, variant_template_id
from ui.practice.loop import Current, Tally, extra_template_id, problem_for, queue_order, submit
from ui.practice.scenario import (
    SCENARIOS,
    extra_scenario_id,
    filter_keeps,
    finished_here,
    queue_scope,
    scenario_for,
)
from ui.practice.scenario_view import show_scenario
from ui.practice.take_away_view import show_take_away
from ui.query_params import read_address
from ui.render_view import reading_markdown, show_verdict_alerts
from ui.roofline_answer import roofline_markdown
from ui.shell_view import open_inside_app
from ui.store_notice_view import show_store_error

# Keyboard shortcuts, as in flash-card tools: N goes on, V draws another variant (1-4 rate a recall and
# S shows its answer: ui/explanation_view.py). Streamlit shows each key on its button.


def show_practice_page() -> None:
    """Draw the page, top to bottom, as one Streamlit run."""
    open_inside_app("pages/practice.py")
    st.title("Practice")

    bank = bank_or_stop()
    store = cached.store()
    checklist = {item.id: item for item in load_checklist()}

    # --- filter and today's counts ---------------------------------------------------------------------
    filter_options = [None, *([SCENARIOS] if bank.scenarios else []), *checklist]
    if st.session_state.get(keys.PRACTICE_FILTER_ITEM) not in filter_options:
        st.session_state[keys.PRACTICE_FILTER_ITEM] = None
    item_filter = st.selectbox(
        "Checklist item",
        filter_options,
        key=keys.PRACTICE_FILTER_ITEM,
        format_func=lambda item: (
            "All ten items"
            if item is None
            else "Scenarios: chained interview problems"
            if item == SCENARIOS
            else checklist[item].title
        ),
    )
    show_take_away(bank, checklist_item=item_filter)

    # --- callbacks: run once per click, before the script reruns -------------------------------------------
    def _start(template_id: str, *, scheduled: bool) -> None:
        current = Current(template_id=template_id, seed=new_seed(), scheduled=scheduled, started_at=now())
        st.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
        st.session_state.setdefault(keys.PRACTICE_RECENT, []).append(template_id)
        for key in (keys.PRACTICE_VERDICT, keys.PRACTICE_NOTICE, keys.PRACTICE_REVEALED):
            st.session_state.pop(key, None)
        st.session_state[keys.PRACTICE_ANSWER] = ""
        st.session_state[keys.PRACTICE_CHOICE] = None
        reset_practice_explanation()

    def _next() -> None:
        st.session_state.pop(keys.PRACTICE_CURRENT, None)
        reset_practice_explanation()
        for key in (keys.PRACTICE_VERDICT, keys.PRACTICE_NOTICE, keys.PRACTICE_REVEALED):
            st.session_state.pop(key, None)

    def _answer(response: str) -> None:
        current = Current.from_dict(st.session_state[keys.PRACTICE_CURRENT])
        problem = problem_for(bank, current)
        moment = now()
        explained = practice_record(problem, response) if problem.kind is Kind.RECALL else None
        try:
            verdict = submit(store, problem, response, current=current, now=moment, explanation=explained)
        except StoreError as exc:
            st.session_state[keys.PRACTICE_NOTICE] = str(exc)
            return
        if verdict.status is VerdictStatus.UNPARSABLE:
            st.session_state[keys.PRACTICE_NOTICE] = verdict.message
            return
        st.session_state.pop(keys.PRACTICE_NOTICE, None)
        st.session_state[keys.PRACTICE_VERDICT] = verdict
        seconds = max(0.0, (moment - current.started_at).total_seconds())
        tally = Tally.from_dict(st.session_state.get(keys.PRACTICE_TALLY)).add(verdict, seconds=seconds)
        st.session_state[keys.PRACTICE_TALLY] = tally.to_dict()

    def _submit_text() -> None:
        _answer(str(st.session_state.get(keys.PRACTICE_ANSWER, "")))

    def _submit_choice() -> None:
        choice = st.session_state.get(keys.PRACTICE_CHOICE)
        if choice is None:
            st.session_state[keys.PRACTICE_NOTICE] = PICK_FIRST
            return
        _answer(str(choice))

    def _set_address(wanted: dict[str, str]) -> None:
        """Make the address name ``wanted`` (the problem on screen, or none), keeping any other parameter.

        One change of address at most: each is a message the browser acts on while it draws the feedback.
        """
        if {n: st.query_params.get(n) for n in ADDRESS_PARAMS} == {n: wanted.get(n) for n in ADDRESS_PARAMS}:
            return
        others = {k: v for k, v in st.query_params.to_dict().items() if k not in ADDRESS_PARAMS}
        st.query_params.from_dict({**others, **wanted})

    # --- the queue, the problem, the answer and its feedback ---------------------------------------------
    def _counts(
        queue_templates: list[tuple[str, str]], queue_item: str | None, moment: datetime, *, scope: str | None
    ) -> Queue:
        """Today's queue, and its counts and the streak in one line; a store that cannot be read offers a
        fresh start instead. Under a filter the counts are the filter's, and the line says so (``scope``)."""
        try:
            queue = due_queue(store, templates=queue_templates, now=moment, checklist_item=queue_item)
            days = streak(store, today=moment.date())
        except StoreError as exc:
            show_store_error(exc, key=keys.PRACTICE_START_AFRESH)
            st.stop()
        for notice in queue.settings_notices:
            st.warning(notice)
        # One line of Markdown rather than four metrics in a row: the browser draws the counts again on
        # every answer (about 10 ms for the metrics), and a line keeps the problem in view on a phone.
        st.markdown(
            (f"*{escape_markdown(scope)}:* " if scope else "")
            + f"Due **{queue.due_count}** · New today **{queue.new_count}** · "
            f"Done today **{queue.done_count}** · Streak **{days} day{'s' * (days != 1)}**"
        )
        return queue

    def _choose(item_filter: str | None, queue: Queue, *, moment: datetime, skipped: list[str]) -> None:
        """Put the problem to show in the session: the one on screen, the one the address names, the first
        due, or (practising one item with nothing of it due) an extra variant of it; else none."""
        # The filter decides what is shown: a problem of another item goes (also when Readiness opened this
        # page on an item); a refreshed page comes back to the problem its address names.
        shown = st.session_state.get(keys.PRACTICE_CURRENT)
        if shown is None:
            restored, notices = from_query(read_address("practice", st.query_params), bank, now=moment)
            for notice in notices:
                st.info(notice)
            if (
                restored is not None
                and restored.template_id not in skipped
                and filter_keeps(bank, item_filter, restored.template_id)
                and not _answered(restored)
            ):
                st.session_state[keys.PRACTICE_CURRENT] = restored.to_dict()
        elif not filter_keeps(bank, item_filter, shown["template_id"]):
            _next()

        if keys.PRACTICE_CURRENT not in st.session_state and queue.first is not None:
            _start(queue.first.template_id, scheduled=True)
        elif keys.PRACTICE_CURRENT not in st.session_state and item_filter is not None:
            _start(_extra_id(item_filter, skipped), scheduled=False)

    def _title(item_id: str) -> str:
        item = checklist.get(item_id)
        return item.title if item else item_id

    def _answered(restored: Current) -> bool:
        """Whether the problem an address names was answered already: a refresh then moves on, so one
        problem is never graded twice. A scenario's address brings its draw back at step 1 after a
        refresh, but not once this tab has finished it: its Next then goes on to the next problem."""
        if bank.is_scenario(restored.template_id):
            return finished_here(
                st.session_state.get(keys.PRACTICE_SCENARIO_RUN),
                template_id=restored.template_id,
                seed=restored.seed,
                steps=lambda: len(
                    scenario_for(bank, restored.template_id, restored.seed, restored.pins).steps
                ),
            )
        try:
            return store.practised(restored.template_id, restored.seed)
        except StoreError:
            return False  # the queue above reports an unreadable store

    def _extra_id(item: str | None, skipped: list[str]) -> str:
        """A problem off the schedule: a scenario under the scenarios filter, else a template of ``item``;
        in rotation, so each comes once before any comes again."""
        recent = st.session_state.get(keys.PRACTICE_RECENT, [])
        if item == SCENARIOS:
            return extra_scenario_id(bank, seed=new_seed(), recent=recent)
        return extra_template_id(bank, seed=new_seed(), checklist_item=item, skip=skipped, recent=recent)

    def _nothing_due(
        item_filter: str | None, queue_item: str | None, moment: datetime, skipped: list[str]
    ) -> None:
        """The session so far, when the next review is due, and a way to practise off the schedule."""
        _set_address({})
        tally = Tally.from_dict(st.session_state.get(keys.PRACTICE_TALLY))
        st.success("Nothing is due right now. Well done.", icon=":material/task_alt:")
        if tally.answered:
            st.markdown(
                f"This session: **{tally.answered}** answered, **{tally.accuracy:.0%}** correct, "
                f"**{tally.seconds / 60:.1f} min** spent."
            )
        upcoming = next_due(store, moment, checklist_item=queue_item)
        if upcoming is not None:
            st.markdown(f"Next review due **{local_time(upcoming, fmt='%a %d %b, %H:%M')}**.")
        st.caption(
            f"New cards: {store.settings().daily_new_limit} a day. Change it, and the recall the schedule "
            "aims for, under *Plan to the interview* on the Readiness page."
        )
        st.button(
            "Extra practice (does not change the schedule)",
            key=keys.PRACTICE_EXTRA,
            on_click=_start,
            args=(_extra_id(SCENARIOS if item_filter == SCENARIOS else queue_item, skipped),),
            kwargs={"scheduled": False},
        )

    def _answer_widgets(problem: Problem, current: Current) -> None:
        """What the problem's kind asks for: a number (Enter checks it), an option (keys 1 to n pick it,
        Enter checks it), or a recall."""
        if problem.kind is Kind.NUMERIC:
            with st.form(key="practice_form", enter_to_submit=True, border=False):
                st.text_input(
                    box_label(problem),
                    key=keys.PRACTICE_ANSWER,
                    placeholder=f"e.g. 12.5 {problem.unit}".strip(),
                )
                st.form_submit_button(
                    "Check", key=keys.PRACTICE_SUBMIT, type="primary", on_click=_submit_text
                )
            show_answer_help()
        elif problem.kind is Kind.CHOICE:
            show_choice(
                [choice.text for choice in problem.choices],
                picked=st.session_state.get(keys.PRACTICE_CHOICE),
                option_key=lambda i: f"{keys.PRACTICE_OPTION_PREFIX}{i}",
                on_pick=partial(st.session_state.__setitem__, keys.PRACTICE_CHOICE),
                check_key=keys.PRACTICE_SUBMIT,
                on_check=_submit_choice,
            )
        else:
            show_recall_answer(
                problem,
                started_at=current.started_at,
                revealed=bool(st.session_state.get(keys.PRACTICE_REVEALED)),
                on_reveal=lambda: st.session_state.__setitem__(keys.PRACTICE_REVEALED, True),
                on_rate=_answer,
                reveal_key=keys.PRACTICE_REVEAL,
                rate_prefix=keys.PRACTICE_RATE_PREFIX,
            )

    def _feedback(problem: Problem, verdict: Verdict, current: Current) -> None:
        """The verdict, its derivation, reading and roofline, then Next and another variant.

        Drawn with few elements: the browser's work per element, not the server's, is most of the wait
        after Enter. The reading and the roofline are one Markdown text, the buttons one row.
        """
        show_verdict_alerts(verdict)
        st.markdown(
            "\n\n".join(
                filter(None, (reading_markdown(problem, verdict), roofline_markdown(problem, verdict)))
            )
        )
        row = st.container(horizontal=True)
        row.button(
            "Next", key=keys.PRACTICE_NEXT, type="primary", on_click=_next, width="stretch", shortcut="N"
        )
        variant = variant_template_id(bank, problem.template_id, seed=current.seed)
        if variant is None:
            row.caption("This question has nothing to vary and its item has no other like it: press Next.")
            return
        row.button(
            "Another variant (not scheduled)"
            if variant == problem.template_id
            else f"Another {problem.kind.value} question on this item (not scheduled)",
            key=keys.PRACTICE_VARIANT,
            on_click=_start,
            args=(variant,),
            kwargs={"scheduled": False},
            width="stretch",
            shortcut="V",
        )

    # A fragment: an answer, Next or another variant reruns only this part, so the browser redraws the
    # feedback and the counts, not the title, the filter and the navigation. Everything that changes with
    # an answer is computed in here; what is above it changes only with the filter, which reruns the page.
    @st.fragment
    def practice_area(item_filter: str | None) -> None:
        moment = now()
        skipped = st.session_state.setdefault(keys.PRACTICE_SKIPPED, [])
        queue_templates, queue_item = queue_scope(
            bank, item_filter, everything=queue_order(bank, skip=skipped)
        )
        scope = (
            None if item_filter is None else "Scenarios" if item_filter == SCENARIOS else _title(item_filter)
        )
        queue = _counts(queue_templates, queue_item, moment, scope=scope)
        _choose(item_filter, queue, moment=moment, skipped=skipped)
        if keys.PRACTICE_CURRENT not in st.session_state:
            _nothing_due(item_filter, queue_item, moment, skipped)
            return

        current = Current.from_dict(st.session_state[keys.PRACTICE_CURRENT])
        try:
            if bank.is_scenario(current.template_id):
                _set_address(to_query(current))  # a refresh comes back to the same draw (at step 1)
                show_scenario(
                    store,
                    scenario_for(bank, current.template_id, current.seed, current.pins),
                    scheduled=current.scheduled,
                    caption="Scenario" + ("" if current.scheduled else " · extra practice, not scheduled"),
                    on_next=_next,
                    on_variant=partial(_start, current.template_id, scheduled=False),
                )
                return
            problem = problem_for(bank, current)
        except (KeyError, GenerationError) as exc:
            # The template left the bank since this tab chose it (a user folder changed), or this draw fails
            # or has no usable answer: skip the template for this session and go on with the next problem.
            skipped.append(current.template_id)
            _set_address({})  # a refresh must not bring the skipped draw back
            reason = exc.args[0] if exc.args else type(exc).__name__
            st.session_state[keys.PRACTICE_SKIP_NOTE] = (
                f"A problem was skipped and the next one is shown: {reason}"
            )
            _next()
            st.rerun()

        # The address names the problem on screen, answered or not: an answer leaves it as it is, as a change
        # of address is work the browser does while it draws the feedback. A refresh after the answer moves
        # on (_answered), so one problem is never graded twice.
        verdict = st.session_state.get(keys.PRACTICE_VERDICT)
        _set_address(to_query(current))
        skip_note = st.session_state.pop(keys.PRACTICE_SKIP_NOTE, None)
        if skip_note:
            st.info(skip_note, icon=":material/skip_next:")
        if scope is not None and not current.scheduled and queue.first is None:
            st.info(
                f"Nothing of *{escape_markdown(scope)}* is due and today's new cards are used up, "
                "so this is extra practice: it counts for readiness but does not move the schedule."
            )
        about = f"{_title(problem.checklist_item)} · difficulty {problem.difficulty}" + (
            "" if current.scheduled else " · extra practice, not scheduled"
        )
        # One Markdown element for the line about the problem and the problem itself.
        st.markdown(f":small[:gray[{escape_markdown(about)}]]\n\n{problem.prompt}")
        if verdict is None:
            _answer_widgets(problem, current)
        notice = st.session_state.get(keys.PRACTICE_NOTICE)
        if notice:
            st.warning(notice, icon=":material/edit:")
        if verdict is not None:
            _feedback(problem, verdict, current)

    practice_area(item_filter)
