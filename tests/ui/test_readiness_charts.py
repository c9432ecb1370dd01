"""The readiness charts' Vega-Lite dicts: mock times in the user's zone, a calendar as long as the history,
the time target inside the plot."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from progress.aggregates import DayCount, MockScore
from progress.readiness import DEFAULT_RULE, ItemReadiness, ItemStatus
from ui.readiness import charts

TODAY = date(2026, 12, 1)
BERLIN = ZoneInfo("Europe/Berlin")


def _values(spec: dict, layer: int = 0) -> list[dict]:
    return spec["layer"][layer]["data"]["values"]


def test_mocks_minutes_apart_get_one_readable_label_each_in_the_users_zone() -> None:
    mocks = [
        MockScore(mock_id=2, finished_at=datetime(2026, 12, 1, 3, 6, tzinfo=UTC), score=0.5),
        MockScore(mock_id=1, finished_at=datetime(2026, 12, 1, 2, 58, tzinfo=UTC), score=0.25),
    ]
    spec = charts.mock_scores(mocks, zone=BERLIN)
    rows = _values(spec)
    assert [row["mock"] for row in rows] == ["#1 01 Dec 03:58", "#2 01 Dec 04:06"]  # CET is UTC+1
    assert rows[0]["finished"].endswith("03:58 CET")
    assert spec["layer"][0]["encoding"]["x"]["type"] == "ordinal", "evenly spaced, no minute ticks"


def test_a_new_users_calendar_is_a_short_block_not_a_strip_nor_26_empty_weeks() -> None:
    spec = charts.review_calendar([DayCount(day=TODAY, count=4)], today=TODAY)
    rows = _values(spec)
    weeks = list(dict.fromkeys(row["week"] for row in rows))
    assert len(weeks) == charts.CALENDAR_MIN_WEEKS and weeks[-1] == "30 Nov"
    assert [row["reviews"] for row in rows if row["weekday"] == "Tue"] == [0] * 7 + [4]
    assert spec["width"] == {"step": charts.CALENDAR_CELL_PX}, "squares, not stretched over the page"


def test_a_long_history_shows_at_most_the_last_weeks() -> None:
    old = [DayCount(day=TODAY - timedelta(days=400), count=1), DayCount(day=TODAY, count=2)]
    weeks = {row["week"] for row in _values(charts.review_calendar(old, today=TODAY))}
    assert len(weeks) == charts.CALENDAR_WEEKS


@pytest.mark.parametrize("seconds", [30.0, 119.0, 500.0])
def test_the_time_target_sits_inside_the_plot(seconds: float) -> None:
    timed = ItemReadiness("kv-cache", 50.0, ItemStatus.LEARNING, (), (), seconds, ())
    spec = charts.time_per_answer([timed], {"kv-cache": "KV-cache bytes"})
    top = spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1]
    assert top > 1.1 * max(seconds, DEFAULT_RULE.target_seconds_per_answer)
    assert f"target {DEFAULT_RULE.target_seconds_per_answer:.0f} s" in json.dumps(spec)


def test_a_long_item_name_goes_on_two_lines_not_cut() -> None:
    item = ItemReadiness("decode-weight-read", 50.0, ItemStatus.LEARNING, (), (), 40.0, ())
    title = "Batch-1 decode reads the weights"
    for spec in (charts.readiness_per_item([item], {item.checklist_item: title}),
                 charts.time_per_answer([item], {item.checklist_item: title})):  # fmt: skip
        [label] = [row["item"] for row in _values(spec) if "item" in row]
        lines = label.split("\n")
        assert " ".join(lines) == title and len(lines) == 2
        assert max(map(len, lines)) <= charts.ITEM_LABEL_CHARS
        axis = spec["layer"][0]["encoding"]["y"]["axis"]
        assert axis["labelLimit"] == 0 and "split" in axis["labelExpr"]


def test_charts_are_plain_data() -> None:
    item = ItemReadiness("kv-cache", 85.0, ItemStatus.READY, (), (), 40.0, ())
    rows = _values(charts.readiness_per_item([item], {"kv-cache": "KV-cache bytes"}))
    assert rows == [{"item": "KV-cache bytes", "score": 85.0, "status": "ready"}]
