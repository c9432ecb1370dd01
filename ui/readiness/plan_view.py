"""The readiness page's plan to the interview: its four settings, their Save button and the day-by-day plan.

Built so that the plan costs only what it changes. The settings are a form: editing one sends nothing
(the edit stays in the browser; until it is saved, the plan shown is the saved one anyway). Saving
reruns the plan alone, a fragment, and re-sends only it: not the verdict, the ten items and the charts
above it (they come from the answers, and none of them reads these settings), nor the form, which
already shows what was saved.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date, timedelta

import pandas as pd
import streamlit as st

from progress import Settings, StoreError
from progress.aggregates import Snapshot
from progress.plan import MAX_NEW_PER_DAY, StudyPlan, make_plan, seconds_per_card
from progress.readiness import ItemEvidence, seconds_per_answer
from progress.scheduling import scheduler_for
from progress.settings import MAX_INTERVIEW_DAYS_AHEAD
from progress.utc import day_start
from ui import cached
from ui import state_keys as keys
from ui.context import db_path, now

#: The recall-to-aim-for slider's range, in percent.
_RETENTION_RANGE = (70, 97)
# Names private to this section (none is a widget's value, so none is in ``state_keys``): the form's
# id, the plan fragment's key for ``st.rerun``, and where a failed save leaves its message for the plan.
_FORM = "ready_plan_form"
_PLAN = "ready_plan"
_SAVE_ERROR = "ready_plan_save_error"
# Set when the plan's suggested new-card limit was applied: the page then reruns in full.
_APPLIED = "ready_plan_new_limit_applied"


@st.cache_data(max_entries=32, show_spinner=False)
def _plan(
    db: str,
    version: tuple[int, int],
    today: date,
    settings: dict[str, object],
    titles: dict[str, str],
    _evidence: list[ItemEvidence],
) -> StudyPlan:
    # Keyed on the database, its data version, the settings and the day: the plan simulates hundreds of
    # days of reviews, so a rerun that changed none of these reuses it. ``_evidence`` is not hashed.
    del db, version
    chosen = Settings.from_dict(settings)
    measured_s = seconds_per_answer(_evidence, now=day_start(today))
    return make_plan(
        _evidence,
        today=today,
        interview_date=chosen.interview_date or today,
        minutes_per_day=chosen.minutes_per_day,
        seconds_per_card=seconds_per_card(answer_seconds=measured_s),
        daily_new_limit=chosen.daily_new_limit,
        scheduler=scheduler_for(chosen, enable_fuzzing=False),
        answer_seconds=measured_s,
        titles=titles,
    )


def _settings_form(settings: Settings) -> None:
    """The four settings as a form, shown as ``settings`` has them; its button saves them (:func:`_save`)."""
    # No submit on Enter: before the form, Enter in a number box only moved the value, never saved.
    with st.form(_FORM, border=False, enter_to_submit=False):
        date_col, minutes_col = st.columns(2)
        date_col.date_input(
            "Interview date",
            value=settings.interview_date,
            # As far ahead as a stored date may be read (the store's own clock read the saved one).
            max_value=max(
                now().date() + timedelta(days=MAX_INTERVIEW_DAYS_AHEAD), settings.interview_date or date.min
            ),
            key=keys.READY_INTERVIEW_DATE,
        )
        minutes_col.number_input(
            "Minutes per day",
            min_value=5,
            max_value=480,
            step=5,
            value=settings.minutes_per_day,
            key=keys.READY_MINUTES_PER_DAY,
        )
        new_col, retention_col = st.columns(2)
        new_col.number_input(
            "New cards a day",
            min_value=0,
            max_value=MAX_NEW_PER_DAY,
            value=settings.daily_new_limit,
            key=keys.READY_DAILY_NEW_LIMIT,
            help="How many questions Practice introduces each day, on top of the reviews due.",
        )
        low, high = _RETENTION_RANGE
        retention_col.slider(
            "Recall to aim for",
            min_value=low,
            max_value=high,
            step=1,
            value=min(max(round(settings.desired_retention * 100), low), high),
            key=keys.READY_DESIRED_RETENTION,
            format="%d%%",
            help="The chance of remembering a card when it falls due: higher means more frequent reviews.",
        )
        st.form_submit_button("Save plan settings", key=keys.READY_SAVE_SETTINGS, on_click=_save)


def _from_form(settings: Settings) -> Settings:
    """``settings`` with the four the form holds."""
    state = st.session_state
    return dataclasses.replace(
        settings,
        interview_date=state[keys.READY_INTERVIEW_DATE],
        minutes_per_day=int(state[keys.READY_MINUTES_PER_DAY]),
        daily_new_limit=int(state[keys.READY_DAILY_NEW_LIMIT]),
        desired_retention=state[keys.READY_DESIRED_RETENTION] / 100,
    )


def _save() -> None:
    """Save the form's settings, then rerun the plan alone: nothing else on the page reads them."""
    store = cached.store()
    try:
        store.save_settings(_from_form(store.settings()))
    except StoreError as exc:
        st.session_state[_SAVE_ERROR] = str(exc)  # the plan shows it, under the Save button
    else:
        st.toast("Plan settings saved.")
    st.rerun(_PLAN)


#: The plan table's columns: narrow (pixels, together under a phone's 358), each header explained on hover.
PLAN_COLUMNS = {
    "day": st.column_config.TextColumn("day", width=92),
    "new": st.column_config.NumberColumn(
        "new", help="New cards: question types met for the first time", width=52
    ),
    "reviews": st.column_config.NumberColumn("reviews", help="Scheduled reviews due that day", width=70),
    "extra": st.column_config.NumberColumn(
        "extra", help="Extra variants: practice without scheduling effect", width=56
    ),
    "min": st.column_config.NumberColumn("min", help="Minutes of practice that day", width=52),
}


