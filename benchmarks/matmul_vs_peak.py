"""The matmul probe's statement against other torch GEMM spellings, interleaved round by round.

For every fast dtype of the device and the plan's matmul sizes, each round times the probe's own
statement (``torch.mm(a, b, out=c)``) and the alternatives (``torch.matmul``, ``torch.addmm``),
in a rotating order, with ``gpu_checks.timing.measure`` and the plan's run times. Every side runs
on the probe's thread count: a count is not picked by the best of noisy medians, which only
rewards the luckiest round. The probe's figure is its best size (as the probe reports its peak)
by median over rounds; the reference the best median over rounds of any spelling and size.
Prints the ratio (goal ≥ 0.9) and each figure's spread across rounds (interquartile range over
median): above 10 %, the machine was too noisy for a firm ratio.
Run: ``.venv/bin/python benchmarks/matmul_vs_peak.py [--device cpu|cuda|mps] [--full] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu_checks import FULL, QUICK
from gpu_checks.device import DeviceKind, discover
from gpu_checks.timing import measure

PROBE = "torch.mm"
_STATEMENTS = {
    PROBE: "torch.mm(a, b, out=c)",  # the probe's statement (gpu_checks/probes/matmul.py)
    "torch.matmul": "torch.matmul(a, b, out=c)",
    "torch.addmm": "torch.addmm(c, a, b, beta=0.0, out=d)",
}


def spread(values: list[float]) -> float:
    """Interquartile range over median (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    p25, _, p75 = statistics.quantiles(values, n=4, method="inclusive")
    return (p75 - p25) / statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda", "mps"), default=None)
    parser.add_argument("--full", action="store_true", help="use the Full plan's sizes and run times")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args()
    import torch

    plan = FULL if args.full else QUICK
    info = discover(args.device)
    dims = plan.matmul_dims_cpu if info.kind is DeviceKind.CPU else plan.matmul_dims_accelerator
    print(f"device: {info.name} ({info.torch_device}), {info.threads} threads for every side")
    for dtype_name in info.fast_dtypes:
        dtype = getattr(torch, dtype_name)
        operands = {}
        for dim in dims:
            a, b = (torch.rand(dim, dim, device=info.torch_device).to(dtype) for _ in range(2))
            c, d = (torch.zeros(dim, dim, device=info.torch_device, dtype=dtype) for _ in range(2))
            operands[dim] = {"torch": torch, "a": a, "b": b, "c": c, "d": d}
        candidates = [(name, dim) for dim in dims for name in _STATEMENTS]
        rates: dict[tuple[str, int], list[float]] = {key: [] for key in candidates}
        for r in range(args.rounds):
            shift = r % len(candidates)  # rotate the order: no spelling always runs first or last
            for name, dim in candidates[shift:] + candidates[:shift]:
                timing = measure(
                    _STATEMENTS[name],
                    namespace=operands[dim],
                    num_threads=info.threads,
                    min_run_time_s=plan.min_run_time_s,
                    max_run_time_s=plan.max_run_time_s,
                )
                rates[(name, dim)].append(2.0 * dim**3 / timing.median_s)
        medians = {key: statistics.median(values) for key, values in rates.items()}
        probe_key = max((k for k in candidates if k[0] == PROBE), key=medians.__getitem__)
        best_key = max(candidates, key=medians.__getitem__)
        probe, best = medians[probe_key], medians[best_key]
        print(
            f"{dtype_name:<9} probe ({PROBE} {probe_key[1]}²) {probe / 1e9:9.1f} GFLOP/s "
            f"(spread {spread(rates[probe_key]):.0%}) | best ({best_key[0]} {best_key[1]}²) "
            f"{best / 1e9:9.1f} GFLOP/s (spread {spread(rates[best_key]):.0%}) | ratio of medians "
            f"{probe / best:.3f} (goal >= 0.9)"
        )
        if max(spread(rates[probe_key]), spread(rates[best_key])) > 0.10:
            print("  note: a spread above 10 %: the machine was too noisy for a firm ratio; rerun when idle")
    print(f"rounds: {args.rounds}, interleaved; sizes {', '.join(str(d) for d in dims)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
