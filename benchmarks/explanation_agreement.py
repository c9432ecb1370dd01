"""How well the explanation checks agree with an interviewer's labels, on explanations written blind.

The corpus (``tests/grader/data/explanations/``) holds typed explanations for every recall item,
written by people who had seen only each question and its key-point sentences, each labelled by hand
before any check ran: the key points it truly makes, the misconceptions it truly asserts, and the
rating a careful interviewer gives. ``dev/`` is what the rubrics and the lexicon were grown on;
``holdout/`` was kept aside until the checker was done, so its figures are the honest estimate: eight
writers, AU to BB, wrote for all 22 items, each in a persona of their own, under a guide that states the
rating rule (all points → Good, at least half → Hard, fewer → Again; any wrong claim → Again); their
texts were scored once before the checks of this round changed and once after, and no check was tuned
on them. Earlier held-out sets (writers C, F and G; H, I and J; S, T, U and V;
AA, AB, AC and AD; AM to AT), once scored, joined
``dev/``, as did writers W–Z, AE–AH and AI–AL, each scored once as new writers before any rubric was
grown on them. Where a writer's rating broke the rule their own point labels imply, the rating in
``dev/`` is the rule's.

It prints, per split: the rating agreement (exact and within one step), key-point precision and
recall (overall and for answers in unusual words), what salad, negated and wrong-figure texts earn,
misconception precision and recall, correct answers rated Again, and the time per check (p50, p99, and
the p99 of CPU time, which other work on a shared machine does not inflate);
then the same per kind and per item.

    .venv/bin/python benchmarks/explanation_agreement.py [--split dev|holdout|all] [--items] [--misses]
        [--only ITEM,ITEM]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import Problem, check_explanation  # noqa: E402
from grader.explain.check import RATINGS  # noqa: E402
from question_bank import Bank, generate, load_bank  # noqa: E402
from question_bank.scenarios import generate_scenario  # noqa: E402

CORPUS = ROOT / "tests" / "grader" / "data" / "explanations"
SPLITS = ("dev", "holdout")
#: The goals the checks are held to (on every split).
GOALS = {
    "rating_exact": 0.85,
    "rating_within_one": 0.97,
    "point_precision": 0.90,
    "point_recall": 0.90,
    "unusual_recall": 0.80,
    "misconception_precision": 0.90,
    "misconception_recall": 0.85,
}


@dataclass(frozen=True)
class Labelled:
    """One labelled explanation: its item, kind, text, and the interviewer's labels."""

    item: str
    id: str
    kind: str
    text: str
    points: frozenset[int]
    misconceptions: frozenset[str]
    rating: str


@dataclass(frozen=True)
class Outcome:
    """One explanation as labelled and as checked, with the check's time in seconds."""

    case: Labelled
    points: frozenset[int]
    misconceptions: frozenset[str]
    rating: str
    seconds: float
    #: CPU time of the check: what the check costs, whatever else shares the machine.
    cpu_seconds: float = 0.0
    #: Denied points, wrong figures and arithmetic slips the check found.
    wrong_claims: int = 0


