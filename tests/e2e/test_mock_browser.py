"""A short mock in a real browser: answer one of two problems, let the clock run out, keep the scorecard."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page

from progress import Store
from progress.mock.rows import list_mocks, mock_answers

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser

# A one-minute mock, as a user would set it, on a server whose clock the test moves past the deadline
# once it has answered (DRILL_CLOCK_SKIP_FILE, test-only): no minute of waiting, and no race between a
# busy machine's answer and the clock. Waits allow a slow machine.
MINUTES = "1"
TIMEOUT_MS = 120_000


@pytest.fixture
def app_server(start_app: Callable[..., AppServer], tmp_path: Path) -> AppServer:
    skip = tmp_path / "clock-skip"
    return start_app(db_path=tmp_path / "progress.db", env={"DRILL_CLOCK_SKIP_FILE": str(skip)})


def _answer_first_problem(page: Page) -> None:
    """Give some answer to whatever kind of problem is shown: a number, an option or a few words.

    The widget is found by its kind, not its label: a numeric box's label depends on the problem's unit
    (a unitless or two-part question reads differently), and the mock draws its problems at random.
    """
    page.get_by_label("Number of problems").wait_for(state="detached")  # the setup's widgets are gone
    page.get_by_role("button", name="Save answer").wait_for()
    main = page.get_by_test_id("stMain")
    widget = main.locator("[data-testid=stTextInput] input, [data-testid=stTextArea] textarea")
    options = main.get_by_text("to pick an option, then Enter to save")  # a choice: its keys' caption
    widget.or_(options).first.wait_for()
    tag = widget.first.evaluate("element => element.tagName") if widget.count() else "CHOICE"
    if tag == "INPUT":
        widget.first.fill("42")
    elif tag == "TEXTAREA":
        widget.first.fill("Each weight is read once per token and used in one multiply-add.")
    else:
        page.keyboard.press("1")  # the first option, picked as in Practice
    page.get_by_role("button", name="Save answer").click()
    # Saved whatever the draw: "42" on a question that also asks for the regime is saved with a note
    # that it cannot be read yet ("Answer to problem 1 saved, but it cannot be read. ...").
    page.get_by_text(re.compile(r"^Answer to problem 1 saved\b")).wait_for(timeout=TIMEOUT_MS)


def test_a_one_minute_mock_runs_out_into_a_debrief_and_a_scorecard(
    app_server: AppServer, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{app_server.url}/mock_interview")
    page.get_by_role("heading", name="Mock interview").wait_for()

    page.get_by_text("Custom", exact=True).click()
    minutes = page.get_by_label("Minutes", exact=True)
    minutes.fill(MINUTES)
    minutes.press("Enter")
    problems = page.get_by_label("Number of problems")
    problems.fill("2")
    problems.press("Enter")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_text("Start a 1-minute mock with 2 problems?").wait_for()
    assert list_mocks(Store(app_server.db_path)) == []  # the first click only asks
    page.get_by_role("button", name="Yes, start the clock").click()

    page.get_by_text("Time left").wait_for()
    clock = page.get_by_test_id("stMetricValue")
    shown = clock.inner_text()
    page.wait_for_function(  # the countdown redraws itself, with no click
        "shown => document.querySelector('[data-testid=stMetricValue]').innerText !== shown", arg=shown
    )
    page.get_by_text(re.compile(r"problem 1 of 2")).wait_for()
    assert "mock=" in page.url  # a refresh comes back to this mock
    _answer_first_problem(page)

    # Nobody clicks anything now: the minute passes, and the countdown turns the page into the debrief.
    (tmp_path / "clock-skip").write_text("90", encoding="utf-8")
    download = page.get_by_role("button", name="Download the scorecard (Markdown)")
    download.wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("Problem by problem").wait_for()
    assert page.get_by_text("Time left").count() == 0

    with page.expect_download() as event:
        download.click()
    saved = tmp_path / "scorecard.md"
    event.value.save_as(saved)
    scorecard = saved.read_text(encoding="utf-8")
    assert scorecard.startswith("# Roofline Drill mock interview #1")
    assert "(no answer)" in scorecard  # the second problem was left unanswered
    assert re.search(r"\*\*Score: \d+%\*\* \(\d of 2 correct\)", scorecard)

    [mock] = list_mocks(Store(app_server.db_path))
    assert mock.status == "finished"
    assert len(mock_answers(Store(app_server.db_path), mock.id)) == 1
    page.close()
