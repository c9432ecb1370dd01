"""Decode sweep: y = x · Wᵀ (what ``torch.nn.functional.linear`` does) with W larger than the cache.

At batch 1 the time is reading W once; it stays flat while the batch grows, until the FLOPs
(2 · batch · W elements) take longer than the read. The knee fit (time against batch) gives the
measured critical batch; the estimator's ``decode_critical_batch_size`` with the measured matmul
peak of the weight dtype and the measured bandwidth gives the predicted one, and
``decode_step_time`` the predicted time of each batch. Bytes per call are those of
``arithmetic_intensity_matmul`` (x, W and y each moved once).
"""

from __future__ import annotations

import math

from gpu_checks.knee import fit_knee
from gpu_checks.probes.context import ProbeContext, Sweep
from gpu_checks.probes.sizes import decode_target, geometric_sizes
from gpu_checks.results import DecodeResult, Sample
from gpu_checks.timing import Timing
from grader.estimator import arithmetic_intensity_matmul, decode_critical_batch_size, decode_step_time

#: The sweep ends once two consecutive batches take this many times the fastest one: about four
#: times the knee batch on the roofline, far enough that the rising asymptote's slope is not
#: biased by the rounded corner near the knee.
STOP_RISE = 4.0
_DIM_MULTIPLE = 64


def weight_dtypes(fast_dtypes: tuple[str, ...], *, all_dtypes: bool) -> tuple[str, ...]:
    """The weight dtypes to sweep: the narrowest fast one first (bf16, else fp16, else fp32)."""
    preferred = [name for name in ("bfloat16", "float16", "float32") if name in fast_dtypes]
    return tuple(preferred) if all_dtypes else tuple(preferred[:1])


def weight_side(*, weight_bytes: int, bytes_per_element: int) -> int:
    """Side of a square weight matrix of about ``weight_bytes``, a multiple of 64 (at least 64)."""
    side = math.isqrt(weight_bytes // bytes_per_element)
    return max(_DIM_MULTIPLE, side // _DIM_MULTIPLE * _DIM_MULTIPLE)


def _sample(label: str, batch: int, timing: Timing, *, k: int, width: int) -> Sample:
    flops = 2.0 * batch * k * k
    moved = flops / arithmetic_intensity_matmul(m=batch, k=k, n=k, bytes_per_element=width)
    return Sample(
        label=label, size=batch, bytes_moved=moved, flops=flops, working_set_bytes=moved, timing=timing
    )


def run_decode(
    ctx: ProbeContext, *, dtype_name: str, peak_flops: float | None, mem_bandwidth: float | None
) -> DecodeResult:
    """Sweep batch 1, 2, 4, ... for weights of ``dtype_name``; fit and predict the knee."""
    import torch

    dtype = getattr(torch, dtype_name)
    target = decode_target(ctx.plan, llc_bytes=ctx.device.llc_bytes, cap_bytes=ctx.cap_bytes)
    side = weight_side(weight_bytes=target.n_bytes, bytes_per_element=dtype.itemsize)
    weight = ctx.arena.tensor(side * side, dtype, fresh=True).view(side, side)
    weight_t = weight.t()
    batches = list(geometric_sizes(start=1, stop=ctx.plan.decode_max_batch, step=2))
    timings: dict[int, Timing] = {}

    def time_batch(batch: int) -> Timing:
        x = ctx.random(batch, side, dtype=dtype)
        y = torch.empty(batch, side, device=ctx.device.torch_device, dtype=dtype)
        return ctx.time("torch.mm(x, w, out=y)", {"torch": torch, "x": x, "w": weight_t, "y": y})

    sweep = Sweep(
        ctx, batches, describe=lambda b: f"decode {dtype_name}: batch {b}", stop_rise=STOP_RISE, share=0.5
    )
    for batch in sweep:
        timings[batch] = time_batch(batch)
        sweep.record(timings[batch].median_s)
    # Back down the same batches: drift in the machine's speed (other tenants) then shows as a
    # difference between passes, and the faster pass is kept.
    for i, batch in enumerate(sorted(timings, reverse=True)):
        if ctx.over_budget():
            break
        ctx.step(0.5 + 0.5 * i / len(timings), f"decode {dtype_name}: batch {batch}, second pass")
        again = time_batch(batch)
        if again.median_s < timings[batch].median_s:
            timings[batch] = again
    samples = [
        _sample(dtype_name, batch, timing, k=side, width=dtype.itemsize)
        for batch, timing in sorted(timings.items())
    ]
    fit = fit_knee(xs=[s.size for s in samples], ys=[s.seconds for s in samples])
    predicted_knee: float | None = None
    predicted_times: tuple[float, ...] = ()
    if peak_flops and mem_bandwidth:
        predicted_knee = decode_critical_batch_size(
            peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, bytes_per_param=dtype.itemsize
        )
        predicted_times = tuple(
            decode_step_time(
                n_params=side * side,
                bytes_per_param=dtype.itemsize,
                mem_bandwidth=mem_bandwidth,
                peak_flops=peak_flops,
                batch_size=s.size,
            )
            for s in samples
        )
    weight_bytes = side * side * dtype.itemsize
    beyond_cache = weight_bytes >= ctx.plan.llc_multiple * ctx.device.llc_bytes
    notes: list[str] = []
    if not beyond_cache:
        notes.append(
            f"the weight is {weight_bytes / ctx.device.llc_bytes:.2g}× the last-level cache "
            f"(aim: {ctx.plan.llc_multiple:g}×): the cache may help the flat part"
        )
    if fit.knee is None:
        notes.append("time never rose clearly within the batches swept")
    return DecodeResult(
        dtype=dtype_name,
        weight_shape=(side, side),
        weight_bytes=weight_bytes,
        samples=tuple(samples),
        fit=fit,
        knee_measured=fit.knee,
        knee_predicted=predicted_knee,
        peak_flops_used=peak_flops,
        mem_bandwidth_used=mem_bandwidth,
        predicted_times_s=predicted_times,
        beyond_cache=beyond_cache,
        truncated=sweep.truncated,
        notes=tuple(notes),
    )
