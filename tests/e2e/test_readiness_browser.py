"""The readiness page sends what an interaction changes, no more: editing the plan's settings sends
nothing, and saving them re-sends the plan alone, not the ten items and the charts above it, and
leaves the exports working."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser
from ws_messages import watch

from progress import Store

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
#: What the page shows above the plan, and the form itself: none of it changes when the plan is saved.
NOT_RESENT = {"delta:metric", "delta:vega_lite_chart", "delta:heading", "delta:number_input", "delta:slider"}


def test_editing_the_plan_sends_nothing_and_saving_resends_the_plan_alone(
    app_server: AppServer, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    frames = watch(page)
    page.goto(f"{app_server.url}/readiness")
    page.get_by_text("Set your interview date").wait_for()
    frames.settle(page, 0)
    assert frames.since(0)["delta:metric"] == 10  # the first visit draws the ten items

    mark = frames.mark()
    interview = datetime.now(UTC).date() + timedelta(days=30)
    date_box = page.get_by_test_id("stDateInput").locator("input")
    date_box.fill(interview.isoformat())
    date_box.press("Escape")  # closes the calendar that typing opened
    minutes = page.get_by_test_id("stNumberInput").filter(has_text="Minutes per day")
    minutes.get_by_test_id("stNumberInputStepUp").click()
    assert not frames.settle(page, mark)
    assert not [kind for kind in frames.since(mark) if kind.startswith("delta")]

    mark = frames.mark()
    page.get_by_role("button", name="Save plan settings").click()
    assert frames.settle(page, mark)
    resent = frames.since(mark)
    assert resent["delta:dataframe"] == 1 and resent["delta:toast"] == 1, resent
    assert not NOT_RESENT & set(resent), resent
    page.get_by_text("Plan settings saved.").wait_for()
    page.get_by_test_id("stDataFrame").wait_for()  # the day-by-day plan
    assert page.get_by_text("Set your interview date").count() == 0
    assert page.get_by_test_id("stMetric").count() == 10  # the items stay on the page
    saved = Store(app_server.db_path).settings()
    assert (saved.interview_date, saved.minutes_per_day) == (interview, 35)

    # The export buttons' files, registered by the full run, outlive the plan's own run.
    with page.expect_download() as download:
        page.get_by_role("button", name="Attempts as CSV").click()
    assert download.value.failure() is None
    page.close()
