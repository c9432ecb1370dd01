"""What a newcomer meets first, where only a browser shows it: the problem in view on a phone, the
same problem after a refresh, and both exports downloaded one after the other."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from page_waits import until_idle
from playwright.sync_api import Browser

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def test_phone_refresh_and_both_exports(app_server: AppServer, browser: Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(60_000)
    page.goto(f"{app_server.url}/practice")
    page.get_by_text("difficulty", exact=False).first.wait_for()
    prompt = page.get_by_test_id("stMarkdownContainer").filter(has_text="?").first
    action = page.get_by_role("button", name=re.compile(r"^(Check|Show the model answer)$"))
    box = action.bounding_box()  # the problem and the way to answer it, in view without scrolling
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    shown = prompt.inner_text()

    page.wait_for_url("**card=*")
    page.reload()
    page.get_by_text("difficulty", exact=False).first.wait_for()
    assert page.get_by_test_id("stMarkdownContainer").filter(has_text="?").first.inner_text() == shown

    page.goto(f"{app_server.url}/readiness")
    csv_button = page.get_by_role("button", name="Attempts as CSV")
    json_button = page.get_by_role("button", name="Attempts as JSON")
    csv_button.wait_for()
    with page.expect_download() as first:
        csv_button.click()
    with page.expect_download() as second:
        json_button.click()
    csv_path, json_path = tmp_path / "a.csv", tmp_path / "a.json"
    first.value.save_as(csv_path)
    second.value.save_as(json_path)
    assert csv_path.read_text(encoding="utf-8").startswith("id,created_at,")
    assert json.loads(json_path.read_text(encoding="utf-8")) == []
    until_idle(page)  # both downloads answered, and the reruns they caused are over
    assert "MediaFileStorageError" not in app_server.log_path.read_text(errors="replace")
    page.close()
