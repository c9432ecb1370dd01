"""Typed results of the five probes. Seconds, bytes, FLOP, FLOP/s and bytes/s throughout.

Every probe returns a result holding its raw samples (each with its replicated timings) and the
figures derived from them, with the prediction where the probe makes one.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_checks.knee import KneeFit
from gpu_checks.record import Record
from gpu_checks.timing import Timing


@dataclass(frozen=True)
class Sample(Record):
    """One timed configuration of a probe.

    ``label`` names the kernel or dtype (``copy``, ``triad``, ``float32``, ``fused``...); ``size``
    is what the probe sweeps (elements per array, matrix side or batch). ``bytes_moved`` and
    ``flops`` are counted per call as each probe documents; ``working_set_bytes`` is the memory a
    call touches (for a rotating pool, the whole pool), to compare with the last-level cache.
    """

    label: str
    size: int
    bytes_moved: float
    flops: float
    working_set_bytes: float
    timing: Timing

    @property
    def seconds(self) -> float:
        """Median seconds per call."""
        return self.timing.median_s

    @property
    def bytes_per_s(self) -> float:
        """Achieved bandwidth: bytes moved / median time."""
        return self.bytes_moved / self.timing.median_s

    @property
    def best_bytes_per_s(self) -> float:
        """Bandwidth of the fastest block (STREAM's statistic): bytes moved / best time."""
        return self.bytes_moved / self.timing.best_s

    @property
    def flops_per_s(self) -> float:
        """Achieved FLOP/s: FLOPs / median time."""
        return self.flops / self.timing.median_s

    @property
    def arithmetic_intensity(self) -> float | None:
        """FLOP per byte moved; None for a kernel that does no arithmetic (a copy)."""
        return self.flops / self.bytes_moved if self.flops > 0 and self.bytes_moved > 0 else None


@dataclass(frozen=True)
class BandwidthResult(Record):
    """Copy and triad over growing arrays; bytes counted as STREAM does (copy 2, triad 3 per element).

    A plateau is taken over a kernel's samples whose working set is at least ``plateau_min_bytes``
    (and, from ``statistic`` "best" on, whose per-call cost ``per_call_cost_s`` is under 5 % of a
    call): the best repetition of them ("best", as STREAM), or their median (reports saved by
    earlier versions, "median"). ``beyond_cache`` is False when no sample got there (memory cap)
    and the largest sample stood in.
    """

    samples: tuple[Sample, ...]
    llc_bytes: int
    plateau_min_bytes: float
    copy_bytes_per_s: float
    triad_bytes_per_s: float
    beyond_cache: bool
    truncated: bool
    notes: tuple[str, ...] = ()
    statistic: str = "median"
    per_call_cost_s: float | None = None

    @property
    def mem_bandwidth_bytes_per_s(self) -> float:
        """The better plateau of copy and triad (STREAM users quote the best kernel)."""
        return max(self.copy_bytes_per_s, self.triad_bytes_per_s)


@dataclass(frozen=True)
class MatmulResult(Record):
    """Square matmuls over sizes and dtypes: 2n³ FLOPs, 3n² elements moved (perfect reuse)."""

    samples: tuple[Sample, ...]
    peak_flops_by_dtype: dict[str, float]
    truncated: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class OverheadResult(Record):
    """A tiny element-wise op over growing tensors: the flat overhead floor, then the bandwidth slope.

    ``fit`` is over bytes moved per call; ``overhead_s`` its floor; ``knee_bytes_measured`` the
    crossing of the asymptotes; ``knee_bytes_predicted`` the estimator's overhead · bandwidth
    with the measured bandwidth (None without a bandwidth result).
    """

    samples: tuple[Sample, ...]
    fit: KneeFit
    overhead_s: float
    knee_bytes_measured: float | None
    knee_bytes_predicted: float | None
    truncated: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class FusionResult(Record):
    """Two element-wise ops (clamp_min then clamp_max) unfused versus fused, on one large tensor.

    ``fused_with`` says how: ``torch.compile`` or the single op ``torch.clamp``.
    ``time_ratio`` = fused time / unfused time, the median over rounds that alternate the two;
    ``bytes_ratio`` the estimator's fused / unfused bytes. Each sample pools its rounds' timings.
    """

    samples: tuple[Sample, ...]
    fused_with: str
    compile_s: float | None
    time_ratio: float
    bytes_ratio: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DecodeResult(Record):
    """y = x · Wᵀ for each of a stack of layers larger than the cache, batch 1 upwards.

    ``weight_shape`` is (layers, d, d); ``weight_bytes`` all of them together.

    Each sample keeps the faster of two passes over the batches (up, then down), since other
    work on the machine only ever adds time. ``knee_measured`` is the batch where the flat and
    rising asymptotes cross (None when the sweep never rose); ``knee_predicted`` the estimator's
    critical batch size with the measured matmul peak of ``dtype`` and the measured bandwidth.
    ``predicted_times_s`` are the estimator's decode step times for each sample's batch (empty
    without those measurements).
    """

    dtype: str
    weight_shape: tuple[int, ...]
    weight_bytes: int
    samples: tuple[Sample, ...]
    fit: KneeFit
    knee_measured: float | None
    knee_predicted: float | None
    peak_flops_used: float | None
    mem_bandwidth_used: float | None
    predicted_times_s: tuple[float, ...]
    beyond_cache: bool
    truncated: bool
    notes: tuple[str, ...] = ()
