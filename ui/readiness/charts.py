"""The readiness page's pictures as Vega-Lite dicts, each from a few aggregated rows, never from raw answers.

Written as dicts rather than through altair: the page redraws all five on every rerun, and an altair
build validates each against the whole schema (the larger part of a rerun's time at the time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta, tzinfo
from typing import Any

from progress.aggregates import DailyAccuracy, DayCount, MockScore
from progress.readiness import DEFAULT_RULE, ItemReadiness, ItemStatus
from ui import vega

#: At most this many weeks shown in the calendar of reviews (it starts at the week of the first review).
CALENDAR_WEEKS = 26
#: At least this many weeks shown, so that a new user's calendar is a block, not a thin strip on a phone.
CALENDAR_MIN_WEEKS = 8
#: Side of one day's square in the calendar, in pixels.
CALENDAR_CELL_PX = 20
_STATUS_COLOURS = {
    ItemStatus.NOT_STARTED.value: vega.GREY,
    ItemStatus.LEARNING.value: vega.RED,
    ItemStatus.SHAKY.value: "#f2a93b",
    ItemStatus.READY.value: vega.GREEN,
}
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
# Charts are fitted into their height, axes and legends included: bars get this many pixels each
# plus room for the axis (and the legend under it).
_BAR_PX, _AXIS_PX, _LEGEND_PX = 34, 70, 60  # a bar's row holds a two-line name
_PERCENT_AXIS = {"format": "%"}


#: An item's name longer than this goes on two lines beside its bar, rather than being cut ("reads the wei…").
ITEM_LABEL_CHARS = 20
_ITEM_AXIS = {
    "field": "item",
    "type": "nominal",
    "sort": None,
    "title": None,
    # The name's lines travel joined by a newline; Vega draws an array of strings as lines.
    "axis": {
        "labelLimit": 0,
        "labelOverlap": False,
        "labelLineHeight": 12,
        "labelExpr": "split(datum.label, '\\n')",
    },
}


def item_label(title: str) -> str:
    """An item's name as the bar charts label it: one line, or two split at a space near the middle."""
    if len(title) <= ITEM_LABEL_CHARS or " " not in title:
        return title
    spaces = [i for i, c in enumerate(title) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    return f"{title[:cut]}\n{title[cut + 1 :]}"


def readiness_per_item(items: Sequence[ItemReadiness], titles: Mapping[str, str]) -> dict[str, Any]:
    """Horizontal bars of each item's score, coloured by status, with the ready line."""
    rows = [
        {
            "item": item_label(titles.get(i.checklist_item, i.checklist_item)),
            "score": round(i.score, 1),
            "status": i.status.value,
        }
        for i in items
    ]
    bars = {
        "data": {"values": rows},
        "mark": "bar",
        "encoding": {
            "x": {
                "field": "score",
                "type": "quantitative",
                "scale": {"domain": [0, 100]},
                "title": "Readiness (0–100)",
            },
            "y": _ITEM_AXIS,
            "color": {
                "field": "status",
                "type": "nominal",
                "title": "Status",
                "scale": {"domain": list(_STATUS_COLOURS), "range": list(_STATUS_COLOURS.values())},
                "legend": {"orient": "bottom", "direction": "horizontal", "columns": 2},
            },
            "tooltip": [{"field": "item"}, {"field": "score", "type": "quantitative"}, {"field": "status"}],
        },
    }
    ready = {
        "data": {"values": [{"score": DEFAULT_RULE.ready_score}]},
        "mark": {"type": "rule", "strokeDash": [4, 4]},
        "encoding": {"x": {"field": "score", "type": "quantitative"}},
    }
    return vega.chart([bars, ready], height=_BAR_PX * max(1, len(rows)) + _AXIS_PX + _LEGEND_PX)


def accuracy_over_time(points: Sequence[DailyAccuracy]) -> dict[str, Any]:
    """Daily accuracy (all items) as a line, with the number of answers in the tooltip."""
    # Rounded: the rows travel as JSON on every rerun, and a tooltip shows whole percents.
    rows = [
        {"day": p.day.isoformat(), "accuracy": round(p.accuracy, 4), "answers": p.n_answers} for p in points
    ]
    day = {
        "field": "day",
        "type": "temporal",
        "timeUnit": "utcyearmonthdate",
        "title": "Day (UTC)",
        "axis": {"format": "%d %b", "formatType": "utc", "labelAngle": -45},
    }
    line = {
        "data": {"values": rows},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": day,
            "y": {
                "field": "accuracy",
                "type": "quantitative",
                "scale": {"domain": [0, 1]},
                "axis": _PERCENT_AXIS,
                "title": "Accuracy",
            },
            "tooltip": [
                {**day, "format": "%a %d %b %Y", "title": "Day (UTC)"},
                {"field": "accuracy", "type": "quantitative", "format": ".0%"},
                {"field": "answers", "type": "quantitative"},
            ],
        },
    }
    return vega.chart([line], height=340)


