"""Typing an explanation in a real browser: the key-point checks appear, a rating stores it all.

Screenshots of the checks at 1400 and 390 px go to ``SHOTS_DIR`` when set (else the test's tmp folder).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from page_waits import until_idle
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TYPED = (
    "Element-wise ops are memory-bound: their time is the bytes moved over the bandwidth. Run unfused, "
    "each kernel writes the intermediate back to HBM and reads it again. Fusion also reduces FLOPs."
)
CHECKS_SHOWN = (
    "You wrote: “Fusion also reduces FLOPs”",
    "Misconception: fusion reduces FLOPs",
    "Suggested rating: Again",
)


def test_typed_explanation_is_checked_and_stored(
    tmp_path: Path, browser: object, start_app: Callable[..., object]
) -> None:
    shots = Path(os.environ.get("SHOTS_DIR") or tmp_path)
    db = tmp_path / "progress.db"
    server = start_app(db_path=db)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.set_default_timeout(120_000)
        page.goto(f"{server.url}/practice?card=fusion-why&seed=1&extra=1")
        page.get_by_text("Write it as you would say it").wait_for()
        page.get_by_label("Your explanation (optional)").fill(TYPED)
        page.get_by_role("button", name="Check my explanation").click()
        page.get_by_text("2 of 4 made").wait_for()
        # The checks arrive one element after another: each is awaited, then found exactly once.
        for line in CHECKS_SHOWN:
            expect(page.get_by_text(line)).to_have_count(1, timeout=30_000)
        for width, height in ((1400, 2300), (390, 4400)):
            page.set_viewport_size({"width": width, "height": height})
            until_idle(page)  # the layout settles at the new width before the picture
            page.screenshot(path=str(shots / f"practice-explanation-{width}.png"), full_page=True)
        page.get_by_role("button", name="Hard").click()
        page.get_by_role("button", name="Next").wait_for()
        page.close()
    finally:
        server.stop()
    command = [sys.executable, "-m", "progress", "export", "--format", "json", "--db", str(db)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120)
    [attempt] = json.loads(result.stdout)
    assert attempt["response"] == "hard"
    assert attempt["explanation"]["made"] == [True, True, False, False]
    assert attempt["explanation"]["misconceptions"] == ["fusion reduces FLOPs"]
