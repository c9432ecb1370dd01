"""What a user waits for after Enter on the practice page, against a bare page, in Chromium.

Starts the app and ``benchmarks/bare_page.py`` (one text input and its echo, nothing else) as real
Streamlit servers and drives both from one Chromium through Playwright. Each pair is one practice
answer and one bare answer, timed in the page from the Enter key-down to the moment the result is on
screen: for practice the whole feedback (verdict, derivation, the roofline drawn when the problem
has one, as a chart or a picture, the Next button), for the bare page the echo of what was typed.
Pairs alternate which page goes first, so machine noise hits both alike; the ratio is taken within
the run. Before each answer both pages finish their run and pause as a reader would
(``READING_PAUSE_MS``), so an answer is timed from a page at rest.

Varies the template (with and without a roofline), right and wrong answers, and the database
(empty, and 100,000 stored answers). Every session's first answer is reported apart from the later
ones. ``--cold`` also times the first visit to a freshly started server against warm visits.

    .venv/bin/python benchmarks/answer_browser.py [--sessions N] [--answers N] [--cold N] [--root DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from practice_db import make_due, prepared_db  # noqa: E402
from readiness_scale import fill, template_ids_by_item  # noqa: E402

from grader.units import format_quantity  # noqa: E402
from question_bank import Bank, generate, load_bank  # noqa: E402
from ui.context import next_seed  # noqa: E402

#: Templates timed by default: two drawn on a roofline (one point and three), one without a chart.
TEMPLATES = ("ridge-point-bf16", "critical-batch-bf16", "kv-bytes-per-token")
SEED = 20261201
GOAL_RATIO = 1.5
TIMEOUT_MS = 60_000

# Runs in the page before each answer: notes when Enter goes down and when the wanted result is drawn
# (for practice, also when all of the feedback but its picture is).
_WATCH = """([kind, expected, chart]) => {
  const next = () => [...document.querySelectorAll('button')]
    .some(b => b.innerText.trim().startsWith('Next'));
  const picture = () =>
    [...document.querySelectorAll('[data-testid=stMain] [data-testid=stVegaLiteChart]')]
      .some(c => [...c.querySelectorAll('canvas, svg')].some(d => d.getBoundingClientRect().width > 0))
    || [...document.querySelectorAll('[data-testid=stMain] img')].some(i => i.complete && i.naturalWidth > 0);
  const drawn = {
    practice: () => next() && (!chart || picture()),
    bare: () => [...document.querySelectorAll('[data-testid=stMarkdownContainer]')]
      .some(e => e.innerText.trim() === 'You typed: ' + expected),
  }[kind];
  // rest: when the feedback but its picture was drawn (the Next button is the last element of it).
  const bench = window.__bench = {start: null, rest: null, done: null};
  const seen = () => {
    if (bench.start === null || bench.done !== null) return;
    const now = performance.now();
    if (bench.rest === null && kind === 'practice' && next()) bench.rest = now;
    if (drawn()) {
      bench.done = now;
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document.body, {childList: true, subtree: true, attributes: true, characterData: true});
  document.addEventListener('load', seen, {capture: true});  // a picture decoded is no DOM change
  document.addEventListener('keydown', e => {
    if (e.key === 'Enter' && bench.start === null) { bench.start = performance.now(); seen(); }
  }, {capture: true, once: true});
}"""
_ELAPSED = "() => window.__bench.done === null ? null : window.__bench.done - window.__bench.start"
# How long the roofline picture took after the rest of the feedback was on screen.
_PICTURE_AFTER = "() => window.__bench.done - window.__bench.rest"


def _e2e_conftest() -> ModuleType:
    """The browser tests' server helpers (a conftest is not importable by name)."""
    spec = importlib.util.spec_from_file_location("e2e_conftest", ROOT / "tests" / "e2e" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


E2E = _e2e_conftest()


@dataclass
class Timings:
    """Seconds per practice answer and per bare answer, paired in order, and how each practice answer went."""

    practice: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    first: list[bool] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)
    #: For answers drawn on a roofline: (first of a session?, seconds from the rest of the feedback to
    #: the picture), so a session's first roofline can be told from its later ones.
    picture_after: list[tuple[bool, float]] = field(default_factory=list)
    mismatched: int = 0

    def extend(self, other: Timings) -> None:
        """Add ``other``'s answers to these (the summary over every condition)."""
        self.practice += other.practice
        self.bare += other.bare
        self.first += other.first
        self.right += other.right
        self.picture_after += other.picture_after
        self.mismatched += other.mismatched

    def select(
        self, *, first: bool | None = None, right: bool | None = None
    ) -> tuple[list[float], list[float]]:
        keep = [
            i
            for i in range(len(self.practice))
            if (first is None or self.first[i] == first) and (right is None or self.right[i] == right)
        ]
        return [self.practice[i] for i in keep], [self.bare[i] for i in keep]


#: How long a person takes at least to read a question before answering: the app's run and the page's
#: first frames are over by then, so they are not timed as part of the answer.
READING_PAUSE_MS = 600


def _ready_to_answer(*pages: Page) -> None:
    """Wait as a person would before answering: each page's run over, then a short read.

    Also runs Playwright's own page-side helper once, as ``_timed`` waits through it: its first use in a
    page evaluates a large script (about 12 ms of the renderer's main thread, seen in a trace), which
    would otherwise be timed as part of a session's first answer and of no later one.
    """
    for page in pages:
        page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for()
        page.wait_for_function("() => true")
    time.sleep(READING_PAUSE_MS / 1000)


def _timed(
    page: Page, kind: str, *, expected: str = "", chart: bool = False, press: Page | None = None
) -> float:
    page.evaluate(_WATCH, [kind, expected, chart])
    (press or page).keyboard.press("Enter")
    page.wait_for_function("() => window.__bench.done !== null", timeout=TIMEOUT_MS)
    return float(page.evaluate(_ELAPSED)) / 1000


@contextmanager
def _server(
    tmp: Path, name: str, *, db: Path, root: Path, script: str = "app.py", as_make_run: bool = False
) -> Iterator[object]:
    # As `make run` starts it (ui.serve, where the checkout has it), or as the browser tests do.
    launcher = (
        ("-m", "ui.serve")
        if as_make_run and (root / "ui" / "serve.py").exists()
        else ("-m", "streamlit", "run")
    )
    server = E2E.start_server(
        db_path=db,
        log_path=tmp / f"{name}.log",
        env={"DRILL_SEED": str(SEED)},
        script=script,
        root=root,
        launcher=launcher,
    )
    try:
        yield server
    finally:
        server.stop()


def _answer_box(page: Page) -> object:
    return page.get_by_label(re.compile("^Your answer"))


def run_condition(
    browser: Browser, tmp: Path, *, bank: Bank, template_id: str, n_answers: int, args: argparse.Namespace
) -> Timings:
    """Sessions of answers to ``template_id`` (first the scheduled card, then variants), each paired."""
    db = prepared_db(
        tmp / f"{template_id}-{n_answers}.db", bank=bank, template_id=template_id, n_answers=n_answers
    )
    template = bank.get(template_id)
    timings = Timings()
    bare_db = tmp / "bare.db"
    with (
        _server(tmp, f"app-{template_id}", db=db, root=args.root) as app,
        _server(tmp, "bare", db=bare_db, root=ROOT, script=str(ROOT / "benchmarks" / "bare_page.py")) as bare,
    ):
        for session in range(args.sessions):
            # A fresh bare page per session too, so that a session's first answer is paired with the
            # bare page's first: the first interaction with any newly opened page runs code the
            # browser has not run before in that page.
            bare_page = browser.new_page()
            bare_page.set_default_timeout(TIMEOUT_MS)
            bare_page.goto(bare.url)
            bare_box = _answer_box(bare_page)
            bare_box.wait_for()
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(app.url)
            seed = SEED
            for k in range(args.answers):
                seed = next_seed(seed)
                problem = generate(template, seed)
                right = (k + session) % 2 == 0
                value = (problem.answer or 0.0) * (1 if right else 37)
                box = _answer_box(page)
                box.wait_for()
                _ready_to_answer(page, bare_page)
                box.fill(format_quantity(value, problem.unit))
                echo = f"{session}-{k}"
                bare_box.fill(echo)
                chart = bool(_drawn_on_roofline(problem))
                if (session + k) % 2 == 0:
                    practice_s = _timed(page, "practice", chart=chart)
                    bare_s = _timed(bare_page, "bare", expected=echo)
                else:
                    bare_s = _timed(bare_page, "bare", expected=echo)
                    practice_s = _timed(page, "practice", chart=chart)
                if chart:
                    timings.picture_after.append((k == 0, float(page.evaluate(_PICTURE_AFTER)) / 1000))
                verdict = "stAlertContentSuccess" if right else "stAlertContentError"
                timings.mismatched += not page.locator(f'[data-testid="{verdict}"]').count()
                timings.practice.append(practice_s)
                timings.bare.append(bare_s)
                timings.first.append(k == 0)
                timings.right.append(right)
                if args.verbose:
                    print(
                        f"    session {session} answer {k}: practice {practice_s * 1e3:.0f} ms,"
                        f" bare {bare_s * 1e3:.0f} ms"
                    )
                page.get_by_role("button", name=re.compile("^Another variant")).click()
                page.get_by_role("button", name=re.compile("^Next")).wait_for(state="detached")
            page.close()
            bare_page.close()
            make_due(db, bank=bank, template_id=template_id)
    return timings


def _drawn_on_roofline(problem: object) -> bool:
    from ui.roofline_answer import roofline_view

    return roofline_view(problem, None) is not None  # type: ignore[arg-type]


def _ms(values: list[float]) -> str:
    if not values:
        return "—"
    low, mid, high = (v * 1e3 for v in (min(values), statistics.median(values), max(values)))
    return f"{mid:6.0f} ms (min {low:.0f}, max {high:.0f})"


def _report(name: str, practice: list[float], bare: list[float]) -> float | None:
    if not practice:
        return None
    ratio = statistics.median(practice) / statistics.median(bare)
    per_pair = statistics.median(p / b for p, b in zip(practice, bare, strict=True))
    print(f"  {name:<26} n={len(practice):>3}  practice {_ms(practice)}  bare {_ms(bare)}")
    print(f"  {'':<26}        ratio of medians {ratio:.2f}x, median of pair ratios {per_pair:.2f}x")
    return ratio


def _report_picture(picture_after: list[tuple[bool, float]]) -> None:
    """The roofline picture's own wait: from the rest of the feedback on screen to the picture drawn."""
    first = [seconds for is_first, seconds in picture_after if is_first]
    later = [seconds for is_first, seconds in picture_after if not is_first]
    if not first or not later:
        return
    print("the roofline picture, after the rest of the feedback was drawn:")
    print(f"  {'first of a session':<26} n={len(first):>3}  {_ms(first)}")
    print(f"  {'later in a session':<26} n={len(later):>3}  {_ms(later)}")


def cold_start(browser: Browser, tmp: Path, *, bank: Bank, runs: int, root: Path) -> None:
    """First visit to a freshly started server against warm visits (new sessions) to the same server."""
    print("cold start: page opened → problem on screen")
    ratios = []
    for run in range(runs):
        db = prepared_db(tmp / f"cold-{run}.db", bank=bank, template_id=TEMPLATES[0], n_answers=0)
        with _server(tmp, f"cold-{run}", db=db, root=root, as_make_run=True) as app:
            visits = []
            for _ in range(6):
                page = browser.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                start = time.perf_counter()
                page.goto(app.url)
                _answer_box(page).wait_for()
                visits.append(time.perf_counter() - start)
                page.close()
        warm = statistics.median(visits[1:])
        ratios.append(visits[0] / warm)
        print(
            f"  run {run + 1}: cold {visits[0] * 1e3:.0f} ms, warm median {warm * 1e3:.0f} ms"
            f" → {ratios[-1]:.2f}x"
        )
    print(
        f"  cold / warm: min {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x,"
        f" max {max(ratios):.2f}x"
    )


def _received_bytes(page: Page) -> list[int]:
    """A one-element list that counts the bytes the page receives over its WebSockets from now on."""
    received = [0]

    def count(payload: str | bytes) -> None:
        received[0] += len(payload)

    page.on("websocket", lambda ws: ws.on("framereceived", count))
    return received


def readiness_visits(browser: Browser, tmp: Path, *, sizes: list[int], visits: int, root: Path) -> None:
    """Warm visits to the readiness page (a new session each): time to the ten items, and bytes received."""
    print("readiness: page opened → the ten items and the plan on screen (warm server)")
    for n_answers in sizes:
        db = tmp / f"readiness-{n_answers}.db"
        fill(db, n_answers, template_ids_by_item())
        with _server(tmp, f"readiness-{n_answers}", db=db, root=root) as app:
            seconds, sizes_kb = [], []
            for visit in range(visits + 1):
                page = browser.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                received = _received_bytes(page)
                start = time.perf_counter()
                page.goto(f"{app.url}/readiness")
                page.get_by_text("Plan to the interview").wait_for()
                page.get_by_text("Decode batch threshold").first.wait_for()
                if visit:  # the first visit warms the server
                    seconds.append(time.perf_counter() - start)
                    page.wait_for_timeout(500)  # the last frames
                    sizes_kb.append(received[0] / 1024)
                page.close()
        print(
            f"  {n_answers:>7,} answers: {_ms(seconds)},"
            f" received {statistics.median(sizes_kb):.0f} KB per visit"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=3, help="browser sessions per condition (default 3)")
    parser.add_argument("--answers", type=int, default=8, help="answers per session (default 8)")
    parser.add_argument("--templates", nargs="+", default=list(TEMPLATES), help="template ids to answer")
    parser.add_argument(
        "--sizes", nargs="+", type=int, default=[0, 100_000], help="stored answers (default 0 100000)"
    )
    parser.add_argument(
        "--cold", type=int, default=0, metavar="N", help="also time N cold starts (default 0)"
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose app.py is served (default this one)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every pair")
    parser.add_argument("--readiness", type=int, default=0, metavar="N", help="also time N readiness visits")
    args = parser.parse_args()
    if args.sessions < 1 or args.answers < 1:
        parser.error("--sessions and --answers must be at least 1")
    bank = load_bank()
    overall: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(E2E.CHROMIUM), args=E2E.CHROMIUM_ARGS, headless=True
        )
        tmp = Path(folder)
        together = Timings()
        for n_answers in args.sizes:
            for template_id in args.templates:
                timings = run_condition(
                    browser, tmp, bank=bank, template_id=template_id, n_answers=n_answers, args=args
                )
                print(
                    f"{template_id}, {n_answers:,} stored answers"
                    f" (verdicts not as planned: {timings.mismatched})"
                )
                ratio = _report("all answers", timings.practice, timings.bare)
                overall.append(ratio or 0.0)
                _report("right answers", *timings.select(right=True))
                _report("wrong answers", *timings.select(right=False))
                _report("first of a session", *timings.select(first=True))
                _report("later in a session", *timings.select(first=False))
                together.extend(timings)
        print("every condition together:")
        ratio = _report("all answers", together.practice, together.bare) or 0.0
        first, later = together.select(first=True), together.select(first=False)
        _report("first of a session", *first)
        _report("later in a session", *later)
        print(f"goal: practice ≤ {GOAL_RATIO}x bare → {'met' if ratio <= GOAL_RATIO else 'NOT met'}")
        if first[0] and later[0]:
            slower = statistics.median(first[0]) / statistics.median(later[0])
            print(f"a session's first answer against its later ones (practice): {slower:.2f}x")
            # The same measure on the bare page tells what any newly opened Streamlit page costs.
            bare_slower = statistics.median(first[1]) / statistics.median(later[1])
            print(f"a session's first answer against its later ones (bare page): {bare_slower:.2f}x")
        _report_picture(together.picture_after)
        if args.readiness:
            readiness_visits(browser, tmp, sizes=args.sizes, visits=args.readiness, root=args.root)
        if args.cold:
            cold_start(browser, tmp, bank=bank, runs=args.cold, root=args.root)
        browser.close()


if __name__ == "__main__":
    main()
