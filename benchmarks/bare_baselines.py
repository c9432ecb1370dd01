"""How much of the bare baseline is Streamlit's post-run collection: practice against two bare pages.

``answer_browser.py`` compares practice with a bare page as Streamlit serves it, whose rerun spends
most of its server time in the full ``gc.collect(2)`` Streamlit runs after every script; the app
freezes its long-lived objects, so it skips most of that. This times, in one run, later practice
answers against that bare page and against ``bare_page_frozen.py`` (the same page with its heap
frozen once), and prints both ratios: the second is the stricter comparison.

    .venv/bin/python benchmarks/bare_baselines.py [--sessions N] [--answers N] [--template ID]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # the app's packages, and answer_browser beside this file

import answer_browser as ab  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from grader.units import format_quantity  # noqa: E402
from question_bank import generate, load_bank  # noqa: E402
from ui.context import next_seed  # noqa: E402

PAGES = ("practice", "bare", "bare, heap frozen")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=3, help="browser sessions (default 3)")
    parser.add_argument("--answers", type=int, default=7, help="answers per session, the first not timed")
    parser.add_argument("--template", default=ab.TEMPLATES[0], help="practice template to answer")
    args = parser.parse_args()
    if args.sessions < 1 or args.answers < 2:
        parser.error("--sessions must be at least 1 and --answers at least 2")
    bank = load_bank()
    template = bank.get(args.template)
    seconds: dict[str, list[float]] = {name: [] for name in PAGES}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright, ExitStack() as stack:
        tmp = Path(folder)
        browser = playwright.chromium.launch(
            executable_path=str(ab.E2E.CHROMIUM), args=ab.E2E.CHROMIUM_ARGS, headless=True
        )
        db = ab.prepared_db(tmp / "practice.db", bank=bank, template_id=args.template, n_answers=0)
        servers = {
            "practice": stack.enter_context(ab._server(tmp, "app", db=db, root=ab.ROOT)),
            **{
                name: stack.enter_context(
                    ab._server(tmp, script, db=tmp / f"{script}.db", root=ab.ROOT,
                               script=str(ab.ROOT / "benchmarks" / f"{script}.py"))
                )
                for name, script in (("bare", "bare_page"), ("bare, heap frozen", "bare_page_frozen"))
            },
        }  # fmt: skip
        for session in range(args.sessions):
            pages = {name: browser.new_page() for name in PAGES}
            for name, page in pages.items():
                page.set_default_timeout(ab.TIMEOUT_MS)
                page.goto(servers[name].url)  # type: ignore[attr-defined]
                ab._answer_box(page).wait_for()
            seed = ab.SEED
            for k in range(args.answers):
                seed = next_seed(seed)
                problem = generate(template, seed)
                ab._ready_to_answer(*pages.values())
                # Each page goes first in turn, so machine noise hits all three alike.
                for name in PAGES[k % 3 :] + PAGES[: k % 3]:
                    page = pages[name]
                    if name == "practice":
                        ab._answer_box(page).fill(format_quantity(problem.answer or 0.0, problem.unit))
                        took = ab._timed(page, "practice", chart=ab._drawn_on_roofline(problem))
                    else:
                        echo = f"{session}-{k}"
                        ab._answer_box(page).fill(echo)
                        took = ab._timed(page, "bare", expected=echo)
                    if k:  # a session's first answer is timed apart in answer_browser.py
                        seconds[name].append(took)
                pages["practice"].get_by_role("button", name=re.compile("^Another variant")).click()
                pages["practice"].get_by_role("button", name=re.compile("^Next")).wait_for(state="detached")
            for page in pages.values():
                page.close()
            ab.make_due(db, bank=bank, template_id=args.template)
        browser.close()
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    for name in PAGES:
        print(f"  {name:<18} n={len(seconds[name]):>3}  {ab._ms(seconds[name])}")
    for name in PAGES[1:]:
        print(f"practice / {name}: {medians['practice'] / medians[name]:.2f}x (ratio of medians)")


if __name__ == "__main__":
    main()
