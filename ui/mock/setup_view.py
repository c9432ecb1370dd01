"""Drawing the mock setup screen: a running mock to resume, else the form that configures and starts one.

The page owns which mock this tab shows and the notice it carries over a rerun, so it passes in
``attach`` and ``notice``; the store and the bank come in too, as each rerun of the page makes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from grader.wording import counted, with_article
from progress import Store, StoreError
from progress.mock.config import MAX_N_PROBLEMS, PRESET_MINUTES, TWO_SCENARIOS_FROM_S, Mix, MockConfig
from progress.mock.selection import NoCandidatesError
from progress.mock.session import MockRunningError, history, running_sessions
from question_bank import Bank
from ui import state_keys as keys
from ui.context import new_seed, now
from ui.mock.interview import start_mock
from ui.mock.interview_view import running_banner
from ui.mock.setup import CUSTOM, SetupDefaults

INTERVIEW_NOTE = (
    "Interview: every step of one scenario (two from 40 minutes), then this many single problems. "
    "Each step builds on the one before, graded at the debrief with follow-through."
)
MIX_LABELS = {
    Mix.EVERY_ITEM: "Every checklist item",
    Mix.WEAKEST_FIRST: "Weakest items first",
    Mix.INTERVIEW: "Interview: a scenario, then single problems",
}
LEVELS = {1: "1 warm-up", 2: "2", 3: "3 interview-hard"}


# --- callbacks: each runs once per click, before the page is drawn again -----------------------------
def _config(store: Store) -> MockConfig:
    choice = st.session_state[keys.MOCK_DURATION]
    minutes = (
        float(st.session_state.get(keys.MOCK_CUSTOM_MINUTES, 20.0)) if choice == CUSTOM else float(choice)
    )
    low, high = st.session_state[keys.MOCK_DIFFICULTY]
    return MockConfig.from_minutes(
        duration_min=minutes,
        n_problems=int(st.session_state[keys.MOCK_N_PROBLEMS]),
        mix=Mix(st.session_state[keys.MOCK_MIX]),
        difficulty=(int(low), int(high)),
        updates_schedule=store.settings().mock_updates_schedule,
    )


def _set_confirming(flag: bool) -> None:
    st.session_state[keys.MOCK_CONFIRMING] = flag


def _confirm_start(
    store: Store, bank: Bank, attach: Callable[[int], None], notice: Callable[[str, str], None]
) -> None:
    st.session_state[keys.MOCK_CONFIRMING] = False
    moment = now()
    try:
        session = start_mock(store, bank, config=_config(store), seed=new_seed(), now=moment)
    except (NoCandidatesError, MockRunningError, StoreError, ValueError) as exc:
        notice("error", str(exc))
        return
    attach(session.id)


def _save_setting(store: Store, notice: Callable[[str, str], None]) -> None:
    flag = bool(st.session_state[keys.MOCK_UPDATES_SCHEDULE])
    try:
        store.save_settings(replace(store.settings(), mock_updates_schedule=flag))
    except StoreError as exc:
        notice("error", str(exc))


# --- the screen --------------------------------------------------------------------------------------
def show_setup(
    store: Store,
    bank: Bank,
    *,
    attach: Callable[[int], None],
    notice: Callable[[str, str], None],
) -> None:
    """The setup screen: a running mock's banner and Resume, else the form, Start and its confirmation.

    ``attach(mock_id)`` puts a mock on this tab (the one resumed, or the one just started);
    ``notice(kind, text)`` keeps a refusal (``kind`` "error") to show after the rerun.
    """
    running = running_sessions(store)
    if running:
        running_banner(running[0])
        st.button("Resume", key=keys.MOCK_RESUME, type="primary", on_click=attach, args=(running[0].id,))
        return
    st.markdown("A fixed set across the checklist against the clock. Nothing is graded until the debrief.")
    # A new mock starts from the settings of the last one (a custom length, the problem count).
    past = history(store)
    last = SetupDefaults.of(past[0].config if past else None, presets=PRESET_MINUTES)
    durations = [*(str(m) for m in PRESET_MINUTES), CUSTOM]
    duration = st.radio(
        "Duration",
        durations,
        key=keys.MOCK_DURATION,
        index=durations.index(last.duration_choice),
        horizontal=True,
        format_func=lambda v: "Custom" if v == CUSTOM else f"{v} minutes",
    )
    if duration == CUSTOM:
        st.number_input(
            "Minutes",
            min_value=0.25,
            max_value=180.0,
            value=last.custom_minutes,
            step=0.25,
            format="%g",  # 8, 7.5, 7.25: minutes as people write them, not "8.00"
            key=keys.MOCK_CUSTOM_MINUTES,
        )
    st.number_input(
        "Number of problems",
        min_value=1,
        max_value=MAX_N_PROBLEMS,
        value=last.n_problems,
        key=keys.MOCK_N_PROBLEMS,
    )
    st.radio(
        "Mix",
        list(Mix),
        key=keys.MOCK_MIX,
        index=list(Mix).index(last.mix),
        format_func=MIX_LABELS.__getitem__,
        horizontal=True,
    )
    if st.session_state.get(keys.MOCK_MIX) == Mix.INTERVIEW:
        st.caption(INTERVIEW_NOTE)
    st.select_slider(
        "Difficulty",
        options=list(LEVELS),
        value=last.difficulty,
        format_func=LEVELS.__getitem__,
        key=keys.MOCK_DIFFICULTY,
    )
    st.toggle(
        "Mock answers also update the review schedule",
        value=store.settings().mock_updates_schedule,
        key=keys.MOCK_UPDATES_SCHEDULE,
        on_change=_save_setting,
        args=(store, notice),
        help="They always count for readiness.",
    )
    if not st.session_state.get(keys.MOCK_CONFIRMING):
        st.button("Start", key=keys.MOCK_START, type="primary", on_click=_set_confirming, args=(True,))
        return
    config = _config(store)
    asked = counted(config.n_problems, "problems")
    if config.mix is Mix.INTERVIEW:
        scenarios = "two scenarios" if config.duration_s >= TWO_SCENARIOS_FROM_S else "a scenario"
        asked = f"{scenarios}, then {counted(config.n_problems, 'single problems')}"
    st.warning(
        f"Start {with_article(f'{config.duration_s / 60:g}-minute mock')} with {asked}? "
        "The countdown starts at once and does not pause."
    )
    choice = st.container(horizontal=True)  # side by side, on a phone too
    choice.button(
        "Yes, start the clock",
        key=keys.MOCK_CONFIRM,
        type="primary",
        on_click=_confirm_start,
        args=(store, bank, attach, notice),
    )
    choice.button("Cancel", key=keys.MOCK_CANCEL, on_click=_set_confirming, args=(False,))
