"""A synthetic, internally consistent run report (no torch): for report, table, history and page tests.

The device is a 2-thread CPU with 10 GB/s, 100 GFLOP/s fp32 and 400 GFLOP/s bf16; every time is
the roofline time max(overhead, bytes / bandwidth, FLOPs / peak) with a little spread.
"""

from __future__ import annotations

from dataclasses import replace

from gpu_checks.device import DeviceInfo, DeviceKind
from gpu_checks.knee import fit_knee
from gpu_checks.presets import SpecRoof
from gpu_checks.report import RunReport
from gpu_checks.results import (
    BandwidthResult,
    DecodeResult,
    FusionResult,
    MatmulResult,
    OverheadResult,
    Sample,
)
from gpu_checks.timing import timing_from_times

BANDWIDTH = 10e9
PEAKS = {"float32": 100e9, "bfloat16": 400e9}
OVERHEAD_S = 2e-6
SIDE = 4096


def device(*, name: str = "Test CPU", memory_bytes: int = 16 * 2**30) -> DeviceInfo:
    return DeviceInfo(
        kind=DeviceKind.CPU,
        torch_device="cpu",
        name=name,
        memory_bytes=memory_bytes,
        free_memory_bytes=8 * 2**30,
        llc_bytes=32 * 2**20,
        llc_source="test",
        threads=2,
        torch_version="0.0",
        fast_dtypes=("float32", "bfloat16"),
    )


def sample(label: str, size: int, *, moved: float, flops: float, peak: float = PEAKS["float32"]) -> Sample:
    seconds = max(OVERHEAD_S, moved / BANDWIDTH, flops / peak)
    return Sample(
        label=label,
        size=size,
        bytes_moved=moved,
        flops=flops,
        working_set_bytes=moved,
        timing=timing_from_times(times_s=[seconds * 0.99, seconds, seconds * 1.02]),
    )


def _bandwidth() -> BandwidthResult:
    sizes = [2**k for k in range(13, 28, 2)]
    samples = [sample("copy", n, moved=8.0 * n, flops=0.0) for n in sizes]
    samples += [sample("triad", n, moved=12.0 * n, flops=2.0 * n) for n in sizes]
    return BandwidthResult(
        samples=tuple(samples),
        llc_bytes=32 * 2**20,
        plateau_min_bytes=64 * 2**20,
        copy_bytes_per_s=BANDWIDTH,
        triad_bytes_per_s=BANDWIDTH * 0.95,
        beyond_cache=True,
        truncated=False,
    )


def _matmul() -> MatmulResult:
    samples = [
        sample(dtype, n, moved=3.0 * n * n * width, flops=2.0 * n**3, peak=PEAKS[dtype])
        for dtype, width in (("float32", 4), ("bfloat16", 2))
        for n in (256, 1024, 2048)
    ]
    return MatmulResult(samples=tuple(samples), peak_flops_by_dtype=dict(PEAKS), truncated=False)


def _overhead() -> OverheadResult:
    samples = [sample("add", n, moved=8.0 * n, flops=float(n)) for n in (4**k for k in range(12))]
    fit = fit_knee(xs=[s.bytes_moved for s in samples], ys=[s.seconds for s in samples])
    return OverheadResult(
        samples=tuple(samples),
        fit=fit,
        overhead_s=fit.floor,
        knee_bytes_measured=fit.knee,
        knee_bytes_predicted=OVERHEAD_S * BANDWIDTH,
        truncated=False,
    )


def _decode() -> DecodeResult:
    peak = PEAKS["bfloat16"]
    samples = [
        sample(
            "bfloat16", b, moved=2.0 * (SIDE * SIDE + 2 * b * SIDE), flops=2.0 * b * SIDE * SIDE, peak=peak
        )
        for b in (2**k for k in range(10))
    ]
    fit = fit_knee(xs=[s.size for s in samples], ys=[s.seconds for s in samples])
    return DecodeResult(
        dtype="bfloat16",
        weight_shape=(1, SIDE, SIDE),
        weight_bytes=2 * SIDE * SIDE,
        samples=tuple(samples),
        fit=fit,
        knee_measured=fit.knee,
        knee_predicted=peak * 2 / (2 * BANDWIDTH),
        peak_flops_used=peak,
        mem_bandwidth_used=BANDWIDTH,
        predicted_times_s=tuple(s.seconds for s in samples),
        beyond_cache=True,
        truncated=False,
    )


def _fusion() -> FusionResult:
    n = 2**24
    unfused = sample("unfused", n, moved=16.0 * n, flops=2.0 * n)
    fused = sample("fused", n, moved=8.0 * n, flops=2.0 * n)
    return FusionResult(
        samples=(unfused, fused),
        fused_with="torch.clamp",
        compile_s=None,
        time_ratio=fused.seconds / unfused.seconds,
        bytes_ratio=0.5,
    )


def report(
    *,
    started_at: str = "2026-11-29T16:00:00+00:00",
    spec: SpecRoof | None = None,
    info: DeviceInfo | None = None,
) -> RunReport:
    return RunReport(
        plan="quick",
        device=info or device(),
        spec=spec,
        started_at=started_at,
        elapsed_s=12.5,
        threads=2,
        stopped=False,
        bandwidth=_bandwidth(),
        matmul=_matmul(),
        overhead=_overhead(),
        decode=(_decode(),),
        fusion=_fusion(),
    )


def knee_below_range(base: RunReport) -> RunReport:
    """``base`` with a decode sweep that rose from batch 1 on, as a busy 2-core machine recorded it."""
    decode = base.decode[0]
    fit = replace(decode.fit, knee=None, n_flat=0, below_range=True)
    return replace(base, decode=(replace(decode, fit=fit, knee_measured=None),))


def noisy_bandwidth(base: RunReport) -> RunReport:
    """``base`` whose bandwidth timings spread by 40 % (another program was streaming memory)."""
    bandwidth = base.bandwidth
    assert bandwidth is not None
    samples = tuple(
        replace(s, timing=timing_from_times(times_s=[s.seconds * 0.7, s.seconds, s.seconds * 1.5]))
        for s in bandwidth.samples
    )
    return replace(base, bandwidth=replace(bandwidth, samples=samples))


def busy_bandwidth(base: RunReport, *, busy_cpus: float = 1.0) -> RunReport:
    """``base`` whose bandwidth samples were timed while other programs kept ``busy_cpus`` CPUs busy."""
    bandwidth = base.bandwidth
    assert bandwidth is not None
    samples = tuple(replace(s, timing=replace(s.timing, busy_cpus=busy_cpus)) for s in bandwidth.samples)
    return replace(base, bandwidth=replace(bandwidth, samples=samples, statistic="best"))
