"""Explore in a browser: a link opens its setup, changed inputs go into the address, and the new
address reproduces the same figures."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from question_bank import load_hardware, load_models
from ui.explore.figures import Setup, compute_figures
from ui.explore.text import figure_text, op_rows

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser

LINK = (
    "/explore?model=llama2_13b&gpu=a100_80gb_sxm&chips=1&weights=bf16&kv=bf16&batch=1&prompt=1000&output=200"
)
#: The setup LINK opens (its other fields are the page's defaults).
LINKED = Setup(model="llama2_13b", gpu="a100_80gb_sxm", chips=1, batch=1, prompt=1000, output=200)
#: What every wait here allows: one script run on a shared machine, and the browser's render after it.
TIMEOUT_MS = 60_000


def _tpot_text(setup: Setup) -> str:
    figures = compute_figures(setup, models=load_models(), hardware=load_hardware())
    return figure_text(figures.figures["tpot"])


@pytest.fixture
def app_server(shared_app_server: AppServer) -> AppServer:
    """The file's one server: Explore and the scenario it leads to read and store no progress."""
    return shared_app_server


def _set_number(page: object, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")


def test_changed_inputs_go_into_the_address_and_the_link_reproduces_them(
    app_server: AppServer, browser: object
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_server.url + LINK)
    page.get_by_role("heading", name="Explore").wait_for()
    page.get_by_text(_tpot_text(LINKED), exact=True).first.wait_for()
    _set_number(page, "Batch", 16)
    page.wait_for_url(re.compile(r"batch=16"))
    _set_number(page, "Output tokens", 500)
    page.wait_for_url(re.compile(r"output=500"))
    changed = replace(LINKED, batch=16, output=500)
    page.get_by_text(_tpot_text(changed), exact=True).first.wait_for()
    link = page.url
    page.close()

    fresh = browser.new_page(viewport={"width": 1400, "height": 1600})
    fresh.set_default_timeout(TIMEOUT_MS)
    fresh.goto(link)  # another tab, another session: only the address carries the setup
    fresh.get_by_text(_tpot_text(changed), exact=True).first.wait_for()
    # The figures show batch 16 before the box does: the box is drawn with its default and takes the
    # session's value in the browser after the run is over, which on a loaded machine may take longer
    # than expect's own 5 s default (page timeouts do not reach it), so it waits as long as the rest.
    expect(fresh.get_by_label("Batch", exact=True)).to_have_value("16", timeout=TIMEOUT_MS)
    fresh.close()


def test_drill_this_setup_reaches_a_scenario_on_the_changed_setup(
    app_server: AppServer, browser: object
) -> None:
    """Two inputs changed on Explore, then "Drill this setup": Practice asks a scenario whose prompt holds
    the setup's numbers, and a refresh keeps them."""
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_server.url + LINK)
    page.get_by_role("heading", name="Explore").wait_for()
    page.get_by_label("Model").click()  # the link's Llama-2-13B is not one a drill draws
    page.get_by_role("option", name="Llama-3-8B", exact=True).click()
    page.wait_for_url(re.compile(r"model=llama3_8b"))
    _set_number(page, "Prompt tokens", 2500)
    page.wait_for_url(re.compile(r"prompt=2500"))
    page.get_by_role("button", name="Drill this setup").click()
    page.wait_for_url(re.compile(r"/\?card=scenario-chat-latency-budget&seed=\d+&pins="))  # Practice is "/"
    setup = page.get_by_test_id("stMain").get_by_text("A chat product serves")
    setup.wait_for()
    text = setup.inner_text()
    for shown in ("Llama-3-8B", "NVIDIA A100 80GB SXM4", "2,500-token prompt", "200-token answer"):
        assert shown in text, (shown, text)
    assert "pins=" in page.url
    page.reload()  # the address carries the pinned numbers
    page.get_by_test_id("stMain").get_by_text("2,500-token prompt").wait_for()
    page.close()


def test_the_layer_table_fits_a_phone_and_keeps_every_figure(app_server: AppServer, browser: object) -> None:
    """At 390 px the per-operation table does not scroll sideways, and every figure is still on the page."""
    figures = compute_figures(LINKED, models=load_models(), hardware=load_hardware())
    page = browser.new_page(viewport={"width": 390, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(app_server.url + LINK)
    page.get_by_role("heading", name="One layer in a decode step, per chip").wait_for()
    main = page.get_by_test_id("stMain")
    main.locator("table").first.wait_for()
    widths = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stMain] table')]"
        ".map(t => [t.scrollWidth, t.parentElement.clientWidth])"
    )
    assert widths and all(scroll <= room for scroll, room in widths), widths
    text = main.inner_text()
    for row in op_rows(figures):
        for cell in row:
            assert cell in text, cell
    page.close()
