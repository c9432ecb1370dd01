"""How long hostile bank files take to refuse or load, and what the app's bank checks cost at start-up.

Prints, each the median of ``--repeats`` runs:

- the refusal of a ~700-byte YAML alias bomb (nine anchors of nine aliases each) and of an alias
  inside its own anchor;
- loading a user template whose prompt holds ``--placeholders`` placeholders on one line (a prompt
  over 20,000 characters is refused, so 64,000 placeholders show the time of that refusal);
- the app's bank (``usable_bank``: shipped templates generated for 1 seed, user templates for 700)
  against the bare ``load_bank``, with and without one user template;
- ``validate`` of ``--templates`` plain user templates in 10 files (run once: it takes a while), in
  all and per template; past the user bank's limit (``MAX_USER_TEMPLATES``) it is refused at
  load, by name, and nothing is generated.

    .venv/bin/python benchmarks/hostile_banks.py [--repeats N] [--placeholders N] [--templates N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from question_bank import BankError, load_bank
from question_bank.__main__ import validate
from question_bank.generation_checks import SWEEP_SEEDS, usable_bank
from question_bank.yaml_source import forget_parsed, read_yaml

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


def _cold(load: Callable[[], object]) -> Callable[[], object]:
    """``load`` parsing every file anew, as a fresh process does (read_yaml keeps what it parsed)."""

    def run() -> object:
        forget_parsed()
        return load()

    return run


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


def _validate_large(root: Path, count: int, *, files: int = 10) -> None:
    """Time ``validate`` of ``count`` distinct plain templates spread over ``files`` files."""
    folder = root / "large"
    folder.mkdir()
    body = USER_TEMPLATE.format(prompt="{flops} over {n_bytes}?").split("\n", 1)[1]
    for index in range(files):
        ids = range(index, count, files)
        text = "".join(body.replace("user-intensity", f"user-intensity-{i}") for i in ids)
        (folder / f"bank{index}.yaml").write_text("templates:\n" + text, encoding="utf-8")
    size_kb = sum(path.stat().st_size for path in folder.iterdir()) / 1000
    with contextlib.redirect_stdout(io.StringIO()):
        validate([])  # the shipped bank's sweep is remembered in the process: what follows is the user's
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = validate([str(folder)])
    seconds = time.perf_counter() - started
    said = out.getvalue().strip().splitlines()
    what = f"validate of {count:,} plain templates in {files} files ({size_kb:.0f} kB)"
    if code != 0:
        print(f"{what}: exit {code} in {seconds:.1f} s, nothing generated; it says:")
        print(f"  {said[0] if said else ''}")
        return
    print(
        f"{what}: exit 0 in {seconds:.1f} s, {seconds / count * 1000:.0f} ms per template "
        f"({len(SWEEP_SEEDS)} seeds each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--placeholders", type=int, default=64_000)
    parser.add_argument("--templates", type=int, default=500, help="plain user templates to validate")
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
        bare = _median_ms(_cold(load_bank), args.repeats)
        checked = _median_ms(_cold(usable_bank), args.repeats)
        print(f"shipped bank: load_bank {bare:.0f} ms, usable_bank (1 seed each) {checked:.0f} ms")
        bare = _median_ms(_cold(lambda: load_bank([user])), args.repeats)
        checked = _median_ms(_cold(lambda: usable_bank([user])), args.repeats)
        print(
            f"shipped + 1 user template: load_bank {bare:.0f} ms, usable_bank "
            f"({len(SWEEP_SEEDS)} seeds for the user's) {checked:.0f} ms"
        )
        _validate_large(root, args.templates)


if __name__ == "__main__":
    main()
