"""A mock's choice question answered from the keyboard in a real browser, as Practice's are: a number
key picks (and saves) an option, Enter saves it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser

from progress import Store
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.rows import mock_answers
from progress.mock.session import start
from question_bank import generate, load_bank

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
TEMPLATE = "decode-latency-levers"
SEED = 5
TIMEOUT_MS = 60_000


def test_number_keys_pick_a_mock_option_and_enter_saves_it(
    tmp_path: Path, browser: Browser, start_app: Callable[..., AppServer]
) -> None:
    problem = generate(load_bank().get(TEMPLATE), SEED)
    assert len(problem.choices) >= 2
    db = tmp_path / "progress.db"
    store = Store(db)
    config = MockConfig.from_minutes(duration_min=15, n_problems=1)
    session = start(store, config=config, problems=[ProblemRef(TEMPLATE, SEED)], now=datetime.now(UTC))
    server = start_app(db_path=db)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/mock_interview?mock={session.id}")
    main = page.get_by_test_id("stMain")
    first = main.get_by_role("button", name=problem.choices[0].text)
    first.click()  # the focus left on an option: the keys must still work there
    first.get_by_text("radio_button_checked").wait_for()
    page.keyboard.press("2")  # the second option replaces the first, and is saved
    second = main.get_by_role("button", name=problem.choices[1].text)
    second.get_by_text("radio_button_checked").wait_for()
    assert first.get_by_text("radio_button_unchecked").count() == 1
    [picked] = mock_answers(store, session.id)
    assert picked.response == "1"
    page.keyboard.press("Enter")  # Save answer, not a click on the focused first option
    main.get_by_text("Answer to problem 1 saved.").wait_for()
    assert second.get_by_text("radio_button_checked").count() == 1
    deadline = datetime.now(UTC).timestamp() + TIMEOUT_MS / 1000
    saved = picked
    while saved.answered_at == picked.answered_at and datetime.now(UTC).timestamp() < deadline:
        page.wait_for_timeout(100)  # the save is written before the rerun's page arrives; read until seen
        [saved] = mock_answers(store, session.id)
    assert saved.answered_at > picked.answered_at, "Enter saved the answer again"
    assert saved.response == "1"
    page.close()
