"""A choice question answered from the keyboard in a real browser: a click, then a number key, then Enter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser

from progress import Store
from question_bank import generate, load_bank

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
TEMPLATE = "decode-latency-levers"
SEED = 5


def test_number_keys_pick_an_option_and_enter_checks_it(
    tmp_path: Path, browser: Browser, start_app: Callable[..., AppServer]
) -> None:
    problem = generate(load_bank().get(TEMPLATE), SEED)
    assert len(problem.choices) >= 2
    db = tmp_path / "progress.db"
    server = start_app(db_path=db)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{server.url}/?card={TEMPLATE}&seed={SEED}")
    main = page.get_by_test_id("stMain")
    first = main.get_by_role("button", name=problem.choices[0].text)
    first.click()  # a click on an option leaves the focus on it: the keys must still work there
    first.get_by_text("radio_button_checked").wait_for()
    page.keyboard.press("2")  # the second option replaces the first
    second = main.get_by_role("button", name=problem.choices[1].text)
    second.get_by_text("radio_button_checked").wait_for()
    assert first.get_by_text("radio_button_unchecked").count() == 1
    assert not Store(db).attempts(), "picking is not answering"
    page.keyboard.press("Enter")
    verdict = "Correct" if problem.choices[1].correct else "You chose"
    main.get_by_text(verdict).first.wait_for()
    main.get_by_role("button", name="Next").wait_for()
    [attempt] = Store(db).attempts()
    assert (attempt.template_id, attempt.seed, attempt.response) == (TEMPLATE, SEED, "1")
    page.close()
