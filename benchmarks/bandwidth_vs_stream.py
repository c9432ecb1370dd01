"""The bandwidth probe's triad against a STREAM-style OpenMP triad in C, interleaved round by round.

Compiles a small float32 triad (a = b + s·c, the probe's kernel and dtype) with gcc -O3 -fopenmp
once, then alternates rounds: the probe's own timing of its triad statement (torch.utils.benchmark
through ``gpu_checks.timing.measure``, the plan's run times) and a run of the C binary, on arrays of
the same size, with the same thread count. Interleaving means a machine whose speed drifts (other
tenants) slows both sides alike. The arrays are sized so the three of them are at least 4× the
last-level cache, so both read main memory. Prints each side's median over rounds, the ratio of the
medians (goal ≥ 0.9), and each side's spread (interquartile range over median across rounds):
a spread above 10 % means the machine was too noisy for the ratio to mean much. Needs gcc; says so
and exits 0 without it. Run: ``.venv/bin/python benchmarks/bandwidth_vs_stream.py [--full] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu_checks import FULL, QUICK
from gpu_checks.device import discover
from gpu_checks.probes.arena import Arena
from gpu_checks.probes.bandwidth import TRIAD_STMT
from gpu_checks.probes.sizes import bandwidth_target, memory_cap_bytes, triad_array_elements
from gpu_checks.timing import measure

#: Both sides read arrays whose three-array working set is at least this many last-level caches.
LLC_MULTIPLE = 4
_WORD = 4  # float32

TRIAD_C = r"""
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = atol(argv[1]);
    int reps = atoi(argv[2]);
    float *a = aligned_alloc(4096, ((n * sizeof(float) + 4095) / 4096) * 4096);
    float *b = aligned_alloc(4096, ((n * sizeof(float) + 4095) / 4096) * 4096);
    float *c = aligned_alloc(4096, ((n * sizeof(float) + 4095) / 4096) * 4096);
    if (!a || !b || !c) return 1;
#pragma omp parallel for
    for (long i = 0; i < n; i++) { a[i] = 0.0f; b[i] = 1.0f; c[i] = 2.0f; }
    const float s = 3.0f;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for
        for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        double t = omp_get_wtime() - t0;
        printf("%.9f\n", t);
    }
    double check = 0.0;
    for (long i = 0; i < n; i += 4096) check += a[i];
    fprintf(stderr, "check %f\n", check);
    free(a); free(b); free(c);
    return 0;
}
"""


def compile_triad(folder: Path) -> Path:
    """The C triad built in ``folder``."""
    source, binary = folder / "triad.c", folder / "triad"
    source.write_text(TRIAD_C)
    subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", str(source), "-o", str(binary)], check=True)
    return binary


def c_triad_seconds(binary: Path, *, n_elements: int, threads: int, reps: int) -> list[float]:
    """Per-repetition seconds of one run of the C triad over ``n_elements`` floats per array."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": "true"}
    out = subprocess.run(
        [str(binary), str(n_elements), str(reps)], check=True, capture_output=True, text=True, env=env
    ).stdout
    return [float(line) for line in out.split()]


def spread(values: list[float]) -> float:
    """Interquartile range over median (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    p25, _, p75 = statistics.quantiles(values, n=4, method="inclusive")
    return (p75 - p25) / statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="use the Full plan's sizes and run times")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    args = parser.parse_args()
    if shutil.which("gcc") is None:
        print("gcc not found: no C triad to compare with")
        return 0
    import torch

    plan = FULL if args.full else QUICK
    info = discover("cpu")
    cap = memory_cap_bytes(free_memory_bytes=info.free_memory_bytes, fraction=plan.memory_fraction)
    planned = triad_array_elements(bandwidth_target(plan, llc_bytes=info.llc_bytes, cap_bytes=cap).n_bytes)
    n = max(planned, -(-LLC_MULTIPLE * info.llc_bytes // (3 * _WORD)))
    arena = Arena(torch_device="cpu", capacity_bytes=3 * (n * _WORD + 4096))
    a, b, c = arena.tensors(n, torch.float32, count=3)
    moved = 3 * _WORD * n  # STREAM counting: read b and c, write a
    probe_bps: list[float] = []
    c_bps: list[float] = []
    with tempfile.TemporaryDirectory(prefix="triad-") as folder:
        binary = compile_triad(Path(folder))

        def probe_round() -> None:
            timing = measure(
                TRIAD_STMT,
                namespace={"torch": torch, "a": a, "b": b, "c": c},
                num_threads=info.threads,
                min_run_time_s=plan.min_run_time_s,
                max_run_time_s=plan.max_run_time_s,
            )
            probe_bps.append(moved / timing.median_s)

        def c_round() -> None:
            seconds = c_triad_seconds(binary, n_elements=n, threads=info.threads, reps=5)
            c_bps.append(moved / statistics.median(seconds[1:]))  # the first rep faults pages in

        for i in range(args.rounds):
            # Alternate which side goes first, so neither always follows the other's warm caches.
            for side in (probe_round, c_round) if i % 2 == 0 else (c_round, probe_round):
                side()
    probe, ref = statistics.median(probe_bps), statistics.median(c_bps)
    ratios = [p / q for p, q in zip(probe_bps, c_bps, strict=True)]
    llc = f"LLC {info.llc_bytes / 2**20:.0f} MiB ({info.llc_source})"
    print(f"device: {info.name}, {info.threads} threads, {llc}")
    print(
        f"arrays: 3 × {n * _WORD / 2**20:.0f} MiB float32 (working set {moved / 2**30:.2f} GiB, "
        f"{moved / info.llc_bytes:.1f}× the LLC)"
    )
    print(f"rounds: {args.rounds}, interleaved")
    print(f"probe triad, median of rounds : {probe / 1e9:7.2f} GB/s (spread {spread(probe_bps):.0%})")
    print(f"C triad,     median of rounds : {ref / 1e9:7.2f} GB/s (spread {spread(c_bps):.0%})")
    print(f"ratio of medians probe / C   = {probe / ref:.3f} (goal >= 0.9)")
    print(
        f"per-round ratios: min {min(ratios):.3f} median {statistics.median(ratios):.3f} "
        f"max {max(ratios):.3f} (spread {spread(ratios):.0%})"
    )
    if max(spread(probe_bps), spread(c_bps)) > 0.10:
        print("note: a spread above 10 %: the machine was too noisy for a firm ratio; rerun when idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
