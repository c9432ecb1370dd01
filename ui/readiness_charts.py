"""The readiness page's pictures (altair), each from a few aggregated rows, never from raw answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta

import altair as alt
import pandas as pd

from progress.aggregates import DailyAccuracy, DayCount, MockScore
from progress.readiness import DEFAULT_RULE, ItemReadiness, ItemStatus

#: Weeks shown in the calendar of reviews.
CALENDAR_WEEKS = 26
_STATUS_COLOURS = {
    ItemStatus.NOT_STARTED.value: "#9e9e9e",
    ItemStatus.LEARNING.value: "#e45756",
    ItemStatus.SHAKY.value: "#f2a93b",
    ItemStatus.READY.value: "#54a24b",
}
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def readiness_per_item(items: Sequence[ItemReadiness], titles: Mapping[str, str]) -> alt.LayerChart:
    """Horizontal bars of each item's score, coloured by status, with the ready line."""
    frame = pd.DataFrame(
        {
            "item": [titles.get(i.checklist_item, i.checklist_item) for i in items],
            "score": [round(i.score, 1) for i in items],
            "status": [i.status.value for i in items],
        }
    )
    colours = alt.Scale(domain=list(_STATUS_COLOURS), range=list(_STATUS_COLOURS.values()))
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("score:Q", scale=alt.Scale(domain=[0, 100]), title="Readiness (0–100)"),
            y=alt.Y("item:N", sort=None, title=None),
            color=alt.Color("status:N", scale=colours, title="Status"),
            tooltip=["item", "score", "status"],
        )
    )
    line = alt.Chart(pd.DataFrame({"score": [DEFAULT_RULE.ready_score]})).mark_rule(strokeDash=[4, 4])
    return bars + line.encode(x="score:Q")


def accuracy_over_time(points: Sequence[DailyAccuracy]) -> alt.Chart:
    """Daily accuracy (all items) as a line, with the number of answers in the tooltip."""
    frame = pd.DataFrame(
        {
            "day": [pd.Timestamp(p.day) for p in points],
            "accuracy": [p.accuracy for p in points],
            "answers": [p.n_answers for p in points],
        }
    )
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("day:T", title="Day (UTC)"),
            y=alt.Y(
                "accuracy:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"), title="Accuracy"
            ),
            tooltip=[alt.Tooltip("day:T"), alt.Tooltip("accuracy:Q", format=".0%"), "answers:Q"],
        )
    )


def review_calendar(counts: Sequence[DayCount], *, today: date) -> alt.Chart:
    """A calendar heatmap of reviews per day: a column per week, a row per weekday, the last 26 weeks."""
    by_day = {c.day: c.count for c in counts}
    first = today - timedelta(days=today.weekday()) - timedelta(weeks=CALENDAR_WEEKS - 1)
    days = [first + timedelta(days=i) for i in range((today - first).days + 1)]
    frame = pd.DataFrame(
        {
            "week": [(d - timedelta(days=d.weekday())).isoformat() for d in days],
            "weekday": [_WEEKDAYS[d.weekday()] for d in days],
            "day": [d.isoformat() for d in days],
            "reviews": [by_day.get(d, 0) for d in days],
        }
    )
    return (
        alt.Chart(frame)
        .mark_rect(cornerRadius=2)
        .encode(
            x=alt.X("week:O", title="Week starting", axis=alt.Axis(labelAngle=-45)),
            y=alt.Y("weekday:N", sort=list(_WEEKDAYS), title=None),
            color=alt.Color("reviews:Q", scale=alt.Scale(scheme="greens"), title="Reviews"),
            tooltip=["day:N", "reviews:Q"],
        )
    )


def mock_scores(mocks: Sequence[MockScore]) -> alt.Chart:
    """Each finished mock's score against the day it finished."""
    frame = pd.DataFrame(
        {"finished": [m.finished_at for m in mocks], "score": [m.score for m in mocks]},
    )
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("finished:T", title="Finished"),
            y=alt.Y("score:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"), title="Score"),
            tooltip=[alt.Tooltip("finished:T"), alt.Tooltip("score:Q", format=".0%")],
        )
    )


def time_per_answer(items: Sequence[ItemReadiness], titles: Mapping[str, str]) -> alt.LayerChart:
    """Recency-weighted seconds per answer per item, against the rule's target."""
    timed = [i for i in items if i.seconds_per_answer is not None]
    frame = pd.DataFrame(
        {
            "item": [titles.get(i.checklist_item, i.checklist_item) for i in timed],
            "seconds": [round(i.seconds_per_answer or 0.0) for i in timed],
        }
    )
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("seconds:Q", title="Seconds per answer"),
            y=alt.Y("item:N", sort=None, title=None),
            tooltip=["item", "seconds"],
        )
    )
    target = pd.DataFrame({"seconds": [DEFAULT_RULE.target_seconds_per_answer]})
    return bars + alt.Chart(target).mark_rule(color="#e45756", strokeDash=[4, 4]).encode(x="seconds:Q")
