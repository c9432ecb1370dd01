"""Server-side cost of submitting an answer on the practice page, against a bare page that echoes its input.

Both pages run in Streamlit's AppTest (the same script runner the server uses, without a browser),
in one process, alternating, so machine noise hits both alike; each timed rerun includes the full
``gc.collect(2)`` the server runs after every script (AppTest skips it). AppTest polls for the end of
a run, so both figures carry its polling interval. What a user waits for, in a browser against a
running server, is measured by ``benchmarks/answer_browser.py``. Prints the medians and their ratio.

    .venv/bin/python benchmarks/answer_rerun.py [--rounds N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from grader.units import format_quantity  # noqa: E402
from question_bank import generate, load_bank  # noqa: E402
from ui import state_keys as keys  # noqa: E402
from ui.long_lived import freeze_long_lived  # noqa: E402
from ui.practice.loop import Current  # noqa: E402

BARE_PAGE = ROOT / "benchmarks" / "bare_page.py"


def _time_submit(at: AppTest, answer_key: str, submit_key: str | None, answer: str) -> float:
    at.text_input(key=answer_key).input(answer)
    if submit_key is not None:
        at.button(key=submit_key).click()
    start = time.perf_counter()
    at.run()
    gc.collect(2)
    elapsed = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"the page raised: {at.exception}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="submissions timed per page (default 15)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    freeze_long_lived()  # as app.py does on a server's first run
    bank = load_bank()
    template = next(t for t in bank.templates if t.kind == "numeric")
    clock = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    practice_times: list[float] = []
    bare_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_no in range(args.rounds):
            problem = generate(template, round_no)
            answer = format_quantity(problem.answer or 0.0, problem.unit)

            practice = AppTest.from_file(str(ROOT / "pages" / "practice.py"), default_timeout=60)
            practice.session_state[keys.DB_PATH] = str(Path(tmp) / "progress.db")
            practice.session_state[keys.CLOCK] = lambda: clock
            practice.session_state[keys.PRACTICE_CURRENT] = Current(
                template_id=template.id, seed=round_no, scheduled=True, started_at=clock
            ).to_dict()
            practice.run()
            practice_times.append(_time_submit(practice, keys.PRACTICE_ANSWER, keys.PRACTICE_SUBMIT, answer))

            bare = AppTest.from_file(str(BARE_PAGE), default_timeout=60)
            bare.run()
            bare_times.append(_time_submit(bare, "bare_answer", None, answer))

    practice_ms = statistics.median(practice_times) * 1e3
    bare_ms = statistics.median(bare_times) * 1e3
    print(f"rounds: {args.rounds} (template {template.id})")
    print(f"practice page, submit an answer: median {practice_ms:.1f} ms")
    print(f"bare page, input and its echo:   median {bare_ms:.1f} ms")
    print(f"ratio: {practice_ms / bare_ms:.2f}x")


if __name__ == "__main__":
    main()
