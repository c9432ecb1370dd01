"""The matmul probe's best FLOP/s against the best torch GEMM this script can find, per dtype.

Searches torch.mm, torch.matmul and torch.addmm (all with preallocated outputs) over a few
square sizes and thread counts, timing each with torch.utils.benchmark, and prints probe / best
for every fast dtype. The goal is a ratio of at least 0.9. Run:
``.venv/bin/python benchmarks/matmul_vs_peak.py [--device cpu|cuda|mps] [--full]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu_checks import FULL, QUICK, ProbeName, Runner

_STATEMENTS = {
    "torch.mm": "torch.mm(a, b, out=c)",
    "torch.matmul": "torch.matmul(a, b, out=c)",
    "torch.addmm": "torch.addmm(c, a, b, beta=0.0, out=d)",
}


def best_gemm(
    *, device: str, dtype_name: str, dims: tuple[int, ...], threads: tuple[int, ...]
) -> tuple[float, str]:
    """The best FLOP/s found and what found it."""
    import torch
    from torch.utils.benchmark import Timer

    dtype = getattr(torch, dtype_name)
    best, where = 0.0, ""
    for dim in dims:
        a, b = (torch.rand(dim, dim, device=device).to(dtype) for _ in range(2))
        c, d = (torch.zeros(dim, dim, device=device, dtype=dtype) for _ in range(2))
        for name, stmt in _STATEMENTS.items():
            for n_threads in threads:
                timer = Timer(
                    stmt, globals={"torch": torch, "a": a, "b": b, "c": c, "d": d}, num_threads=n_threads
                )
                seconds = timer.blocked_autorange(min_run_time=0.3).median
                flops = 2.0 * dim**3 / seconds
                if flops > best:
                    best, where = flops, f"{name} {dim}×{dim}, {n_threads} threads"
    return best, where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda", "mps"), default=None)
    parser.add_argument("--full", action="store_true", help="use the Full plan's sizes and run times")
    args = parser.parse_args()
    plan = dataclasses.replace(FULL if args.full else QUICK, probes=(ProbeName.MATMUL,))
    report = Runner().run(plan, device=args.device)
    if report.matmul is None:
        print(f"the matmul probe failed: {report.errors}")
        return 1
    info = report.device
    on_cpu = info.torch_device == "cpu"
    dims = (1024, 2048, 3072, 4096) if on_cpu else (4096, 8192, 12288, 16384)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    threads = tuple(sorted({1, report.threads, cores})) if on_cpu else (report.threads,)
    print(
        f"device: {info.name} ({info.torch_device}), probe threads {report.threads}, search threads {threads}"
    )
    for dtype_name, probe in report.matmul.peak_flops_by_dtype.items():
        best, where = best_gemm(device=info.torch_device, dtype_name=dtype_name, dims=dims, threads=threads)
        print(
            f"{dtype_name:<9} probe {probe / 1e9:9.1f} GFLOP/s | best found {best / 1e9:9.1f} GFLOP/s "
            f"({where}) | ratio {probe / best:.3f} (goal >= 0.9)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
