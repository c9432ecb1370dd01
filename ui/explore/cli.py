"""``python -m grader.estimator explore``: one setup's figures for a terminal or, with ``--json``, a script.

The estimator runs this when it is run as a script; it lives here, beside the page that shows the same
figures, because the presets it reads belong to the bank and ``grader`` never imports the bank.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from question_bank.presets import Accelerator, ModelConfig
from ui.explore.figures import DTYPES, Setup, compute_figures
from ui.explore.text import report_json, report_text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


def parser(*, models: Sequence[str], hardware: Sequence[str]) -> argparse.ArgumentParser:
    """The command's arguments: ``explore --model ID --gpu ID [--chips --weights --kv --batch ...]``."""
    top = argparse.ArgumentParser(prog="python -m grader.estimator", description="The estimator's figures.")
    commands = top.add_subparsers(dest="command", required=True)
    explore = commands.add_parser(
        "explore", help="every figure of one serving setup, as the Explore page shows"
    )
    explore.add_argument("--model", required=True, choices=models, help="a model preset")
    explore.add_argument("--gpu", required=True, choices=hardware, help="an accelerator preset")
    explore.add_argument("--chips", type=_positive, default=1, help="chips, with tensor parallelism")
    explore.add_argument("--weights", choices=DTYPES, default="bf16", help="weights' number format")
    explore.add_argument("--kv", choices=DTYPES, default="bf16", help="the KV cache's number format")
    explore.add_argument("--batch", type=_positive, default=1, help="sequences decoded together")
    explore.add_argument("--prompt", type=_positive, default=1000, help="prompt tokens")
    explore.add_argument("--output", type=_positive, default=200, help="output tokens")
    explore.add_argument("--json", action="store_true", help="print JSON (SI values and their steps)")
    return top


def main(
    argv: Sequence[str] | None = None,
    *,
    models: Mapping[str, ModelConfig] | None = None,
    hardware: Mapping[str, Accelerator] | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """Run the command; presets default to the bank's. Returns the exit status."""
    if models is None or hardware is None:
        from question_bank import load_hardware
        from question_bank.presets import standard_attention_models

        models, hardware = standard_attention_models(), load_hardware()
    args = parser(models=sorted(models), hardware=sorted(hardware)).parse_args(argv)
    setup = Setup(
        model=args.model, gpu=args.gpu, chips=args.chips, weights=args.weights, kv=args.kv,
        batch=args.batch, prompt=args.prompt, output=args.output,
    )  # fmt: skip
    figures = compute_figures(setup, models=models, hardware=hardware)
    out.write((json.dumps(report_json(figures), indent=2) if args.json else report_text(figures)) + "\n")
    return 0
