"""The bandwidth probe beside a STREAM-style C reference moving and counting the same bytes, quiet and loaded.

Both sides run copy (a = b) and triad (a = b + s·c) over the same float32 arrays' size (the Quick or
Full plan's plateau arrays, at least 4× the last-level cache together), count bytes the same way
(copy 8, triad 12 bytes per element: STREAM's counting, write-allocate traffic not counted) and take
STREAM's statistic, the best of 10 repetitions. The probe side is the probe's own code
(``gpu_checks.stream.best_of`` over the probe's torch calls, its per-call cost check included); the
reference is a small C program built here with ``gcc -O3 -march=native -fopenmp``, run with the same
thread count. Rounds interleave the two (the first side alternates), so a machine whose speed drifts
slows both alike. Then the same rounds run again beside a synthetic one-core load (a child process
spinning on one core), and the benchmark prints, for each condition: each side's headline figure (the
better kernel, as the probe reports it) per round, its median and spread over rounds, the per-kernel
figures, the ratio probe / reference, and how many CPUs other programs kept busy (``/proc/stat``), with
the load average before and after. Needs gcc; says so and exits 0 without it.

Run: ``.venv/bin/python benchmarks/bandwidth_vs_stream.py [--full] [--rounds N] [--no-load]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu_checks import FULL, QUICK
from gpu_checks.device import discover
from gpu_checks.load import CpuMeter
from gpu_checks.probes.arena import Arena
from gpu_checks.probes.sizes import bandwidth_target, memory_cap_bytes, triad_array_elements
from gpu_checks.stream import REPETITIONS, best_of

#: Both sides read arrays whose three-array working set is at least this many last-level caches.
LLC_MULTIPLE = 4
_WORD = 4  # float32
_BYTES_PER_ELEMENT = {"copy": 2 * _WORD, "triad": 3 * _WORD}

REFERENCE_C = r"""
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* STREAM's copy and triad in float32, alternating, NTIMES repetitions; prints each kernel's best and
   median seconds. The first repetition faults pages in and is left out, as STREAM leaves it out. */
static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv) {
    long n = atol(argv[1]);
    int reps = atoi(argv[2]) + 1;
    size_t bytes = ((n * sizeof(float) + 4095) / 4096) * 4096;
    float *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes), *c = aligned_alloc(4096, bytes);
    double *tc = malloc(reps * sizeof(double)), *tt = malloc(reps * sizeof(double));
    if (!a || !b || !c || !tc || !tt) return 1;
#pragma omp parallel for
    for (long i = 0; i < n; i++) { a[i] = 0.0f; b[i] = 1.0f; c[i] = 2.0f; }
    const float s = 3.0f;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for
        for (long i = 0; i < n; i++) a[i] = b[i];
        tc[r] = omp_get_wtime() - t0;
        t0 = omp_get_wtime();
