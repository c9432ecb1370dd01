"""A page opened by its address on a freshly started server still opens inside the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser


def test_a_bookmarked_page_opens_with_the_apps_navigation_and_sidebar(
    app_server: AppServer, browser: object
) -> None:
    page = browser.new_page()
    page.set_default_timeout(60_000)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{app_server.url}/readiness?from=bookmark")  # the first visit this server sees
    page.get_by_role("heading", name="Readiness").wait_for()
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("why LLM inference is memory-bound").wait_for()  # app.py's sidebar
    # The app's own logo and icon: nothing is fetched from a font or image server (offline, or private).
    page.get_by_test_id("stSidebarLogo").wait_for()
    icon = page.locator("link[rel*=icon]").first
    icon.wait_for(state="attached")
    assert (icon.get_attribute("href") or "").startswith(("data:", app_server.url))
    elsewhere = [url for url in requested if not url.startswith(("data:", app_server.url))]
    assert not elsewhere, elsewhere
    assert sidebar.get_by_text("Mock interview", exact=True).count() == 1  # titles, not file names
    assert sidebar.get_by_text("app", exact=True).count() == 0
    assert page.url.endswith("/readiness?from=bookmark")
    page.close()
