"""The readiness page: each checklist item's readiness and why, and the plan to the interview.

``pages/readiness.py`` only calls :func:`show_readiness_page`: what the page draws and its
callbacks live here, so that ``pages/`` holds routing alone."""

from __future__ import annotations

import functools
from typing import Literal

import streamlit as st

from grader.markdown import markdown_table
from progress import ExportFormat, StoreError, export_attempts
from progress.aggregates import load_snapshot
from progress.attempt_rows import skipped_notice
from progress.readiness import DEFAULT_RULE, FactorName, Gate, ItemReadiness, ItemStatus, assess
from question_bank import load_checklist
from ui import cached
from ui import state_keys as keys
from ui.bank_view import bank_or_stop
from ui.context import db_path, now, user_zone
from ui.practice_link_view import practice_button
from ui.readiness import charts
from ui.readiness.plan_view import plan_section
from ui.shell_view import open_inside_app
from ui.store_notice_view import show_store_error


def show_readiness_page() -> None:
    """Draw the page, top to bottom, as one Streamlit run."""
    _GATE_TEXT = {
        Gate.SCORE: f"score ≥ {DEFAULT_RULE.ready_score:.0f}",
        Gate.ACCURACY: f"accuracy ≥ {DEFAULT_RULE.ready_min_accuracy:.0%}",
        Gate.RETRIEVABILITY: f"predicted recall ≥ {DEFAULT_RULE.ready_min_retrievability:.0%}",
        Gate.MOCKS: f"mock answers at least {DEFAULT_RULE.ready_min_mock_mean:.0%} right",
    }
    # The colours st.badge accepts.
    _BadgeColour = Literal["red", "orange", "yellow", "blue", "green", "violet", "gray", "grey", "primary"]

    _STATUS_BADGE: dict[ItemStatus, tuple[str, _BadgeColour]] = {
        ItemStatus.NOT_STARTED: ("not started", "gray"),
        ItemStatus.LEARNING: ("learning", "red"),
        ItemStatus.SHAKY: ("shaky", "orange"),
        ItemStatus.READY: ("ready", "green"),
    }

    # Retrievability (FSRS's word) is shown as the predicted recall the page speaks of; the shorter word
    # also keeps the factor table inside a phone's width.
    _FACTOR_LABELS = {FactorName.RETRIEVABILITY: "recall"}

    def _factor_label(name: FactorName) -> str:
        return _FACTOR_LABELS.get(name, name.value)

    def _factor_table(item: ItemReadiness) -> str:
        """The six factors as a Markdown table: a few hundred bytes, where a data grid sent ten Arrow
        tables."""
        return markdown_table(
            ("factor", "value", "weight", "points"),
            [
                (_factor_label(f.name), f"{f.value:.0%}", f"{f.weight:.0%}", f"{f.points:.1f}")
                for f in item.factors
            ],
            align=("left", "right", "right", "right"),
        )

    def _factor_details(item: ItemReadiness) -> str:
        """How each factor's number comes out, one line each: a table cell would cut these sentences off."""
        return "\n".join(f"- **{_factor_label(f.name)} {f.value:.0%}**: {f.detail}" for f in item.factors)

    open_inside_app("pages/readiness.py")
    st.title("Readiness")
    bank = bank_or_stop()
    checklist = load_checklist()
    titles = {item.id: item.title for item in checklist}
    moment = now()
    store = cached.store()
    try:
        snapshot = load_snapshot(
            store,
            template_ids_by_item={item.id: [t.id for t in bank.by_checklist(item.id)] for item in checklist},
            now=moment,
            cache=cached.snapshot_cache(),
        )
    except StoreError as exc:
        show_store_error(exc, key=keys.READY_START_AFRESH)
        st.stop()
    overall = assess(snapshot.evidence, now=moment)
    if snapshot.skipped_rows:
        st.warning(skipped_notice(snapshot.skipped_rows, where="are left out of readiness"))

    # --- the verdict -----------------------------------------------------------------------------------
    if snapshot.empty:
        st.info(
            "No answers yet, so every item is **not started**. Answer a few problems in Practice "
            "(ten minutes is plenty to begin); this page then shows, item by item, how ready you are and why."
        )
        practice_button(None, "Start practising", key=keys.READY_START)
    elif overall.ready:
        st.success(
            "**Ready.** Every checklist item is ready. Keep the daily reviews going until the interview."
        )
    else:
        n_back = len(overall.holding_back)
        st.warning(
            f"**Not ready yet:** {n_back} of {len(overall.items)} items hold you back. Next, weakest first:"
        )
        for item in overall.holding_back[:3]:
            step_col, go_col = st.columns([4, 1])
            first_step = next(iter(item.next_steps), "")
            step_col.markdown(f"**{titles[item.checklist_item]}** ({item.score:.0f}/100): {first_step}")
            with go_col:
                item_id = item.checklist_item
                practice_button(item_id, "Practise it", key=keys.READY_NEXT_PREFIX + item_id)

    # --- the ten items ---------------------------------------------------------------------------------
    st.subheader("The ten items")
    st.caption(
        f"Score 0–100 from six weighted factors; **ready** at {DEFAULT_RULE.ready_score:.0f} or more with "
        f"accuracy ≥ {DEFAULT_RULE.ready_min_accuracy:.0%} and predicted recall ≥ "
        f"{DEFAULT_RULE.ready_min_retrievability:.0%}. Recent answers count most (half-life "
        f"{DEFAULT_RULE.half_life_days:g} days)."
    )
    for entry, item in zip(checklist, overall.items, strict=True):
        label, colour = _STATUS_BADGE[item.status]
        with st.container(border=True):
            head, score_col = st.columns([4, 1])
            head.markdown(f"**{entry.title}**: {entry.ready_when}.")
            head.badge(label, color=colour)
            score_col.metric("Score", f"{item.score:.0f}")
            with st.expander("Why: factors and next steps"):
                st.markdown(_factor_table(item))
                st.markdown(_factor_details(item))
                if item.next_steps:
                    st.markdown("**Next steps**")
                for step in item.next_steps:
                    st.markdown(f"- {step}")
                if item.unmet and item.status is not ItemStatus.NOT_STARTED:
                    st.caption(
                        "Not yet met for ready: " + ", ".join(_GATE_TEXT[gate] for gate in item.unmet) + "."
                    )
                st.caption(f"Reading: {entry.reading}")
            if item.status is not ItemStatus.READY:
                practice_button(
                    entry.id, f"Practise {entry.title}", key=keys.READY_PRACTICE_PREFIX + entry.id
                )

    # --- pictures --------------------------------------------------------------------------------------
    st.subheader("Over time")
    per_item, accuracy, calendar, mocks, timing = st.tabs(
        ["Readiness per item", "Accuracy", "Reviews", "Mock scores", "Time per right answer"]
    )
    with per_item:
        st.vega_lite_chart(charts.readiness_per_item(overall.items, titles), width="stretch")
    with accuracy:
        if snapshot.daily_accuracy:
            st.vega_lite_chart(charts.accuracy_over_time(snapshot.daily_accuracy), width="stretch")
        else:
            st.info("Your daily accuracy appears here once you have answered problems in Practice.")
    with calendar:
        if snapshot.reviews_per_day:
            st.vega_lite_chart(
                charts.review_calendar(snapshot.reviews_per_day, today=moment.date()), width="content"
            )
        else:
            st.info(
                "A calendar of your spaced-repetition reviews fills in as you work through the daily queue."
            )
    with mocks:
        if snapshot.mock_scores:
            st.vega_lite_chart(charts.mock_scores(snapshot.mock_scores, zone=user_zone()), width="stretch")
        else:
            st.info(
                "No finished mock interview yet. Take one on the Mock interview page to see your scores here."
            )
    with timing:
        if any(item.seconds_per_answer is not None for item in overall.items):
            st.vega_lite_chart(charts.time_per_answer(overall.items, titles), width="stretch")
        else:
            st.info(
                "Seconds per right answer, item by item, against a "
                f"{DEFAULT_RULE.target_seconds_per_answer:.0f} s target, appear once you have answered "
                "problems right."
            )

    # --- plan to the interview -------------------------------------------------------------------------
    st.subheader("Plan to the interview")
    plan_section(snapshot, titles)

    # --- export ----------------------------------------------------------------------------------------
    st.subheader("Export")
    st.caption("Every answer you have given, the same as `python -m progress export`.")
    # Callables: a file is built only when its button is pressed, not on every rerun.
    for column, export_format, mime, key in zip(
        st.columns(2),
        (ExportFormat.CSV, ExportFormat.JSON),
        ("text/csv", "application/json"),
        (keys.READY_EXPORT_CSV, keys.READY_EXPORT_JSON),
        strict=True,
    ):
        column.download_button(
            f"Attempts as {export_format.value.upper()}",
            data=functools.partial(export_attempts, db_path(), export_format),
            file_name=f"roofline-drill-attempts.{export_format.value}",
            mime=mime,
            key=key,
            # No rerun on a click: a rerun while the file is built drops it ("Deferred file not found"),
            # and the other button's file with it when both are clicked in a row.
            on_click="ignore",
        )
