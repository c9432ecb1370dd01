"""Memory bandwidth: STREAM's copy and triad over arrays from cache-sized to beyond the last-level cache.

copy ``a = b`` moves 2 words per element and triad ``a = b + s·c`` 3 (reads and writes counted
once, as STREAM counts them; write-allocate traffic is not counted). The arrays are float32 views
of the arena; sizes grow by the plan's step until the triad's three arrays fill the target.
Caches are defeated by size rather than by flushing: the samples that make the plateau have a
working set of at least twice the last-level cache (a GPU's L2 included), so back-to-back calls
find nothing left in it. Smaller samples show the cache bandwidth on purpose.
"""

from __future__ import annotations

import statistics

from gpu_checks.probes.context import ProbeContext, Sweep
from gpu_checks.probes.sizes import (
    START_ARRAY_ELEMENTS,
    bandwidth_target,
    geometric_sizes,
    triad_array_elements,
)
from gpu_checks.results import BandwidthResult, Sample

_WORD = 4  # float32
#: A sample counts towards the plateau when its working set is at least this many LLCs.
PLATEAU_LLC_MULTIPLE = 2.0
#: STREAM's triad a = b + s·c as one torch call (also timed by benchmarks/bandwidth_vs_stream.py).
TRIAD_STMT = "torch.add(b, c, alpha=3.0, out=a)"
_KERNELS = (
    # (label, statement, words moved per element, FLOPs per element)
    ("copy", "a.copy_(b)", 2, 0),
    ("triad", TRIAD_STMT, 3, 2),
)


def _plateau(samples: list[Sample], label: str, min_bytes: float) -> tuple[float, bool]:
    mine = [s for s in samples if s.label == label]
    if not mine:
        return 0.0, False
    beyond = [s.bytes_per_s for s in mine if s.working_set_bytes >= min_bytes]
    if beyond:
        return statistics.median(beyond), True
    return max(mine, key=lambda s: s.size).bytes_per_s, False


def run_bandwidth(ctx: ProbeContext) -> BandwidthResult:
    """Sweep copy and triad; report each kernel's plateau beyond the cache."""
    import torch

    target = bandwidth_target(ctx.plan, llc_bytes=ctx.device.llc_bytes, cap_bytes=ctx.cap_bytes)
    n_max = triad_array_elements(target.n_bytes)
    a, b, c = ctx.arena.tensors(n_max, torch.float32, count=3)
    sizes = list(geometric_sizes(start=START_ARRAY_ELEMENTS, stop=n_max, step=ctx.plan.sweep_step))
    samples: list[Sample] = []
    sweep = Sweep(ctx, sizes, describe=lambda n: f"bandwidth: arrays of {n * _WORD / 2**20:.3g} MiB")
    for n in sweep:
        namespace = {"torch": torch, "a": a[:n], "b": b[:n], "c": c[:n]}
        for label, stmt, words, flops in _KERNELS:
            moved = words * n * _WORD
            samples.append(
                Sample(
                    label=label,
                    size=n,
                    bytes_moved=moved,
                    flops=flops * n,
                    working_set_bytes=moved,
                    timing=ctx.time(stmt, namespace),
                )
            )
    min_bytes = PLATEAU_LLC_MULTIPLE * ctx.device.llc_bytes
    copy, copy_beyond = _plateau(samples, "copy", min_bytes)
    triad, triad_beyond = _plateau(samples, "triad", min_bytes)
    notes: list[str] = []
    if target.shrunk:
        notes.append("the largest arrays were shrunk to the memory cap")
    if not (copy_beyond and triad_beyond):
        notes.append(
            f"no working set reached {PLATEAU_LLC_MULTIPLE:g}× the last-level cache: "
            "the plateau may include cache hits"
        )
    return BandwidthResult(
        samples=tuple(samples),
        llc_bytes=ctx.device.llc_bytes,
        plateau_min_bytes=min_bytes,
        copy_bytes_per_s=copy,
        triad_bytes_per_s=triad,
        beyond_cache=copy_beyond and triad_beyond,
        truncated=sweep.truncated,
        notes=tuple(notes),
    )
