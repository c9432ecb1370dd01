"""Waits on conditions, never on the clock: what a browser test waits for before it looks."""

from __future__ import annotations

from playwright.sync_api import Page

#: The app's root while no script run is in progress (Streamlit marks it so).
IDLE_APP = '[data-testid="stApp"][data-test-script-state="notRunning"]'
#: Resolves after the browser has laid out and painted twice: a resize or a new element is on screen.
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def until_idle(page: Page) -> None:
    """Wait until the app's script run is over and the browser has laid out and painted what it drew."""
    page.locator(IDLE_APP).wait_for()
    page.evaluate(TWO_FRAMES)