def load_corpus(split: str) -> list[Labelled]:
    """Every labelled text of a split (``dev``, ``holdout``), in file order."""
    out: list[Labelled] = []
    for path in sorted((CORPUS / split).glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        for t in data["texts"]:
            out.append(
                Labelled(
                    item=str(data["item"]),
                    id=str(t["id"]),
                    kind=str(t["kind"]),
                    text=str(t["text"]),
                    points=frozenset(int(i) for i in t.get("points") or ()),
                    misconceptions=frozenset(str(m) for m in t.get("misconceptions") or ()),
                    rating=str(t["rating"]),
                )
            )
    return out


def problem_for(bank: Bank, item: str) -> Problem:
    """The recall problem an item id names: a template, or ``scenario/step`` (seed 0)."""
    if "/" in item:
        scenario, step = item.split("/", 1)
        return next(s for s in generate_scenario(bank.scenario(scenario), 0).steps if s.step_id == step)
    return generate(bank.get(item), 0)


def run(cases: Iterable[Labelled], bank: Bank) -> list[Outcome]:
    """Check every case, timing each check."""
    problems: dict[str, Problem] = {}
    out: list[Outcome] = []
    for case in cases:
        problem = problems.setdefault(case.item, problem_for(bank, case.item))
        start, cpu_start = time.perf_counter(), time.process_time()
        check = check_explanation(problem, case.text)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
        out.append(
            Outcome(
                case=case,
                points=frozenset(i for i, hit in enumerate(check.hits) if hit),
                misconceptions=frozenset(check.misconceptions),
                rating=check.suggested_rating,
                seconds=seconds,
                cpu_seconds=cpu_seconds,
                wrong_claims=check.wrong_claims,
            )
        )
    return out


def _ratio(num: int, den: int) -> float:
    return num / den if den else float("nan")


def figures(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """The agreement figures of a set of outcomes (shares in 0..1, counts as floats)."""
    step = {r: i for i, r in enumerate(RATINGS)}
    exact = sum(o.rating == o.case.rating for o in outcomes)
    near = sum(abs(step[o.rating] - step[o.case.rating]) <= 1 for o in outcomes)
    tp = sum(len(o.points & o.case.points) for o in outcomes)
    fp = sum(len(o.points - o.case.points) for o in outcomes)
    fn = sum(len(o.case.points - o.points) for o in outcomes)
    mtp = sum(len(o.misconceptions & o.case.misconceptions) for o in outcomes)
    mfp = sum(len(o.misconceptions - o.case.misconceptions) for o in outcomes)
    mfn = sum(len(o.case.misconceptions - o.misconceptions) for o in outcomes)
    unusual = [o for o in outcomes if o.case.kind == "unusual-words"]
    utp = sum(len(o.points & o.case.points) for o in unusual)
    ufn = sum(len(o.case.points - o.points) for o in unusual)
    salad = [o for o in outcomes if o.case.kind == "salad"]
    bad = [o for o in outcomes if o.case.kind in ("negated", "wrong-figure", "salad")]
    goods = [o for o in outcomes if o.case.rating == "good"]
    times = sorted(o.seconds for o in outcomes) or [0.0]
    cpu_times = sorted(o.cpu_seconds for o in outcomes) or [0.0]
    return {
        "texts": float(len(outcomes)),
        "rating_exact": _ratio(exact, len(outcomes)),
        "rating_within_one": _ratio(near, len(outcomes)),
        "point_precision": _ratio(tp, tp + fp),
        "point_recall": _ratio(tp, tp + fn),
        "unusual_recall": _ratio(utp, utp + ufn),
        "misconception_precision": _ratio(mtp, mtp + mfp),
        "misconception_recall": _ratio(mtp, mtp + mfn),
        "salad_texts": float(len(salad)),
        "salad_max_points": float(max((len(o.points) for o in salad), default=0)),
        "salad_points": float(sum(len(o.points) for o in salad)),
        "bad_rated_good": float(sum(o.rating == "good" for o in bad)),
        "bad_texts": float(len(bad)),
        "good_rated_again": float(sum(o.rating == "again" for o in goods)),
        "good_texts": float(len(goods)),
        "p50_ms": 1000 * statistics.median(times),
        "p99_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))],
        "p99_cpu_ms": 1000 * cpu_times[min(len(cpu_times) - 1, int(0.99 * len(cpu_times)))],
    }


def _summary(name: str, f: dict[str, float]) -> str:
    return (
        f"{name}: {f['texts']:.0f} texts · rating {f['rating_exact']:.0%} (within one step "
        f"{f['rating_within_one']:.0%}) · points P/R {f['point_precision']:.2f}/{f['point_recall']:.2f} · "
        f"unusual words R {f['unusual_recall']:.2f} · misconceptions P/R "
        f"{f['misconception_precision']:.2f}/{f['misconception_recall']:.2f} · salad ≤ "
        f"{f['salad_max_points']:.0f} point(s) each · negated/wrong figure/salad rated Good "
        f"{f['bad_rated_good']:.0f} of {f['bad_texts']:.0f} · correct rated Again "
        f"{f['good_rated_again']:.0f} "
        f"of {f['good_texts']:.0f} · p99 {f['p99_ms']:.1f} ms (CPU time {f['p99_cpu_ms']:.1f} ms)"
    )


def _table(outcomes: Sequence[Outcome], key: str) -> None:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[getattr(o.case, key)].append(o)
    print(f"\n| {key} | texts | rating | within one | points P | points R | misc. P | misc. R |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sorted(groups):
        f = figures(groups[name])
        print(
            f"| {name} | {f['texts']:.0f} | {f['rating_exact']:.0%} | {f['rating_within_one']:.0%} | "
            f"{f['point_precision']:.2f} | {f['point_recall']:.2f} | {f['misconception_precision']:.2f} | "
            f"{f['misconception_recall']:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--items", action="store_true", help="also print the per-item table")
    parser.add_argument("--misses", action="store_true", help="list every text whose rating disagrees")
    parser.add_argument("--only", default="", help="only these items (comma-separated ids)")
    args = parser.parse_args()
    only = {item for item in args.only.split(",") if item}
    bank = load_bank()
    splits = SPLITS if args.split == "all" else (args.split,)
    for split in splits:
        outcomes = run([c for c in load_corpus(split) if not only or c.item in only], bank)
        if not outcomes:
            print(f"{split}: no texts")
            continue
        _table(outcomes, "kind")
        if args.items:
            _table(outcomes, "item")
        if args.misses:
            for o in outcomes:
                if o.rating != o.case.rating or o.points != o.case.points:
                    print(
                        f"- {o.case.id} [{o.case.kind}] label {o.case.rating} {sorted(o.case.points)} "
                        f"{sorted(o.case.misconceptions)} / check {o.rating} {sorted(o.points)} "
                        f"{sorted(o.misconceptions)}" + (" · wrong claims" if o.wrong_claims else "")
                    )
        print()
        print(_summary(split, figures(outcomes)))


if __name__ == "__main__":
    main()
