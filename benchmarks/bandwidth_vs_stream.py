"""The bandwidth probe's triad plateau against a STREAM-style OpenMP triad in C, one run each.

Compiles a small float32 triad (a = b + s·c, the probe's kernel and dtype) with gcc -O3 -fopenmp
in a temporary folder, runs it on the probe's largest arrays with the probe's thread count, and
prints probe / C. STREAM quotes the best of its repetitions; the probe quotes a median plateau,
so both ratios are printed. The goal is a ratio of at least 0.9. Needs gcc; says so and exits 0
without it. Run: ``.venv/bin/python benchmarks/bandwidth_vs_stream.py [--full]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu_checks import FULL, QUICK, ProbeName, Runner
from gpu_checks.probes.sizes import bandwidth_target, memory_cap_bytes, triad_array_elements

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


def c_triad_seconds(*, n_elements: int, threads: int, reps: int) -> list[float]:
    """Per-repetition seconds of the C triad over ``n_elements`` floats per array."""
    with tempfile.TemporaryDirectory(prefix="triad-") as folder:
        source, binary = Path(folder) / "triad.c", Path(folder) / "triad"
        source.write_text(TRIAD_C)
        subprocess.run(
            ["gcc", "-O3", "-march=native", "-fopenmp", str(source), "-o", str(binary)], check=True
        )
        env = {**os.environ, "OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": "true"}
        out = subprocess.run(
            [str(binary), str(n_elements), str(reps)], check=True, capture_output=True, text=True, env=env
        ).stdout
    return [float(line) for line in out.split()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="use the Full plan's sizes and run times")
    args = parser.parse_args()
    if shutil.which("gcc") is None:
        print("gcc not found: no C triad to compare with")
        return 0
    plan = dataclasses.replace(FULL if args.full else QUICK, probes=(ProbeName.BANDWIDTH,))
    report = Runner().run(plan, device="cpu")
    result = report.bandwidth
    if result is None:
        print(f"the bandwidth probe failed: {report.errors}")
        return 1
    info = report.device
    cap = memory_cap_bytes(free_memory_bytes=info.free_memory_bytes, fraction=plan.memory_fraction)
    n = triad_array_elements(bandwidth_target(plan, llc_bytes=info.llc_bytes, cap_bytes=cap).n_bytes)
    seconds = c_triad_seconds(n_elements=n, threads=report.threads, reps=10)
    moved = 3 * 4 * n  # STREAM counting: read b and c, write a
    c_best, c_median = moved / min(seconds), moved / statistics.median(seconds)
    probe = result.triad_bytes_per_s
    llc = f"LLC {info.llc_bytes / 2**20:.0f} MiB ({info.llc_source})"
    print(f"device: {info.name}, {report.threads} threads, {llc}")
    print(f"arrays: 3 × {n * 4 / 2**20:.0f} MiB float32 (working set {moved / 2**30:.2f} GiB)")
    print(f"probe triad plateau : {probe / 1e9:7.2f} GB/s (copy {result.copy_bytes_per_s / 1e9:.2f} GB/s)")
    print(f"C triad, best of 10 : {c_best / 1e9:7.2f} GB/s (median {c_median / 1e9:.2f} GB/s)")
    print(f"ratio probe / C best   = {probe / c_best:.3f} (goal >= 0.9)")
    print(f"ratio probe / C median = {probe / c_median:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
