"""How long hostile bank files take to refuse or load, and what the app's bank checks cost at start-up.

Prints, each the median of ``--repeats`` runs:

- the refusal of a ~700-byte YAML alias bomb (nine anchors of nine aliases each) and of an alias
  inside its own anchor;
- loading a user template whose prompt holds ``--placeholders`` placeholders on one line (a prompt
  over 20,000 characters is refused, so 64,000 placeholders show the time of that refusal);
- the app's bank (``usable_bank``: shipped templates generated for 1 seed, user templates for 700)
  against the bare ``load_bank``, with and without one user template.

    .venv/bin/python benchmarks/hostile_banks.py [--repeats N] [--placeholders N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from question_bank import BankError, load_bank
from question_bank.generation_checks import SWEEP_SEEDS, usable_bank
from question_bank.yaml_source import read_yaml

USER_TEMPLATE = """templates:
  - id: user-intensity
    checklist: arithmetic-intensity
    kind: numeric
    difficulty: 1
    title: Intensity
    prompt: "{prompt}"
    params:
      flops: {{int: {{low: 100, high: 1000}}}}
      n_bytes: {{int: {{low: 1, high: 142}}}}
    answer:
      call: arithmetic_intensity
      with: {{flops: flops, n_bytes: n_bytes}}
      unit: FLOP/B
    explanation: FLOPs over bytes.
    references: [Horace He]
"""


def _bomb() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    return "templates:\n  - id: bomb\n    junk:\n" + "".join(f"      {line}\n" for line in lines)


def _median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _load(folder: Path) -> None:
    with contextlib.suppress(BankError):
        load_bank([folder])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--placeholders", type=int, default=64_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bomb = root / "bomb.yaml"
        bomb.write_text(_bomb(), encoding="utf-8")
        loop = root / "loop.yaml"
        loop.write_text("templates: &t\n  - *t\n", encoding="utf-8")
        bomb_ms = _median_ms(lambda: read_yaml(bomb), args.repeats)
        print(f"alias bomb ({bomb.stat().st_size} bytes) refused in {bomb_ms:.1f} ms")
        print(
            f"alias in its own anchor refused in {_median_ms(lambda: read_yaml(loop), args.repeats):.1f} ms"
        )

        many = root / "many"
        many.mkdir()
        prompt = " ".join("{n_bytes}" for _ in range(args.placeholders))
        (many / "many.yaml").write_text(USER_TEMPLATE.format(prompt=prompt), encoding="utf-8")
        size_kb = (many / "many.yaml").stat().st_size / 1000
        ms = _median_ms(lambda: _load(many), max(1, args.repeats // 2))
        what = "checked (loaded, or refused over the prompt limit)"
        print(f"{args.placeholders:,} placeholders on one line ({size_kb:.0f} kB): {what} in {ms:.0f} ms")

        user = root / "user"
        user.mkdir()
        (user / "mine.yaml").write_text(
            USER_TEMPLATE.format(prompt="{flops} over {n_bytes}?"), encoding="utf-8"
        )
        bare = _median_ms(load_bank, args.repeats)
        checked = _median_ms(usable_bank, args.repeats)
        print(f"shipped bank: load_bank {bare:.0f} ms, usable_bank (1 seed each) {checked:.0f} ms")
        bare = _median_ms(lambda: load_bank([user]), args.repeats)
        checked = _median_ms(lambda: usable_bank([user]), args.repeats)
        print(
            f"shipped + 1 user template: load_bank {bare:.0f} ms, usable_bank "
            f"({len(SWEEP_SEEDS)} seeds for the user's) {checked:.0f} ms"
        )


if __name__ == "__main__":
    main()
