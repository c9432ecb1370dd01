"""Command line for bank authors.

    python -m question_bank validate [PATH...]          load and check the bank (exit 0 or 1)
    python -m question_bank sample TEMPLATE_ID --seed N [--bank PATH]   print one problem and its answer
    python -m question_bank coverage                     templates per checklist item, slips, pools
    python -m question_bank anki --out FILE.apkg [--variants N] [--checklist ID ...] [--seed S] [--force]
                                                         an Anki package of generated variants (a new
                                                         file, or an existing one with --force)

``validate`` checks the shipped bank, ``DRILL_BANK_DIRS`` and each PATH (a bank file or a folder
of them) together, so duplicate ids across them are caught; then it generates every template for
many seeds to catch draws that fail or give an answer that is not a finite positive number
(:mod:`question_bank.generation_checks`: the app runs the same checks and leaves out what fails).
Every mistake is listed, not just the first.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from grader.problem import Kind, Problem
from grader.units import format_quantity
from question_bank.bank import Bank, load_bank
from question_bank.checklist import load_checklist
from question_bank.errors import BankError
from question_bank.generation import generate
from question_bank.generation_checks import SMOKE_SEEDS, SWEEP_SEEDS, sweep_issues
from question_bank.scenarios import generate_scenario
from question_bank.templates import NumericStep, NumericTemplate


def _load(paths: Sequence[str]) -> Bank | None:
    try:
        return load_bank(extra_dirs=[Path(p) for p in paths])
    except BankError as exc:
        for issue in exc.issues:
            print(issue)
        print(f"\n{len(exc.issues)} problem{'s' if len(exc.issues) != 1 else ''} found.")
        return None


def validate(paths: Sequence[str]) -> int:
    bank = _load(paths)
    if bank is None:
        return 1
    issues = sweep_issues(bank)
    for issue in issues:
        print(issue)
    if issues:
        print(f"\n{len(issues)} template{'s' if len(issues) != 1 else ''} failed to generate.")
        return 1
    kinds = Counter(t.kind for t in [*bank.templates, *bank.scenarios])
    files = len(set(file for file, _ in bank.sources.values()))
    pools = ", ".join(f"{name} ({len(s)} scenarios)" for name, s in sorted(bank.pools.items())) or "none"
    print(
        f"OK: {len(bank.templates) + len(bank.scenarios)} templates in {files} files "
        f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); pools: {pools}; "
        f"each generated for seeds 0..{len(SMOKE_SEEDS) - 1} (shipped) or 0..{len(SWEEP_SEEDS) - 1} (yours)."
    )
    return 0


def render_problem(problem: Problem) -> str:
    """A problem as plain text for authors: prompt, answer, accepted range, slips, derivation."""
    from grader import grade

    out = [
        f"{problem.template_id} · {problem.kind.value} · {problem.checklist_item}"
        f" · difficulty {problem.difficulty}"
    ]
    out += [f"seed {problem.seed} · params {problem.params}", "", problem.prompt.rstrip(), ""]
    if problem.kind is Kind.NUMERIC and problem.answer is not None:
        unit = problem.unit
        verdict = grade(problem, format_quantity(problem.answer, unit, sig_figs=12))
        tol = f"{problem.tolerance.kind.value} {problem.tolerance.value:g}"
        out.append(
            f"Answer: {format_quantity(problem.answer, unit)} (SI {problem.answer:.6g}; tolerance {tol})"
        )
        if verdict.accepted_range is not None:
            lo, hi = verdict.accepted_range
            out.append(f"Accepted: {lo:.4g} to {hi:.4g} {unit}".rstrip())
        out.append("Slips:" if problem.slips else "Slips: none for this draw")
        out += [f"  {s.name}: {format_quantity(s.value, unit)}: {s.diagnosis}" for s in problem.slips]
    for index, choice in enumerate(problem.choices):
        mark = "✓" if choice.correct else " "
        out.append(f"  [{mark}] {index}. {choice.text}  ({choice.explanation})")
    if problem.key_points:
        out += ["Key points:", *(f"  - {point}" for point in problem.key_points)]
    if problem.derivation:
        out.append("Derivation:")
        out += [
            f"  {s.label}: {s.formula} = {s.substituted} = {s.value:.6g} {s.unit}".rstrip()
            for s in problem.derivation
        ]
    out += [
        "",
        "Explanation:",
        problem.explanation.rstrip(),
        "",
        "References:",
        *(f"  - {r}" for r in problem.references),
    ]
    return "\n".join(out)


def sample(template_id: str, seed: int, paths: Sequence[str] = ()) -> int:
    bank = _load(paths)
    if bank is None:
        return 1
    if bank.is_scenario(template_id):
        scenario = generate_scenario(bank.scenario(template_id), seed)
        parts = [f"{scenario.template_id} · scenario · {len(scenario.steps)} steps", scenario.setup.rstrip()]
        parts += [
            f"--- step {step.step} of {step.n_steps}\n{render_problem(step)}" for step in scenario.steps
        ]
        print("\n\n".join(parts))
        return 0
    try:
        template = bank.get(template_id)
    except KeyError as exc:
        print(exc.args[0])
        return 1
    print(render_problem(generate(template, seed)))
    return 0


def coverage_report(bank: Bank) -> str:
    """Templates per checklist item (by kind) and per topic tag, slips per numeric template, the pools."""
    out = ["Templates per checklist item:"]
    for item in load_checklist():
        templates = bank.by_checklist(item.id)
        kinds = Counter(t.kind for t in templates)
        detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        flag = "" if len(templates) >= 3 else "  <- fewer than 3"
        out.append(f"  {item.id:<24} {len(templates):>3}  ({detail}){flag}")
    kinds = Counter(t.kind for t in bank.templates)
    split = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    out.append(f"  {'total':<24} {len(bank.templates):>3}  ({split})")
    topics = Counter(topic for t in bank.templates for topic in t.topics)
    if topics:
        out += ["", "Templates per topic tag (atomic ones are numeric or choice):"]
        for topic, count in sorted(topics.items()):
            kinds = Counter(t.kind for t in bank.templates if topic in t.topics)
            detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
            flag = "" if kinds["numeric"] + kinds["choice"] >= 2 else "  <- fewer than 2 atomic"
            out.append(f"  {topic:<24} {count:>3}  ({detail}){flag}")
    out += ["", "Slips per numeric template:"]
    for template in bank.templates:
        if isinstance(template, NumericTemplate):
            names = ", ".join(slip.name for slip in template.slips)
            out.append(f"  {template.id:<36} {len(template.slips):>2}  {names}")
    out += ["", "Scenarios (steps, then each step's checklist item and kind):"]
    for scenario in bank.scenarios:
        out.append(f"  {scenario.id:<36} {len(scenario.steps):>2} steps  ({scenario.checklist})")
        for number, step in enumerate(scenario.steps, start=1):
            slips = f", {len(step.slips)} slips" if isinstance(step, NumericStep) else ""
            out.append(f"      {number}. {step.id:<28} {step.checklist:<24} {step.kind}{slips}")
    steps_by_item = Counter(step.checklist for scenario in bank.scenarios for step in scenario.steps)
    if steps_by_item:
        out += ["", "Scenario steps per checklist item:"]
        out += [f"  {item.id:<24} {steps_by_item.get(item.id, 0):>3}" for item in load_checklist()]
    out += ["", "Scenario pools:"]
    for name, scenarios in sorted(bank.pools.items()):
        answers = Counter(s.answer for s in scenarios)
        distinct = len({s.text.strip() for s in scenarios})
        split = ", ".join(f"{a} {n}" for a, n in sorted(answers.items()))
        out.append(f"  {name}: {len(scenarios)} scenarios, {distinct} distinct ({split})")
    return "\n".join(out)


def coverage() -> int:
    bank = _load(())
    if bank is None:
        return 1
    print(coverage_report(bank))
    return 0


def anki(out: str, *, variants: int, checklist: Sequence[str], seed: int, force: bool = False) -> int:
    from question_bank.anki import write_anki
    from question_bank.output_file import output_refusal, write_new

    target = Path(out)
    if target.suffix != ".apkg":
        print(f"{out}: Anki imports packages named *.apkg; give --out a name ending in .apkg")
        return 2
    if not target.parent.is_dir():
        print(f"{target.parent}: no such folder; create it or give --out a path in an existing folder")
        return 2
    refusal = output_refusal(target, flag="--out", force=force)
    if refusal is not None:
        print(refusal)
        return 2
    bank = _load(())
    if bank is None:
        return 1
    try:
        summary = write_new(
            target,
            lambda file: write_anki(file, bank, variants=variants, checklist=checklist, seed=seed),
            force=force,
        )
    except ValueError as exc:
        print(f"{exc}.")
        return 2
    except FileExistsError:
        print(f"{out}: appeared while the package was written; add --force to overwrite it")
        return 2
    except OSError as exc:
        print(f"{out}: cannot write the package ({exc.strerror or exc}); choose another --out path")
        return 1
    decks = len(summary.decks)
    print(f"Wrote {summary.notes} notes in {decks} deck{'s' if decks != 1 else ''} to {target}.")
    for line in summary.skipped:
        print(f"  left out: {line}")
    print("Import it in Anki with File > Import; importing a newer export updates these notes.")
    return 0


def _variants(text: str) -> int:
    from question_bank.anki import MAX_VARIANTS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_VARIANTS:
        raise argparse.ArgumentTypeError(f"give 1 to {MAX_VARIANTS} variants, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m question_bank", description="Question-bank tools for authors."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "validate", help="load and check the bank plus PATHs; exit 1 listing every error"
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="a bank file or a folder of them")
    show = commands.add_parser("sample", help="print one generated problem with its answer")
    show.add_argument("template_id", metavar="TEMPLATE_ID")
    show.add_argument("--seed", type=int, default=0)
    show.add_argument(
        "--bank", action="append", default=[], metavar="PATH", help="also load this file or folder"
    )
    commands.add_parser("coverage", help="templates per checklist item, slips per template, pools")
    deck = commands.add_parser("anki", help="write an Anki package (.apkg) of generated variants")
    deck.add_argument("--out", required=True, metavar="FILE.apkg", help="where to write the package")
    deck.add_argument("--variants", type=_variants, default=3, metavar="N", help="variants per template (3)")
    deck.add_argument(
        "--checklist", action="extend", nargs="+", default=[], metavar="ID", help="only these checklist items"
    )
    deck.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (0); then S+1, S+2...")
    deck.add_argument("--force", action="store_true", help="overwrite the file at --out if there is one")
    args = parser.parse_args(argv)
    if args.command == "anki":
        return anki(
            args.out, variants=args.variants, checklist=args.checklist, seed=args.seed, force=args.force
        )
    if args.command == "validate":
        return validate(args.paths)
    if args.command == "sample":
        return sample(args.template_id, args.seed, args.bank)
    return coverage()


if __name__ == "__main__":
    sys.exit(main())
