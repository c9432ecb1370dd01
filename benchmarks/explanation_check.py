"""How the shipped rubrics read three answers to each recall question, and how long a check takes.

For every recall template (seed 0) it prints the key points made by: the model answer; a deliberately
partial answer (the model answer's first paragraph, or first bullet); and an off-topic paragraph. Then
the median time of ``grader.check_explanation`` per explanation: the model answers as typed, and a
long answer (every model answer pasted together, about 3,000 words), each timed warm (the rubric
phrases are cached after the first call, as they are in the app).

    .venv/bin/python benchmarks/explanation_check.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import Problem, check_explanation  # noqa: E402
from question_bank import generate, load_bank  # noqa: E402
from question_bank.rubric_check import OFF_TOPIC  # noqa: E402


def partial_answer(model_answer: str) -> str:
    """The first paragraph of the model answer (its first bullet when it is a list)."""
    first = model_answer.strip().split("\n\n")[0]
    return first.split("\n- ")[0] if first.lstrip().startswith("- ") else first


def _made(problem: Problem, text: str) -> str:
    check = check_explanation(problem, text)
    wrong = f", {len(check.misconceptions)} misconception(s)" if check.misconceptions else ""
    return f"{check.points_made}/{len(check.hits)}{wrong}"


def _median_ms(problem: Problem, text: str, rounds: int) -> float:
    check_explanation(problem, text)  # warm the phrase cache
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        check_explanation(problem, text)
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    problems = [generate(t, 0) for t in load_bank().templates if t.kind == "recall"]
    print("| template | key points | model answer | partial answer | off-topic |")
    print("|---|---|---|---|---|")
    for p in problems:
        row = [_made(p, p.model_answer), _made(p, partial_answer(p.model_answer)), _made(p, OFF_TOPIC)]
        print(f"| {p.template_id} | {len(p.key_points)} | " + " | ".join(row) + " |")
    typed = [_median_ms(p, p.model_answer, args.rounds) for p in problems]
    words = statistics.mean(len(p.model_answer.split()) for p in problems)
    long_text = "\n\n".join(p.model_answer for p in problems)
    long_ms = [_median_ms(p, long_text, max(3, args.rounds // 4)) for p in problems]
    print(
        f"\ncheck_explanation: median {statistics.median(typed):.1f} ms per model answer "
        f"(mean {words:.0f} words; slowest template {max(typed):.1f} ms); "
        f"{statistics.median(long_ms):.1f} ms for a {len(long_text.split())}-word answer."
    )


if __name__ == "__main__":
    main()
