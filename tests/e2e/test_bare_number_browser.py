"""A bare number in a real browser: read in the box's unit, for the grade and the exported value alike."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from exported import exported
from playwright.sync_api import Browser

from grader.units import format_number
from question_bank import generate, load_bank

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
TEMPLATE = "decode-13b-a100"  # asked in ms: "what is the lower bound on the time to generate one token?"
SEED = 11


def test_the_answer_in_seconds_typed_bare_on_a_ms_box_is_not_counted_and_with_its_unit_is_stored_in_s(
    tmp_path: Path, browser: Browser, start_app: Callable[..., AppServer]
) -> None:
    problem = generate(load_bank().get(TEMPLATE), SEED)
    assert problem.unit == "ms" and problem.answer is not None
    seconds = format_number(problem.answer)  # such as 0.0167: right in s, read as 0.0167 ms
    db = tmp_path / "progress.db"
    server = start_app(db_path=db)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{server.url}/?card={TEMPLATE}&seed={SEED}")
    main = page.get_by_test_id("stMain")
    box = main.get_by_label(re.compile("Your answer"))
    box.fill(seconds)
    box.press("Enter")
    notice = main.get_by_test_id("stAlertContentWarning")
    notice.get_by_text(f"read as {seconds} ms; if you meant seconds, type {seconds} s").wait_for()
    assert main.get_by_role("button", name="Next").count() == 0, "not counted: the box stays for a new try"
    assert exported(db) == [], "nothing stored"
    box.fill(f"{seconds} s")
    box.press("Enter")
    main.get_by_test_id("stAlertContentSuccess").wait_for()
    [attempt] = exported(db)
    assert attempt["status"] == "correct"
    assert float(attempt["value"]) == pytest.approx(problem.answer, rel=1e-3), "stored in seconds, as graded"
    page.close()