#pragma omp parallel for
        for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        tt[r] = omp_get_wtime() - t0;
    }
    qsort(tc + 1, reps - 1, sizeof(double), cmp);
    qsort(tt + 1, reps - 1, sizeof(double), cmp);
    printf("copy %.9f %.9f\ntriad %.9f %.9f\n", tc[1], tc[1 + (reps - 1) / 2], tt[1], tt[1 + (reps - 1) / 2]);
    double check = 0.0;
    for (long i = 0; i < n; i += 4096) check += a[i];
    fprintf(stderr, "check %f\n", check);
    return 0;
}
"""

SPIN = "while True: pass"


@dataclass
class Round:
    """One side's figures in one round: best-repetition bandwidth per kernel, and the others' CPUs."""

    best: dict[str, float]
    median: dict[str, float]
    busy_cpus: float | None

    @property
    def headline(self) -> float:
        return max(self.best.values())


def compile_reference(folder: Path) -> Path:
    source, binary = folder / "stream.c", folder / "stream"
    source.write_text(REFERENCE_C)
    subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", str(source), "-o", str(binary)], check=True)
    return binary


def reference_round(binary: Path, *, n: int, threads: int) -> Round:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": "true"}
    meter = CpuMeter(own_cpu=lambda: 0.0)  # the child's CPU time is not this process's: subtract by hand
    meter.start()
    before = os.times()
    out = subprocess.run(
        [str(binary), str(n), str(REPETITIONS)], check=True, capture_output=True, text=True, env=env
    ).stdout
    after = os.times()
    busy = meter.stop()
    own = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    wall = after.elapsed - before.elapsed
    best, median = {}, {}
    for line in out.splitlines():
        kernel, best_s, median_s = line.split()
        best[kernel] = _BYTES_PER_ELEMENT[kernel] * n / float(best_s)
        median[kernel] = _BYTES_PER_ELEMENT[kernel] * n / float(median_s)
    return Round(best, median, None if busy is None else max(0.0, busy - own / wall))


def probe_round(calls: dict[str, object], *, n: int, min_block_s: float) -> Round:
    best, median, busy = {}, {}, []
    for kernel, call in calls.items():
        timing = best_of(call, min_block_s=min_block_s, meter=CpuMeter())  # type: ignore[arg-type]
        best[kernel] = _BYTES_PER_ELEMENT[kernel] * n / timing.best_s
        median[kernel] = _BYTES_PER_ELEMENT[kernel] * n / timing.median_s
        if timing.busy_cpus is not None:
            busy.append(timing.busy_cpus)
    return Round(best, median, statistics.mean(busy) if busy else None)


def spread(values: list[float]) -> float:
    """(max - min) / median over rounds."""
    return (max(values) - min(values)) / statistics.median(values) if len(values) > 1 else 0.0


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def run_condition(name: str, *, rounds: int, probe: object, reference: object) -> list[float]:
    print(f"\n== {name} (load average before: {load_average()})")
    probe_rounds: list[Round] = []
    ref_rounds: list[Round] = []
    for i in range(rounds):
        order = ((probe, probe_rounds), (reference, ref_rounds))
        for side, into in order if i % 2 == 0 else order[::-1]:
            into.append(side())  # type: ignore[operator]
    for label, results in (("probe    ", probe_rounds), ("reference", ref_rounds)):
        heads = [r.headline for r in results]
        busy = [r.busy_cpus for r in results if r.busy_cpus is not None]
        per_kernel = ", ".join(
            f"{k} {statistics.median([r.best[k] for r in results]) / 1e9:.1f}" for k in _BYTES_PER_ELEMENT
        )
        print(
            f"{label} best-of-{REPETITIONS} GB/s by round: {' '.join(f'{h / 1e9:.1f}' for h in heads)} | "
            f"median {statistics.median(heads) / 1e9:.1f}, spread {spread(heads):.0%} | {per_kernel} | "
            f"others kept {statistics.mean(busy) if busy else float('nan'):.2f} CPUs busy"
        )
    ratios = [p.headline / q.headline for p, q in zip(probe_rounds, ref_rounds, strict=True)]
    print(
        f"ratio probe / reference by round: {' '.join(f'{r:.2f}' for r in ratios)} "
        f"(median {statistics.median(ratios):.2f}; goal 0.9-1.15 when quiet)"
    )
    print(f"load average after: {load_average()}")
    return [r.headline for r in probe_rounds]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="use the Full plan's sizes and block times")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per condition (default 3)")
    parser.add_argument("--no-load", action="store_true", help="skip the run beside a one-core load")
    args = parser.parse_args()
    if shutil.which("gcc") is None:
        print("gcc not found: no C reference to compare with")
        return 0
    import torch

    plan = FULL if args.full else QUICK
    info = discover("cpu")
    torch.set_num_threads(info.threads)
    cap = memory_cap_bytes(free_memory_bytes=info.free_memory_bytes, fraction=plan.memory_fraction)
    planned = triad_array_elements(bandwidth_target(plan, llc_bytes=info.llc_bytes, cap_bytes=cap).n_bytes)
    n = max(planned, -(-LLC_MULTIPLE * info.llc_bytes // (3 * _WORD)))
    arena = Arena(torch_device="cpu", capacity_bytes=3 * (n * _WORD + 4096))
    a, b, c = arena.tensors(n, torch.float32, count=3)
    calls = {"copy": lambda: a.copy_(b), "triad": lambda: torch.add(b, c, alpha=3.0, out=a)}
    print(
        f"device: {info.name}, {info.threads} threads, "
        f"LLC {info.llc_bytes / 2**20:.0f} MiB ({info.llc_source})"
    )
    print(
        f"arrays: 3 × {n * _WORD / 2**20:.0f} MiB float32 "
        f"(triad working set {3 * n * _WORD / 2**30:.2f} GiB, "
        f"{3 * n * _WORD / info.llc_bytes:.1f}× the LLC); bytes per element: copy 8, triad 12 on both sides"
    )
    with tempfile.TemporaryDirectory(prefix="stream-") as folder:
        binary = compile_reference(Path(folder))

        def probe() -> Round:
            return probe_round(calls, n=n, min_block_s=plan.min_run_time_s)

        def reference() -> Round:
            return reference_round(binary, n=n, threads=info.threads)

        quiet = run_condition("as the machine is", rounds=args.rounds, probe=probe, reference=reference)
        if not args.no_load:
            spinner = subprocess.Popen([sys.executable, "-c", SPIN])
            try:
                loaded = run_condition(
                    "beside a synthetic one-core load", rounds=args.rounds, probe=probe, reference=reference
                )
            finally:
                spinner.kill()
                spinner.wait()
            base = statistics.median(quiet)
            print(
                "\nprobe under load / probe as the machine is (median): "
                f"{statistics.median(loaded) / base:.2f} "
                f"(each loaded round: {' '.join(f'{x / base:.2f}' for x in loaded)}; goal within 0.85-1.15)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
