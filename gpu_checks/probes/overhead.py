"""Overhead floor: ``y = x + 1`` on tensors from one element upwards.

Time stays flat while the per-op cost (Python, dispatch, launch) dominates, then grows with the
bytes moved. Each call takes the next (x, y) pair from a pool of views spread over the arena,
so large sizes read main memory rather than a cache that the previous call warmed. Bytes per call
are the estimator's ``elementwise_chain_bytes`` for one op (read x, write y). The knee fit gives
the floor (seconds per op) and the crossing of the two asymptotes (bytes), which is set beside
the estimator's ``overhead_knee_bytes`` with the measured bandwidth.
"""

from __future__ import annotations

import itertools

from gpu_checks.knee import fit_knee
from gpu_checks.probes.context import ProbeContext, Sweep
from gpu_checks.probes.sizes import bandwidth_target, geometric_sizes
from gpu_checks.results import OverheadResult, Sample
from grader.estimator import elementwise_chain_bytes, overhead_knee_bytes

_WORD = 4  # float32
#: Most (x, y) pairs in a pool; beyond this, tiny tensors would need millions of views.
MAX_PAIRS = 16384
#: The sweep ends once two consecutive sizes take this many times the fastest one: far enough
#: past the knee that the bandwidth slope, not the corner (where a CPU also starts its extra
#: threads), sets the rising asymptote.
STOP_RISE = 64.0
_STMT = "x, y = next(pairs); torch.add(x, 1.0, out=y)"


def run_overhead(ctx: ProbeContext, *, mem_bandwidth: float | None) -> OverheadResult:
    """Sweep sizes until time has clearly left the floor; fit floor and knee."""
    import torch

    pool_bytes = bandwidth_target(ctx.plan, llc_bytes=ctx.device.llc_bytes, cap_bytes=ctx.cap_bytes).n_bytes
    pool_elements = min(pool_bytes, ctx.arena.capacity_bytes) // _WORD
    region = ctx.arena.tensor(pool_elements, torch.float32)
    sizes = list(geometric_sizes(start=1, stop=pool_elements // 2, step=ctx.plan.sweep_step))
    samples: list[Sample] = []
    sweep = Sweep(ctx, sizes, describe=lambda n: f"overhead: {n:,} elements", stop_rise=STOP_RISE)
    for n in sweep:
        stride = -(-n // 16) * 16  # 64-byte aligned starts
        pairs = max(1, min(MAX_PAIRS, pool_elements // (2 * stride)))
        xs = region[: pairs * stride].view(pairs, stride)[:, :n].unbind(0)
        ys = region[pairs * stride : 2 * pairs * stride].view(pairs, stride)[:, :n].unbind(0)
        namespace = {"torch": torch, "pairs": itertools.cycle(list(zip(xs, ys, strict=True)))}
        timing = ctx.time(_STMT, namespace)
        samples.append(
            Sample(
                label="add",
                size=n,
                bytes_moved=elementwise_chain_bytes(n_elements=n, bytes_per_element=_WORD, n_ops=1),
                flops=float(n),
                working_set_bytes=2.0 * pairs * n * _WORD,
                timing=timing,
            )
        )
        sweep.record(timing.median_s)
    notes: list[str] = []
    if len(samples) < 2:
        raise ValueError("the overhead sweep needs at least two sizes: raise the time budget")
    fit = fit_knee(xs=[s.bytes_moved for s in samples], ys=[s.seconds for s in samples])
    if fit.below_range:
        notes.append("time grew from the smallest size on: the knee is below the swept range")
    elif fit.knee is None:
        notes.append("time never rose clearly above the floor within the sweep")
    predicted = (
        overhead_knee_bytes(overhead_s=fit.floor, mem_bandwidth=mem_bandwidth) if mem_bandwidth else None
    )
    return OverheadResult(
        samples=tuple(samples),
        fit=fit,
        overhead_s=fit.floor,
        knee_bytes_measured=fit.knee,
        knee_bytes_predicted=predicted,
        truncated=sweep.truncated,
        notes=tuple(notes),
    )
