"""Matmul roofline: square (n×n)·(n×n) products over sizes and every fast dtype.

FLOPs are 2n³; bytes are what the estimator counts for perfect on-chip reuse (both inputs read
and the output written once: 3n² elements), so each sample's arithmetic intensity is
``grader.estimator.arithmetic_intensity_matmul``. A dtype's peak is its best sample.
"""

from __future__ import annotations

from gpu_checks.device import DeviceKind
from gpu_checks.probes.context import ProbeContext
from gpu_checks.probes.sizes import MIN_BUFFER_BYTES
from gpu_checks.results import MatmulResult, Sample
from grader.estimator import arithmetic_intensity_matmul


def matmul_counts(*, dim: int, bytes_per_element: float) -> tuple[float, float]:
    """(FLOPs, bytes moved) of one square matmul of side ``dim``."""
    flops = 2.0 * dim**3
    intensity = arithmetic_intensity_matmul(m=dim, k=dim, n=dim, bytes_per_element=bytes_per_element)
    return flops, flops / intensity


def run_matmul(ctx: ProbeContext) -> MatmulResult:
    """Time ``torch.mm(A, B, out=C)`` with random inputs for each dtype and size that fit."""
    import torch

    on_cpu = ctx.device.kind is DeviceKind.CPU
    dims = ctx.plan.matmul_dims_cpu if on_cpu else ctx.plan.matmul_dims_accelerator
    dtypes = ctx.device.fast_dtypes
    samples: list[Sample] = []
    peaks: dict[str, float] = {}
    notes: list[str] = []
    truncated = False
    total = len(dims) * len(dtypes)
    for d_index, dtype_name in enumerate(dtypes):
        dtype = getattr(torch, dtype_name)
        # Largest first: over budget, a dtype still has the size that shows its peak.
        for s_index, dim in enumerate(sorted(dims, reverse=True)):
            done = d_index * len(dims) + s_index
            if s_index and ctx.over_budget():
                truncated = True
                break
            working_set = 3 * dim * dim * dtype.itemsize
            if working_set > max(ctx.cap_bytes, MIN_BUFFER_BYTES):
                notes.append(f"{dtype_name} {dim}×{dim} skipped: above the memory cap")
                continue
            ctx.step(done / total, f"matmul: {dtype_name} {dim}×{dim}")
            a, b = ctx.random(dim, dim, dtype=dtype), ctx.random(dim, dim, dtype=dtype)
            c = torch.empty(dim, dim, device=ctx.device.torch_device, dtype=dtype)
            flops, moved = matmul_counts(dim=dim, bytes_per_element=dtype.itemsize)
            timing = ctx.time("torch.mm(a, b, out=c)", {"torch": torch, "a": a, "b": b, "c": c})
            sample = Sample(
                label=dtype_name,
                size=dim,
                bytes_moved=moved,
                flops=flops,
                working_set_bytes=working_set,
                timing=timing,
            )
            samples.append(sample)
            peaks[dtype_name] = max(peaks.get(dtype_name, 0.0), sample.flops_per_s)
            del a, b, c
    return MatmulResult(
        samples=tuple(samples), peak_flops_by_dtype=peaks, truncated=truncated, notes=tuple(notes)
    )
