"""Memory bandwidth: STREAM's copy and triad over arrays from cache-sized to beyond the last-level cache.

copy ``a = b`` moves 2 words per element and triad ``a = b + s·c`` 3 (reads and writes counted
once, as STREAM counts them; write-allocate traffic is not counted). The arrays are float32 views
of the arena; sizes grow by the plan's step until the triad's three arrays fill the target.
Caches are defeated by size rather than by flushing: the samples that make the plateau have a
working set of at least twice the last-level cache (a GPU's L2 included), so back-to-back calls
find nothing left in it. Smaller samples show the cache bandwidth on purpose. Timing follows
STREAM (:mod:`gpu_checks.stream`): the best of 10 repetitions, each block long beside the
per-call cost measured on a tiny triad.
"""

from __future__ import annotations

from collections.abc import Callable

from gpu_checks.load import CpuMeter
from gpu_checks.probes.context import ProbeContext, Sweep
from gpu_checks.probes.sizes import (
    START_ARRAY_ELEMENTS,
    bandwidth_target,
    geometric_sizes,
    triad_array_elements,
)
from gpu_checks.results import BandwidthResult, Sample
from gpu_checks.stream import (
    MAX_OVERHEAD_SHARE,
    MIN_REPETITIONS,
    REPETITIONS,
    best_of,
    find_plateau,
    per_call_cost,
)

_WORD = 4  # float32
#: Elements of the tiny triad whose time is the per-call cost (it moves next to nothing).
_TINY_ELEMENTS = 8
#: A sample counts towards the plateau when its working set is at least this many LLCs.
PLATEAU_LLC_MULTIPLE = 2.0
#: STREAM's triad a = b + s·c as one torch call (also timed by benchmarks/bandwidth_vs_stream.py).
TRIAD_STMT = "torch.add(b, c, alpha=3.0, out=a)"
_KERNELS = (
    # (label, statement, words moved per element, FLOPs per element)
    ("copy", "a.copy_(b)", 2, 0),
    ("triad", TRIAD_STMT, 3, 2),
)


def _sync(torch_device: str) -> Callable[[], None]:
    """What makes a timed block wait for the device: nothing on a CPU, the accelerator's queue elsewhere."""
    if torch_device == "cpu":
        return lambda: None
    import torch

    return torch.accelerator.synchronize


def run_bandwidth(ctx: ProbeContext) -> BandwidthResult:
    """Sweep copy and triad, largest arrays first; report each kernel's plateau beyond the cache.

    The largest arrays come first so that a sweep cut short by its time budget (a busy machine)
    still has the samples the figure is taken from. Each kernel at each size is timed by
    :func:`gpu_checks.stream.best_of`, copy and triad alternating.
    """
    import torch

    target = bandwidth_target(ctx.plan, llc_bytes=ctx.device.llc_bytes, cap_bytes=ctx.cap_bytes)
    n_max = triad_array_elements(target.n_bytes)
    a, b, c = ctx.arena.tensors(n_max, torch.float32, count=3)
    sizes = sorted(
        geometric_sizes(start=START_ARRAY_ELEMENTS, stop=n_max, step=ctx.plan.sweep_step), reverse=True
    )
    sync = _sync(ctx.device.torch_device)
    min_bytes = PLATEAU_LLC_MULTIPLE * ctx.device.llc_bytes

    def kernels(n: int) -> dict[str, Callable[[], None]]:
        an, bn, cn = a[:n], b[:n], c[:n]
        return {
            "copy": lambda: an.copy_(bn),
            "triad": lambda: torch.add(bn, cn, alpha=3.0, out=an),
        }

    cost_s = per_call_cost(
        kernels(_TINY_ELEMENTS)["triad"], sync=sync, min_block_s=ctx.plan.min_run_time_s, stop=ctx.stop
    )
    samples: list[Sample] = []
    sweep = Sweep(ctx, sizes, describe=lambda n: f"bandwidth: arrays of {n * _WORD / 2**20:.3g} MiB")
    for n in sweep:
        calls = kernels(n)
        for label, _stmt, words, flops in _KERNELS:
            moved = words * n * _WORD
            timing = best_of(
                calls[label],
                sync=sync,
                min_block_s=ctx.plan.min_run_time_s,
                # Fewer repetitions off the plateau: those sizes show the cache, not the figure.
                repetitions=REPETITIONS if 3 * n * _WORD >= min_bytes else MIN_REPETITIONS,
                max_s=ctx.plan.max_run_time_s * REPETITIONS,
                stop=ctx.stop,
                meter=CpuMeter(),
            )
            samples.append(
                Sample(
                    label=label,
                    size=n,
                    bytes_moved=moved,
                    flops=flops * n,
                    working_set_bytes=moved,
                    timing=timing,
                )
            )
    copy = find_plateau(samples, label="copy", min_bytes=min_bytes, per_call_cost_s=cost_s)
    triad = find_plateau(samples, label="triad", min_bytes=min_bytes, per_call_cost_s=cost_s)
    notes: list[str] = []
    if target.shrunk:
        notes.append("the largest arrays were shrunk to the memory cap")
    if not (copy.beyond_cache and triad.beyond_cache):
        notes.append(
            f"no working set reached {PLATEAU_LLC_MULTIPLE:g}× the last-level cache with the per-call cost "
            f"under {MAX_OVERHEAD_SHARE:.0%} of a call: the plateau may include cache hits or overhead"
        )
    return BandwidthResult(
        samples=tuple(sorted(samples, key=lambda s: (s.label, s.size))),
        llc_bytes=ctx.device.llc_bytes,
        plateau_min_bytes=min_bytes,
        copy_bytes_per_s=copy.bytes_per_s,
        triad_bytes_per_s=triad.bytes_per_s,
        beyond_cache=copy.beyond_cache and triad.beyond_cache,
        truncated=sweep.truncated,
        notes=tuple(notes),
        statistic="best",
        per_call_cost_s=cost_s,
    )
