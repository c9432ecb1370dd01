"""Server-side cost of an Explore rerun after one input changes, against a rerun of the cheat sheet.

Both pages run in Streamlit's AppTest (the script runner the server uses, without a browser), in
one process, alternating round by round so that machine noise hits both alike; each timed rerun
includes the full ``gc.collect(2)`` the server runs after every script. Explore's rerun changes the
batch (every figure, the table, the sweeps and the charts are computed again); the cheat sheet has
no inputs, so its rerun is the page drawn again. Prints the medians and their ratio (goal <= 2x).

    .venv/bin/python benchmarks/explore_rerun.py [--rounds N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from ui import state_keys as keys  # noqa: E402
from ui.long_lived import freeze_long_lived  # noqa: E402


def _timed(at: AppTest, change: Callable[[AppTest], None]) -> float:
    change(at)
    start = time.perf_counter()
    at.run()
    gc.collect(2)
    elapsed = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"the page raised: {at.exception}")
    return elapsed


def _page(path: str, db: Path) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / path), default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    return at.run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="reruns timed per page (default 15)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    freeze_long_lived()  # as app.py does on a server's first run
    explore_times: list[float] = []
    cheat_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        explore = _page("explore.py", Path(tmp) / "progress.db")
        cheat = _page("cheat_sheet.py", Path(tmp) / "progress.db")
        for round_no in range(args.rounds):
            batch = 2 + round_no % 40  # a different batch each round: nothing is served from a cache
            explore_times.append(
                _timed(explore, lambda at, b=batch: at.number_input(key=keys.EXPLORE_BATCH).set_value(b))
            )
            cheat_times.append(_timed(cheat, lambda at: None))
    drawn = " ".join(c.value for c in explore.caption)
    if f"batch {batch}," not in drawn or not explore.expander:
        raise SystemExit("the Explore page did not draw the changed setup")
    explore_ms, cheat_ms = statistics.median(explore_times) * 1e3, statistics.median(cheat_times) * 1e3
    print(f"Explore rerun after one input change: median {explore_ms:.1f} ms over {args.rounds} rounds")
    print(f"Cheat sheet rerun:                    median {cheat_ms:.1f} ms")
    print(f"Ratio: {explore_ms / cheat_ms:.2f}x (goal <= 2x)")


if __name__ == "__main__":
    main()
