"""The daily-practice journey in a real browser: answer right, answer wrong, restart, progress kept."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from exported import exported
from ws_messages import watch

from grader import Kind, Problem
from grader.units import format_quantity
from question_bank import generate, load_bank
from ui.context import next_seed
from ui.practice.loop import queue_order

pytestmark = pytest.mark.browser
FIRST_SEED = 20261129


def _answer(page: object, problem: Problem, *, right: bool) -> None:
    """Answer the problem on screen through the visible widgets, right or deliberately wrong."""
    if problem.kind is Kind.NUMERIC:
        assert problem.answer is not None
        value = problem.answer if right else problem.answer * 37
        box = page.get_by_label(re.compile("Your answer"))
        box.fill(format_quantity(value, problem.unit))
        box.press("Enter")
    elif problem.kind is Kind.CHOICE:
        choice = next(c for c in problem.choices if c.correct is right)
        page.get_by_text(choice.text, exact=True).click()
        page.get_by_role("button", name="Check").click()
    else:
        page.get_by_role("button", name="Show the model answer").click()
        page.get_by_role("button", name="Good" if right else "Again").click()


# The counts line above the problem: "Due 1 · New today 2 · Done today 0 · Streak 0 days".
_DONE_TODAY = r"Done today (\d+)"


def _done_today(page: object) -> str:
    line = page.get_by_test_id("stMarkdownContainer").filter(has_text="Done today")
    match = re.search(_DONE_TODAY, line.inner_text())
    assert match, line.inner_text()
    return match.group(1)


def test_practice_journey_survives_a_restart(
    tmp_path: Path, browser: object, start_app: Callable[..., object]
) -> None:
    bank = load_bank()
    order = [template_id for template_id, _ in queue_order(bank)]
    first_seed = next_seed(FIRST_SEED)
    problems = [
        generate(bank.get(order[0]), first_seed),
        generate(bank.get(order[1]), next_seed(first_seed)),
    ]
    db = tmp_path / "progress.db"
    env = {"DRILL_SEED": str(FIRST_SEED)}
    server = start_app(db_path=db, env=env)
    try:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        frames = watch(page)
        page.goto(server.url)
        page.get_by_text("Done today").wait_for()
        assert _done_today(page) == "0"
        assert "card=" in page.url  # a refresh would come back to this problem

        frames.settle(page, frames.mark())
        mark = frames.mark()
        _answer(page, problems[0], right=True)
        page.get_by_role("button", name="Next").wait_for()
        assert page.locator('[data-testid="stAlertContentSuccess"]').count() >= 1
        # An answer reruns only the practice area; the counts above the problem are part of it.
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMarkdownContainer]')]"
            ".some(m => /Done today 1\\b/.test(m.innerText))"
        )
        assert _done_today(page) == "1"
        frames.settle(page, mark)
        sent = frames.since(mark)
        assert sent["delta:button"] >= 1 and "delta:metric" not in sent, sent
        for outside in ("delta:heading", "delta:selectbox", "delta:download_button", "navigation"):
            assert outside not in sent, f"an answer re-sent {outside}: {sent}"
        # The address is left as it is (no work for the browser while it draws the feedback) ...
        assert "page_info_changed" not in sent, sent
        answered_url = page.url
        assert "card=" in answered_url
        # ... and a refresh moves on rather than grading the answered problem twice.
        page.reload()
        page.get_by_text("Done today").wait_for()
        page.wait_for_url(lambda url: url != answered_url)
        assert f"card={problems[0].template_id}&" not in page.url + "&"
        page.keyboard.press("n")  # "Next" is reachable from the keyboard

        page.get_by_role("button", name="Next").wait_for(state="detached")
        _answer(page, problems[1], right=False)
        page.get_by_role("button", name="Next").wait_for()
        assert page.locator('[data-testid="stAlertContentError"]').count() >= 1
        page.close()
    finally:
        server.stop()

    server = start_app(db_path=db, env=env)
    try:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        page.goto(server.url)
        page.get_by_text("Done today").wait_for()
        assert _done_today(page) == "2"
        page.close()
    finally:
        server.stop()

    attempts = exported(db)
    assert [(a["template_id"], a["status"]) for a in attempts] == [
        (problems[0].template_id, "correct"),
        (problems[1].template_id, "incorrect"),
    ]
