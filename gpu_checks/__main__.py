"""Command line: ``python -m gpu_checks [--quick|--full|--smoke] [--device cpu|cuda|mps] [--json]``.

Exit status: 0 when every probe ran, 1 when a probe failed (its error is in the output), 2 for
a bad option, an unavailable device or a size above the memory cap, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gpu_checks.device import check_threads
from gpu_checks.errors import GpuChecksError
from gpu_checks.findings import findings
from gpu_checks.history import append_report, history_path_for
from gpu_checks.plan import get_plan, parse_bytes, with_buffer_bytes
from gpu_checks.record import to_plain
from gpu_checks.report import RunReport
from gpu_checks.runner import Progress, Runner
from gpu_checks.table import comparison_rows, format_si


def _threads(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    try:
        return check_threads(value)
    except GpuChecksError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _size(text: str) -> int:
    try:
        return parse_bytes(text)
    except GpuChecksError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used for ``--help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m gpu_checks",
        description="Measure bandwidth, the matmul roofline, overhead, fusion and the decode knee on "
        "this device, beside the estimator's predictions.",
    )
    plan = parser.add_mutually_exclusive_group()
    plan.add_argument(
        "--quick", dest="plan", action="store_const", const="quick", help="about 20 s on 2 cores (default)"
    )
    plan.add_argument("--full", dest="plan", action="store_const", const="full", help="a few minutes")
    plan.add_argument("--smoke", dest="plan", action="store_const", const="smoke", help="tiny sizes, seconds")
    parser.set_defaults(plan="quick")
    parser.add_argument("--device", choices=("cpu", "cuda", "mps"), help="default: the best available")
    parser.add_argument(
        "--threads", type=_threads, help="CPU threads, at most the CPUs available (default: torch's choice)"
    )
    parser.add_argument(
        "--buffer-bytes",
        type=_size,
        metavar="SIZE",
        help="explicit size of the largest buffers, e.g. 512MiB (refused above a quarter of free memory)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--save", action="store_true", help="append the report to the history file")
    parser.add_argument("--history", type=Path, metavar="PATH", help="history file for --save")
    return parser


def payload(report: RunReport) -> dict[str, Any]:
    """The JSON output: the summary keys, the findings, the comparisons and the full report."""
    return {
        **report.summary(),
        "findings": [
            {"checklist_item": f.check_id, "text": f.text, "doubts": [to_plain(d) for d in f.doubts]}
            for f in findings(report)
        ],
        "comparisons": comparison_rows(report),
        "report": report.to_dict(),
    }


def _print_text(report: RunReport) -> None:
    summary = report.summary()
    device = report.device
    print(f"{device.name} ({device.torch_device}, {report.threads} threads, torch {device.torch_version})")
    print(f"plan {report.plan}: {report.elapsed_s:.1f} s{' (stopped)' if report.stopped else ''}")
    print(f"  memory bandwidth  {format_si(summary['mem_bandwidth_bytes_per_s'], 'B/s')}")
    for dtype, peak in summary["matmul_peak_flops"].items():
        print(f"  matmul {dtype:<10} {format_si(peak, 'FLOP/s')}")
    print(f"  overhead per op   {format_si(summary['overhead_s_per_op'], 's')}")
    print(f"  fusion time ratio {format_si(summary['fusion_time_ratio'], '')}")
    print(f"  noisy samples     {summary['noisy_samples']} of {summary['samples']} (spread above 10 %)")
    print("predicted vs measured:")
    for row in comparison_rows(report):
        ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "n/a"
        print(
            f"  [{row['checklist_item']}] {row['quantity']}: predicted {row['predicted_text']}, "
            f"measured {row['measured_text']}, ratio {ratio}"
        )
    print("what this run answers:")
    for finding in findings(report):
        print(f"  [{finding.check_id}] {finding.text}")
        for doubt in finding.doubts:
            print(f"    not reliable. {doubt.sentence()}")
    for probe, error in report.errors.items():
        print(f"error in {probe}: {error}", file=sys.stderr)


def main(argv: Sequence[str] | None = None, *, runner: Runner | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    show_progress = not args.json and sys.stderr.isatty()

    def progress(update: Progress) -> None:
        print(f"\r{update.fraction:4.0%} {update.message[:60]:<60}", end="", file=sys.stderr, flush=True)

    try:
        plan = with_buffer_bytes(get_plan(args.plan), args.buffer_bytes)
        report = (runner or Runner()).run(
            plan, device=args.device, threads=args.threads, progress=progress if show_progress else None
        )
    except GpuChecksError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    if show_progress:
        print(file=sys.stderr)
    if args.save or args.history:
        from progress import default_db_path

        append_report(args.history or history_path_for(default_db_path()), report)
    if args.json:
        print(json.dumps(payload(report), indent=2, allow_nan=False))
    else:
        _print_text(report)
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
