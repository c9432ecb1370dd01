"""How the shipped bank grades near-miss answers: every numeric template × 200 seeds.

For each problem, answers 3 %, 8 %, 12 % and 20 % above and below the exact value are graded, and
the diagnoses given are counted: generic ones (a factor of 2, 8, 1000, a binary prefix, "close"),
declared ones, and generic ones that cannot apply to the quantity asked (a binary-prefix slip on
a time or a count). Prints the counts and the tolerance class of every numeric template.

    .venv/bin/python benchmarks/grading_audit.py [--seeds N]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import Kind, grade  # noqa: E402
from grader.diagnosis import CLOSE, generic_slip_names  # noqa: E402
from grader.units import dimensionality, format_quantity  # noqa: E402
from question_bank import generate, load_bank  # noqa: E402

OFFSETS = (0.03, 0.08, 0.12, 0.20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    generic = generic_slip_names()
    counts: collections.Counter[str] = collections.Counter()
    impossible: collections.Counter[str] = collections.Counter()
    classes: dict[str, list[str]] = collections.defaultdict(list)
    graded = 0
    for template in load_bank(include_shipped=True).templates:
        if template.kind != "numeric":
            continue
        for seed in range(args.seeds):
            problem = generate(template, seed)
            if seed == 0:
                classes[getattr(problem, "tolerance_class", "") or str(problem.tolerance)].append(template.id)
            assert problem.kind is Kind.NUMERIC and problem.answer is not None
            is_data = "[information]" in dimensionality(problem.unit)
            for offset in OFFSETS:
                for sign in (1, -1):
                    response = format_quantity(problem.answer * (1 + sign * offset), problem.unit)
                    verdict = grade(problem, response)
                    graded += 1
                    name = verdict.diagnosis
                    if name is None:
                        continue
                    counts["close" if name == CLOSE else "generic" if name in generic else "declared"] += 1
                    if name in generic and "-for-" in name and not is_data:
                        impossible[name] += 1
    print(f"answers graded: {graded}")
    print(f"generic slips named: {counts['generic']}; declared slips: {counts['declared']}")
    print(f"'close: check your rounding': {counts['close']}")
    print("binary-prefix slips on quantities that are not data:", sum(impossible.values()), dict(impossible))
    for name, ids in sorted(classes.items()):
        print(f"{name}: {len(ids)} templates: {', '.join(ids)}")


if __name__ == "__main__":
    main()
