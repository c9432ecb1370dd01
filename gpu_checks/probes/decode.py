"""Decode sweep: one decode step's matmuls, y = x · Wᵀ for each of L layers, batch 1 upwards.

The weights are L square d×d matrices (what ``torch.nn.functional.linear`` multiplies by), laid
out one after another and together larger than the cache, so a step reads every weight once
from memory, as a decode step of a model does. At batch 1 the time is that read; it stays flat
while the batch grows until the FLOPs (2 · batch · L · d²) take longer. Many layers of a model's
width rather than one giant matrix: that is the real shape, and a single matrix with tens of
thousands of columns sends some BLAS libraries down slow paths that have nothing to do with
decode.

The knee fit (time against batch) gives the measured critical batch; the estimator's
``decode_critical_batch_size`` with the measured matmul peak of the weight dtype and the
measured bandwidth gives the predicted one, and ``decode_step_time`` the predicted time of each
batch. Bytes per call are L times those of ``arithmetic_intensity_matmul`` (x, W and y moved once).
"""

from __future__ import annotations

import math

from gpu_checks.device import DeviceKind
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
#: Width of one layer: a 7B-class model's on a CPU; a large model's on an accelerator, where a
#: layer must be big enough (128 MiB in bf16) that launch gaps do not count.
LAYER_DIM_CPU = 4096
LAYER_DIM_ACCELERATOR = 8192
_DIM_MULTIPLE = 64


def weight_dtypes(fast_dtypes: tuple[str, ...], *, all_dtypes: bool) -> tuple[str, ...]:
    """The weight dtypes to sweep: the narrowest fast one first (bf16, else fp16, else fp32)."""
    preferred = [name for name in ("bfloat16", "float16", "float32") if name in fast_dtypes]
    return tuple(preferred) if all_dtypes else tuple(preferred[:1])


def layer_stack(*, weight_bytes: int, bytes_per_element: int, max_dim: int) -> tuple[int, int]:
    """(layers, d): as many d×d layers as fit in ``weight_bytes``, d ≤ ``max_dim``, a multiple of 64.

    d shrinks below ``max_dim`` only when one layer of that width would not fit.
    """
    side = math.isqrt(weight_bytes // bytes_per_element) // _DIM_MULTIPLE * _DIM_MULTIPLE
    dim = max(_DIM_MULTIPLE, min(max_dim, side))
    return max(1, weight_bytes // (dim * dim * bytes_per_element)), dim


def _sample(label: str, batch: int, timing: Timing, *, layers: int, dim: int, width: int) -> Sample:
    flops = 2.0 * batch * dim * dim * layers
    moved = flops / arithmetic_intensity_matmul(m=batch, k=dim, n=dim, bytes_per_element=width)
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
    max_dim = LAYER_DIM_CPU if ctx.device.kind is DeviceKind.CPU else LAYER_DIM_ACCELERATOR
    layers, dim = layer_stack(weight_bytes=target.n_bytes, bytes_per_element=dtype.itemsize, max_dim=max_dim)
    stack = ctx.arena.tensor(layers * dim * dim, dtype, fresh=True).view(layers, dim, dim)
    weights = [w.t() for w in stack.unbind(0)]
    batches = list(geometric_sizes(start=1, stop=ctx.plan.decode_max_batch, step=2))
    timings: dict[int, Timing] = {}

    def time_batch(batch: int) -> Timing:
        x = ctx.random(batch, dim, dtype=dtype)
        y = torch.empty(batch, dim, device=ctx.device.torch_device, dtype=dtype)
        namespace = {"torch": torch, "x": x, "y": y, "weights": weights}
        return ctx.time("for w in weights: torch.mm(x, w, out=y)", namespace)

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
        _sample(dtype_name, batch, timing, layers=layers, dim=dim, width=dtype.itemsize)
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
                n_params=layers * dim * dim,
                bytes_per_param=dtype.itemsize,
                mem_bandwidth=mem_bandwidth,
                peak_flops=peak_flops,
                batch_size=s.size,
            )
            for s in samples
        )
    weight_bytes = layers * dim * dim * dtype.itemsize
    beyond_cache = weight_bytes >= ctx.plan.llc_multiple * ctx.device.llc_bytes
    notes: list[str] = []
    if not beyond_cache:
        notes.append(
            f"the weights are {weight_bytes / ctx.device.llc_bytes:.2g}× the last-level cache "
            f"(aim: {ctx.plan.llc_multiple:g}×): the cache may help the flat part"
        )
    if fit.below_range:
        notes.append("the knee lies below the smallest batch swept: below the swept range")
    elif fit.knee is None:
        notes.append("time never rose clearly within the batches swept: the knee is above the swept range")
    return DecodeResult(
        dtype=dtype_name,
        weight_shape=(layers, dim, dim),
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