def _show_plan(plan: StudyPlan, settings: Settings) -> None:
    if not plan.practice_enough:
        st.error(plan.warning or "")
    elif plan.warning:
        st.warning(plan.warning)
    else:
        st.success(
            f"At {settings.minutes_per_day} minutes a day, every item can be ready by {plan.interview_date}."
        )
    st.caption(use_of_time(plan, settings))
    _cramming(plan, settings)
    if plan.days:
        # Short columns, so that all five, minutes included, fit a phone's width without scrolling.
        table = pd.DataFrame(
            {
                "day": [f"{d.day:%a} {d.day.day} {d.day:%b}" for d in plan.days],
                "new": [d.new_cards for d in plan.days],
                "reviews": [d.reviews for d in plan.days],
                "extra": [d.extra_variants for d in plan.days],
                "min": [round(d.minutes) for d in plan.days],
            }
        )
        st.dataframe(table, hide_index=True, column_config=PLAN_COLUMNS)


def _span(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def use_of_time(plan: StudyPlan, settings: Settings) -> str:
    """What the plan does with the minutes, in the table's own figures: the cards a day it uses of those
    that fit, and why any minutes are left."""
    views, minutes = plan.views_range, plan.minutes_range
    text = (
        f"The plan uses {_span(*views)} cards and {_span(*minutes)} minutes a day; "
        f"{settings.minutes_per_day} minutes hold up to {plan.cards_per_day} cards at about "
        f"{plan.seconds_per_card:.0f} s each (your answer time plus reading the feedback)."
    )
    if minutes[1] < settings.minutes_per_day * 0.9:
        why = (
            f"new cards are capped at {settings.daily_new_limit} a day (*New cards a day*)"
            if plan.types_met < plan.types_to_meet
            else "every question type is met and only due reviews remain"
        )
        text += f" Time is left over because {why}: mock interviews fit there."
    return text + (
        " Extra variants are practice without scheduling effect, for items short of recent answers, "
        "spread over the days with room."
    )


def _apply_new_limit(limit: int) -> None:
    """Save ``limit`` new cards a day, and show it in the form too (the page reruns in full)."""
    store = cached.store()
    try:
        store.save_settings(dataclasses.replace(store.settings(), daily_new_limit=limit))
    except StoreError as exc:
        st.session_state[_SAVE_ERROR] = str(exc)
        return
    st.session_state[keys.READY_DAILY_NEW_LIMIT] = limit
    st.session_state[_APPLIED] = True
    st.toast(f"New cards a day: {limit}.")


def _cramming(plan: StudyPlan, settings: Settings) -> None:
    """How many question types the new cards meet before the date, and one click to meet them all."""
    if plan.types_met >= plan.types_to_meet or not plan.days:
        return
    met = (
        f"At {settings.daily_new_limit} new cards a day, the plan meets {plan.types_met} of "
        f"{plan.types_to_meet} question types before {plan.interview_date.isoformat()}."
    )
    limit = plan.new_limit_to_meet_all
    if limit is None:
        st.info(
            f"{met} No limit up to {MAX_NEW_PER_DAY} a day meets them all in {settings.minutes_per_day} "
            "minutes a day: more minutes a day, or a later date, would.",
            icon=":material/bolt:",
        )
        return
    st.info(f"{met} **{limit} a day** meets every one of them.", icon=":material/bolt:")
    st.button(
        f"Use {limit} new cards a day",
        key=keys.READY_APPLY_NEW_LIMIT,
        icon=":material/bolt:",
        on_click=_apply_new_limit,
        args=(limit,),
    )


@st.fragment(key=_PLAN)
def _plan_view(snapshot: Snapshot, titles: Mapping[str, str]) -> None:
    """The plan the saved settings give; rerun on its own by :func:`_save`.

    ``snapshot`` is the page's last full run's, so the plan always matches the items shown above it;
    the settings and the day are read afresh on every run.
    """
    if st.session_state.pop(_APPLIED, False):
        st.rerun(scope="app")  # the form above shows the new limit only after a full run
    error = st.session_state.pop(_SAVE_ERROR, None)
    if error:
        st.error(error)
    try:
        settings = cached.store().settings()
    except StoreError as exc:
        st.error(str(exc))
        return
    if settings.interview_date is None:
        st.info(
            "Set your interview date and the minutes you can spend a day, then save: a day-by-day plan "
            "appears."
        )
        return
    plan = _plan(
        str(db_path()),
        snapshot.version,
        now().date(),
        dict(settings.to_dict()),
        dict(titles),
        list(snapshot.evidence),
    )
    _show_plan(plan, settings)


@st.fragment
def plan_section(snapshot: Snapshot, titles: Mapping[str, str]) -> None:
    """The settings form and, under it, the plan they give.

    A fragment too, though :func:`_save` reruns only the plan inside it: a press of a button in a
    fragment asks for a fragment run, while one outside asks for a full run, and a full run drops the
    export buttons' files from the server even when a callback then narrows it to a fragment (the next
    export press would find its file gone).
    """
    try:
        settings, notices = cached.store().settings_read()
    except StoreError as exc:
        st.error(str(exc))
        return
    for notice in notices:
        st.warning(notice)
    _settings_form(settings)
    _plan_view(snapshot, titles)
