"""The mock in a real browser where only a browser shows it: text typed but never applied at the
deadline, a refresh in the middle, and a second tab that finishes the mock."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from page_waits import until_idle
from playwright.sync_api import Browser, Page

from progress import Store
from progress.mock.rows import list_mocks, mock_answers

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
TIMEOUT_MS = 120_000
NUMBER_BOX = re.compile(r"^Your answer \(a bare number")


def _start_mock(page: Page, url: str, *, minutes: str, n_problems: int) -> None:
    page.goto(f"{url}/mock_interview")
    page.get_by_role("heading", name="Mock interview").wait_for()
    page.get_by_text("Custom", exact=True).click()
    box = page.get_by_label("Minutes", exact=True)
    box.fill(minutes)
    box.press("Enter")
    count = page.get_by_label("Number of problems")
    count.fill(str(n_problems))
    count.press("Enter")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Yes, start the clock").click()
    page.get_by_text("Time left").wait_for()


def _kept(store: Store, mock_id: int) -> dict[int, str | None]:
    """The mock's stored answers by position."""
    return {a.position: a.response for a in mock_answers(store, mock_id)}


def test_a_number_typed_without_enter_is_kept_at_the_deadline(
    start_app: Callable[..., AppServer], browser: Browser, tmp_path: Path
) -> None:
    # The test moves the server's clock past the deadline once the number is typed
    # (DRILL_CLOCK_SKIP_FILE, test-only), instead of waiting out the minute.
    skip = tmp_path / "clock-skip"
    app_server = start_app(db_path=tmp_path / "progress.db", env={"DRILL_CLOCK_SKIP_FILE": str(skip)})
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    _start_mock(page, app_server.url, minutes="1", n_problems=8)
    for _ in range(8):  # the first problem answered with a number
        page.get_by_text(re.compile(r"problem \d of 8")).wait_for()
        until_idle(page)
        shown = int(re.search(r"problem (\d) of 8", page.content()).group(1))
        if page.get_by_label(NUMBER_BOX).count():
            break
        page.get_by_role("button", name="Next").click()
        page.get_by_text(re.compile(rf"problem {shown + 1} of 8")).wait_for()
    position = shown - 1
    page.get_by_label(NUMBER_BOX).press_sequentially("484", delay=50)  # no Enter, no click elsewhere

    store = Store(app_server.db_path)
    [mock] = list_mocks(store)
    # Saved by the pause in typing alone (the page says nothing of it); then the minute passes with the
    # box still in focus. (A number typed less than the pause before the deadline is not saved.)
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline and _kept(store, mock.id).get(position) != "484":
        page.wait_for_timeout(100)
    skip.write_text("90", encoding="utf-8")
    page.get_by_text("Problem by problem").wait_for(timeout=TIMEOUT_MS)  # the clock ran out
    assert _kept(store, mock.id).get(position) == "484"
    assert list_mocks(store)[0].status == "finished"
    page.close()


def test_a_refresh_resumes_the_problem_and_a_finish_elsewhere_ends_this_tab(
    app_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    first = context.new_page()
    _start_mock(first, app_server.url, minutes="10", n_problems=3)
    first.get_by_role("button", name="Next").click()
    first.get_by_text(re.compile("problem 2 of 3")).wait_for()
    first.wait_for_url(re.compile(r"problem=2"))
    first.reload()
    first.get_by_text(re.compile("problem 2 of 3")).wait_for()

    second = context.new_page()  # the same mock in another tab, finished there
    second.goto(first.url)
    second.get_by_text("Time left").wait_for()
    second.get_by_role("button", name="Finish").click()
    assert list_mocks(Store(app_server.db_path))[0].status == "running"  # "Finish" asks first
    second.get_by_role("button", name="Yes, finish now").click()
    second.get_by_text("Problem by problem").wait_for()

    first.get_by_text("Problem by problem").wait_for()  # no click in the first tab
    assert first.get_by_text("Time left").count() == 0
    context.close()
