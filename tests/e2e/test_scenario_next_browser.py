"""Two scenarios in a row in a real browser, each finished and left with Next, then the due card after."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fsrs import Rating
from playwright.sync_api import Browser, Page, expect

from grader.problem import Kind
from progress import Settings, Store
from progress.scheduling import review
from question_bank import load_bank
from question_bank.scenarios import generate_scenario

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
ITEM = "decode-weight-read"
ITEM_TITLE = "Batch-1 decode reads the weights"
# Due in this order (the earliest first): two scenarios of the item, then one question of it.
DUE = ("scenario-measured-mbu", "scenario-speculative-decoding", "decode-13b-a100")


def _seed(db: Path) -> None:
    """Three cards of the item, all due now, and no new cards today: the queue is exactly DUE."""
    store = Store(db)
    store.save_settings(Settings(daily_new_limit=0))
    now = datetime.now(UTC)
    for days_ago, template_id in zip((3, 2, 1), DUE, strict=True):
        review(
            store,
            template_id=template_id,
            checklist_item=ITEM,
            rating=Rating.Again,
            now=now - timedelta(days=days_ago),
            enable_fuzzing=False,
        )


def _walk(page: Page, template_id: str) -> None:
    """Answer every step of the scenario on screen (right or wrong does not matter here)."""
    main = page.get_by_test_id("stMain")
    template = load_bank().scenario(template_id)
    main.get_by_role("heading", name=template.title).wait_for()
    steps = generate_scenario(template, 1).steps  # kinds and units do not depend on the draw
    for step in steps:
        main.get_by_text(f"Step {step.step} of {step.n_steps}").first.wait_for()
        if step.kind is Kind.NUMERIC:
            box = main.get_by_label(re.compile("Your answer"))
            box.fill(f"1 {step.unit}".strip())
            box.press("Enter")
        elif step.kind is Kind.CHOICE:
            main.get_by_role("button", name=step.choices[0].text).click()
            main.get_by_text("radio_button_checked").wait_for()
            page.keyboard.press("Enter")  # the option picked, Enter checks it
        else:
            main.get_by_role("button", name="Show the model answer").click()
            main.get_by_role("button", name="Good").click()
        if step.step < step.n_steps:
            main.get_by_role("button", name=re.compile("^Next step")).click()
    main.get_by_text(re.compile("Scenario done")).wait_for()


def test_next_leaves_each_finished_scenario_and_reaches_the_due_card(
    tmp_path: Path, browser: Browser, start_app: Callable[..., AppServer]
) -> None:
    db = tmp_path / "progress.db"
    _seed(db)
    server = start_app(db_path=db)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(server.url)
    page.get_by_text("Done today").wait_for()
    page.get_by_label("Checklist item").click()
    page.get_by_role("option", name=ITEM_TITLE).click()
    main = page.get_by_test_id("stMain")

    _walk(page, DUE[0])
    assert f"card={DUE[0]}" in page.url
    page.keyboard.press("n")  # Next by its key
    _walk(page, DUE[1])
    assert f"card={DUE[1]}" in page.url
    main.get_by_role("button", name=re.compile("^Next")).click()  # and by its button

    page.wait_for_url(re.compile(f"card={DUE[2]}&"))
    main.get_by_text(re.compile(r"Due 1 ·")).wait_for()
    main.get_by_label(re.compile("Your answer")).wait_for()
    # The finished scenario's last elements stay on screen until the new card's run is over.
    expect(main.get_by_text("Scenario done")).to_have_count(0)
    attempts = Store(db).attempts()
    assert {a.template_id for a in attempts} == set(DUE[:2]), "both scenarios were answered, step by step"
    page.close()
