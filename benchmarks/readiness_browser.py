"""What the readiness page receives over its WebSocket per rerun, interaction by interaction, in Chromium.

Starts the app as a real Streamlit server on an empty database and on one with 100,000 stored answers
(``readiness_scale.fill``: both hold an interview date, so the plan is drawn), and drives it from
Chromium through Playwright. Each run is a new browser session: the first visit, then the common
interactions of the page in turn: a new interview date, one step more minutes a day, "Save plan
settings", and the CSV export button. Every message the server sends is decoded (``ForwardMsg``), so
each interaction reports the bytes it received, the time from the action to the end of the rerun the
server reports (``script_finished``), and which kinds of element it re-sent; an interaction that reruns
nothing reports the messages of its first 1.5 s. The first session per
database warms the server and is not reported. Prints min/median/max over the runs.

    .venv/bin/python benchmarks/readiness_browser.py [--runs N] [--sizes N ...] [--root DIR] [--verbose]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))  # the browser tests' message decoder

from answer_browser import E2E, TIMEOUT_MS, _ms, _server  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from readiness_scale import NOW, fill, template_ids_by_item  # noqa: E402
from ws_messages import Frames, watch  # noqa: E402


@dataclass
class Rerun:
    """What one interaction cost: bytes received, message kinds, and (None without a rerun) seconds from
    the action to the end of its rerun and from the rerun's first message to its end."""

    received: int
    kinds: Counter[str]
    bytes_by_kind: Counter[str]
    seconds: float | None
    run_seconds: float | None


def measure(page: Page, frames: Frames, action: Callable[[], object]) -> Rerun:
    """Run ``action`` and wait for the rerun it causes, if any, to finish."""
    mark, started = frames.mark(), time.perf_counter()
    action()
    frames.settle(page, mark, timeout_ms=TIMEOUT_MS)
    finished = frames.at(mark, "script_finished")
    return Rerun(
        received=frames.received(mark),
        kinds=frames.since(mark),
        bytes_by_kind=frames.bytes_by_kind(mark),
        seconds=finished[-1] - started if finished else None,
        run_seconds=finished[-1] - frames.times[mark] if finished else None,
    )


def _number_step_up(page: Page, label: str) -> None:
    box = page.get_by_test_id("stNumberInput").filter(has_text=label)
    box.get_by_test_id("stNumberInputStepUp").click()


def _new_interview_date(page: Page, run: int) -> None:
    # A different date each run, so each entry is a change; typed as the date input shows it. The
    # value is sent when the calendar that typing opens closes.
    field_ = page.get_by_test_id("stDateInput").locator("input")
    field_.fill((NOW.date() + timedelta(days=40 + run)).isoformat())
    field_.press("Escape")


def _export_csv(page: Page) -> None:
    with page.expect_download(timeout=TIMEOUT_MS):
        page.get_by_role("button", name="Attempts as CSV").click()


#: The interactions, in the order a run makes them.
INTERACTIONS: tuple[tuple[str, Callable[[Page, int], None]], ...] = (
    ("interview date", _new_interview_date),
    ("minutes a day", lambda page, _run: _number_step_up(page, "Minutes per day")),
    ("save plan", lambda page, _run: page.get_by_role("button", name="Save plan settings").click()),
    ("export CSV", lambda page, _run: _export_csv(page)),
)


def one_session(browser: Browser, url: str, run: int) -> dict[str, Rerun]:
    """A new session: the first visit, then every interaction once."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    frames = watch(page)

    def visit() -> None:
        page.goto(f"{url}/readiness")
        page.get_by_text("Plan to the interview").wait_for()
        page.get_by_text("Decode batch threshold").first.wait_for()
        page.get_by_role("button", name="Attempts as CSV").wait_for()

    result = {"first visit": measure(page, frames, visit)}
    for name, action in INTERACTIONS:
        result[name] = measure(page, frames, lambda action=action: action(page, run))  # type: ignore[misc]
    page.close()
    return result


def _kb(values: list[int]) -> str:
    low, mid, high = (v / 1024 for v in (min(values), statistics.median(values), max(values)))
    return f"{mid:7.1f} KB (min {low:.1f}, max {high:.1f})"


def report(n_answers: int, runs: list[dict[str, Rerun]], *, verbose: bool) -> None:
    print(f"  {n_answers:>7,} answers, {len(runs)} sessions:")
    for name in runs[0]:
        reruns = [r[name] for r in runs]
        print(f"    {name:<15} received {_kb([r.received for r in reruns])}")
        seconds = [r.seconds for r in reruns if r.seconds is not None]
        run_seconds = [r.run_seconds for r in reruns if r.run_seconds is not None]
        if seconds:
            print(f"    {'':<15} action → rerun done {_ms(seconds)}; its messages {_ms(run_seconds)}")
        kinds = reruns[-1].kinds
        elements = ", ".join(sorted(k.removeprefix("delta:") for k in kinds if k.startswith("delta:")))
        print(f"    {'':<15} messages in the last: {sum(kinds.values())}; elements: {elements or '—'}")
        if verbose and kinds:
            sizes = reruns[-1].bytes_by_kind
            print(f"    {'':<15} " + ", ".join(f"{k} ×{n} {sizes[k]:,} B" for k, n in kinds.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="reported sessions per database (default 3)")
    parser.add_argument(
        "--sizes", nargs="+", type=int, default=[0, 100_000], help="stored answers (default 0 100000)"
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose app.py is served (default this one)"
    )
    parser.add_argument("--verbose", action="store_true", help="print each message kind's count and bytes")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print(f"readiness: bytes received per interaction (served from {args.root}), on {date.today()}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(E2E.CHROMIUM), args=E2E.CHROMIUM_ARGS, headless=True
        )
        tmp = Path(folder)
        for n_answers in args.sizes:
            db = tmp / f"readiness-{n_answers}.db"
            fill(db, n_answers, template_ids_by_item())
            with _server(tmp, f"readiness-{n_answers}", db=db, root=args.root) as app:
                url = app.url  # type: ignore[attr-defined]
                one_session(browser, url, run=0)  # warms the server
                report(
                    n_answers,
                    [one_session(browser, url, run=run) for run in range(1, args.runs + 1)],
                    verbose=args.verbose,
                )
        browser.close()


if __name__ == "__main__":
    main()