def calendar_start(counts: Sequence[DayCount], *, today: date) -> date:
    """The Monday the calendar starts on: the week of the first review, at most ``CALENDAR_WEEKS`` back
    and at least ``CALENDAR_MIN_WEEKS``."""
    this_monday = today - timedelta(days=today.weekday())
    earliest = this_monday - timedelta(weeks=CALENDAR_WEEKS - 1)
    latest = this_monday - timedelta(weeks=CALENDAR_MIN_WEEKS - 1)
    first = min((c.day for c in counts if c.count), default=today)
    return max(earliest, min(latest, first - timedelta(days=first.weekday())))


def review_calendar(counts: Sequence[DayCount], *, today: date) -> dict[str, Any]:
    """A calendar heatmap of reviews per day: a column per week, a row per weekday, since the first review.

    Each day is a square of ``CALENDAR_CELL_PX``, so a new user sees a short calendar, not six months
    of empty weeks stretched over the page.
    """
    by_day = {c.day: c.count for c in counts}
    first = calendar_start(counts, today=today)
    days = [first + timedelta(days=i) for i in range((today - first).days + 1)]
    # A cell per day travels as JSON on every rerun: only what the picture and its tooltip need.
    rows = [
        {
            "week": (d - timedelta(days=d.weekday())).strftime("%d %b"),
            "weekday": _WEEKDAYS[d.weekday()],
            "reviews": by_day.get(d, 0),
        }
        for d in days
    ]
    cells = {
        "data": {"values": rows},
        "mark": {"type": "rect", "cornerRadius": 2},
        "encoding": {
            "x": {"field": "week", "type": "ordinal", "sort": None, "title": "Week starting",
                  "axis": {"labelAngle": -45}},
            "y": {"field": "weekday", "type": "ordinal", "sort": list(_WEEKDAYS), "title": None},
            "color": {"field": "reviews", "type": "quantitative", "scale": {"scheme": "greens"},
                      "title": "Reviews"},
            "tooltip": [{"field": "week", "title": "Week starting"}, {"field": "weekday", "title": "Day"},
                        {"field": "reviews", "type": "quantitative"}],
        },
    }  # fmt: skip
    spec = vega.chart([cells], height=0)
    spec["width"] = {"step": CALENDAR_CELL_PX}
    spec["height"] = {"step": CALENDAR_CELL_PX}
    return spec


def mock_scores(mocks: Sequence[MockScore], *, zone: tzinfo) -> dict[str, Any]:
    """Each finished mock's score, in order, labelled with when it finished in the user's ``zone``.

    One evenly spaced point per mock: on a time axis two mocks minutes apart crowd each other and
    the ticks fall back to minute labels such as ``:58``.
    """
    rows = []
    for number, mock in enumerate(sorted(mocks, key=lambda m: m.finished_at), start=1):
        local = mock.finished_at.astimezone(zone)
        rows.append(
            {
                "mock": f"#{number} {local:%d %b %H:%M}",
                "finished": f"{local:%a %d %b %Y, %H:%M} {local.tzname() or ''}".rstrip(),
                "score": mock.score,
            }
        )
    line = {
        "data": {"values": rows},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "mock", "type": "ordinal", "sort": None, "title": "Mock (finished, your time)",
                  "axis": {"labelAngle": -45}},
            "y": {"field": "score", "type": "quantitative", "scale": {"domain": [0, 1]},
                  "axis": _PERCENT_AXIS, "title": "Score"},
            "tooltip": [{"field": "finished", "title": "Finished"},
                        {"field": "score", "type": "quantitative", "format": ".0%"}],
        },
    }  # fmt: skip
    return vega.chart([line], height=340)


def time_per_answer(items: Sequence[ItemReadiness], titles: Mapping[str, str]) -> dict[str, Any]:
    """Recency-weighted seconds per right answer per item (the time factor's figure), against the rule's
    target (drawn inside the plot)."""
    timed = [i for i in items if i.seconds_per_answer is not None]
    per_item = [round(i.seconds_per_answer or 0.0) for i in timed]
    rows = [
        {"item": item_label(titles.get(i.checklist_item, i.checklist_item)), "seconds": seconds}
        for i, seconds in zip(timed, per_item, strict=True)
    ]
    target = DEFAULT_RULE.target_seconds_per_answer
    # The axis reaches past both the slowest item and the target, so the target line never sits on the edge.
    top = 1.15 * max([target, *per_item])
    seconds = {
        "field": "seconds",
        "type": "quantitative",
        "title": "Seconds per right answer",
        "scale": {"domain": [0, top]},
    }
    bars = {
        "data": {"values": rows},
        "mark": "bar",
        "encoding": {
            "x": seconds,
            "y": _ITEM_AXIS,
            "tooltip": [{"field": "item"}, {"field": "seconds", "type": "quantitative"}],
        },
    }
    goal: dict[str, Any] = {
        "data": {"values": [{"seconds": target, "text": f"target {target:.0f} s"}]},
        "encoding": {"x": seconds},
    }
    return vega.chart(
        [
            bars,
            {**goal, "mark": {"type": "rule", "color": vega.RED, "strokeDash": [4, 4], "strokeWidth": 2}},
            {
                **goal,
                "mark": {
                    "type": "text",
                    "color": vega.RED,
                    "align": "left",
                    "dx": 4,
                    "y": 0,
                    "baseline": "top",
                },
                "encoding": {**goal["encoding"], "text": {"field": "text"}},
            },
        ],
        height=_BAR_PX * max(1, len(rows)) + _AXIS_PX,
    )
