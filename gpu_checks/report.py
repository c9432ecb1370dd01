"""One run's report: device, spec roof, each probe's result, and predicted against measured.

:meth:`RunReport.comparisons` sets each measurement beside the estimator's prediction made from
the other measurements (or from the preset's datasheet), naming the checklist item it backs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpu_checks.device import DeviceInfo
from gpu_checks.presets import SpecRoof
from gpu_checks.record import Record
from gpu_checks.results import (
    BandwidthResult,
    DecodeResult,
    FusionResult,
    MatmulResult,
    OverheadResult,
    Sample,
)
from gpu_checks.si import format_si
from grader import estimator
from grader.estimator.derivation import Step, recording

#: Dtypes the presets' dense peak refers to (tensor-core bf16/fp16), best first.
_SPEC_DTYPES = ("bfloat16", "float16")


@dataclass(frozen=True)
class Comparison(Record):
    """A measured figure beside its prediction, in SI units (``unit``: ``B``, ``s``, ``FLOP/B``...).

    ``check_id`` is the checklist item it backs; ``basis`` says where the prediction comes from;
    ``steps`` is the estimator's worked derivation of it. ``predicted`` is None when the inputs
    it needs were not measured (or no preset matched); ``measured`` None when it was not reached.
    ``depends`` names the measured figures both rest on (keys of ``gpu_checks.reliability.assess``),
    so a comparison inherits their doubts.
    """

    check_id: str
    label: str
    unit: str
    predicted: float | None
    measured: float | None
    basis: str
    steps: tuple[Step, ...] = ()
    depends: tuple[str, ...] = ()

    @property
    def ratio(self) -> float | None:
        """measured / predicted, when both exist."""
        if self.predicted and self.measured is not None:
            return self.measured / self.predicted
        return None


def _predict(fn: Callable[..., float], **kwargs: Any) -> tuple[float, tuple[Step, ...]]:
    with recording() as steps:
        value = fn(**kwargs)
    return value, tuple(steps)


@dataclass(frozen=True)
class RunReport(Record):
    """Everything one run measured. ``started_at`` is ISO 8601 UTC; ``elapsed_s`` wall seconds.

    ``errors`` maps a probe name to what went wrong in it; ``stopped`` is True when the run was
    stopped before every probe finished (finished probes are kept).
    """

    plan: str
    device: DeviceInfo
    spec: SpecRoof | None
    started_at: str
    elapsed_s: float
    threads: int
    stopped: bool
    bandwidth: BandwidthResult | None = None
    matmul: MatmulResult | None = None
    overhead: OverheadResult | None = None
    decode: tuple[DecodeResult, ...] = ()
    fusion: FusionResult | None = None
    errors: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def mem_bandwidth(self) -> float | None:
        """Measured memory bandwidth in bytes/s (the better plateau of copy and triad)."""
        return self.bandwidth.mem_bandwidth_bytes_per_s if self.bandwidth else None

    @property
    def peak_flops(self) -> float | None:
        """Best measured matmul FLOP/s over every dtype."""
        peaks = self.matmul.peak_flops_by_dtype if self.matmul else {}
        return max(peaks.values()) if peaks else None

    @property
    def best_dtype(self) -> str | None:
        """The dtype of the best measured matmul peak (the one :attr:`peak_flops` reports)."""
        peaks = self.matmul.peak_flops_by_dtype if self.matmul else {}
        return max(peaks, key=peaks.__getitem__) if peaks else None

    @property
    def primary_decode(self) -> DecodeResult | None:
        """The decode sweep of the narrowest fast dtype (the first one run)."""
        return self.decode[0] if self.decode else None

    def summary(self) -> dict[str, Any]:
        """The headline figures, SI units, under stable keys (the CLI's JSON top level)."""
        decode = self.primary_decode
        return {
            "device": self.device.to_dict(),
            "spec": self.spec.to_dict() if self.spec else None,
            "plan": self.plan,
            "started_at": self.started_at,
            "elapsed_s": self.elapsed_s,
            "threads": self.threads,
            "stopped": self.stopped,
            "mem_bandwidth_bytes_per_s": self.mem_bandwidth,
            "matmul_peak_flops": dict(self.matmul.peak_flops_by_dtype) if self.matmul else {},
            "overhead_s_per_op": self.overhead.overhead_s if self.overhead else None,
            "fusion_time_ratio": self.fusion.time_ratio if self.fusion else None,
            "fusion_bytes_ratio": self.fusion.bytes_ratio if self.fusion else None,
            "decode_dtype": decode.dtype if decode else None,
            "decode_knee_batch_measured": decode.knee_measured if decode else None,
            "decode_knee_batch_predicted": decode.knee_predicted if decode else None,
            "samples": len(self.samples()),
            "noisy_samples": sum(1 for sample in self.samples() if sample.timing.noisy),
            "errors": dict(self.errors),
        }

    def samples(self) -> list[Sample]:
        """Every timed sample of every probe."""
        groups = [self.bandwidth, self.matmul, self.overhead, *self.decode, self.fusion]
        return [sample for group in groups if group is not None for sample in group.samples]

    def comparisons(self) -> list[Comparison]:
        """Predicted against measured, one row per claim the app teaches."""
        rows = self._roof_rows()
        rows += self._overhead_rows() + self._fusion_rows()
        for decode in self.decode:
            rows += self._decode_rows(decode)
        return rows

    def _roof_rows(self) -> list[Comparison]:
        bandwidth, peak, spec = self.mem_bandwidth, self.peak_flops, self.spec
        rows: list[Comparison] = []
        if bandwidth and peak:
            measured, _ = _predict(estimator.ridge_point, peak_flops=peak, mem_bandwidth=bandwidth)
            predicted, steps = (
                _predict(estimator.ridge_point, peak_flops=spec.peak_flops, mem_bandwidth=spec.mem_bandwidth)
                if spec
                else (None, ())
            )
            basis = f"{spec.name} datasheet" if spec else "no preset for this device: measured only"
            rows.append(
                Comparison(
                    "ops-byte-threshold",
                    "Ridge point (ops:byte)",
                    "FLOP/B",
                    predicted,
                    measured,
                    basis,
                    steps,
                    depends=("bandwidth", f"matmul:{self.best_dtype}"),
                )
            )
        if spec and bandwidth:
            rows.append(
                Comparison(
                    "ops-byte-threshold",
                    "Memory bandwidth",
                    "B/s",
                    spec.mem_bandwidth,
                    bandwidth,
                    f"{spec.name} datasheet",
                    depends=("bandwidth",),
                )
            )
        peaks = self.matmul.peak_flops_by_dtype if self.matmul else {}
        spec_dtype = next((name for name in _SPEC_DTYPES if name in peaks), None)
        if spec and spec_dtype:
            rows.append(
                Comparison(
                    "ops-byte-threshold",
                    f"Dense matmul peak ({spec_dtype})",
                    "FLOP/s",
                    spec.peak_flops,
                    peaks[spec_dtype],
                    f"{spec.name} datasheet (dense bf16/fp16)",
                    depends=(f"matmul:{spec_dtype}",),
                )
            )
        return rows

    def _overhead_rows(self) -> list[Comparison]:
        if not self.overhead or not self.mem_bandwidth:
            return []
        predicted, steps = _predict(
            estimator.overhead_knee_bytes,
            overhead_s=self.overhead.overhead_s,
            mem_bandwidth=self.mem_bandwidth,
        )
        return [
            Comparison(
                "overhead-vs-bandwidth",
                "Overhead knee (bytes per op)",
                "B",
                predicted,
                self.overhead.knee_bytes_measured,
                "measured overhead floor × measured bandwidth",
                steps,
                depends=("overhead-knee", "bandwidth"),
            )
        ]

    def _fusion_rows(self) -> list[Comparison]:
        if not self.fusion:
            return []
        unfused = self.fusion.samples[0]
        # The unfused chain moved 2 ops · (read + write) · n · width bytes.
        width = unfused.bytes_moved / (4 * unfused.size)

        def chain_bytes(*, fused: bool) -> float:
            return estimator.elementwise_chain_bytes(
                n_elements=unfused.size, bytes_per_element=width, n_ops=2, fused=fused
            )

        with recording() as chain_steps:
            ratio = chain_bytes(fused=True) / chain_bytes(fused=False)
        rows = [
            Comparison(
                "fusion",
                "Fused / unfused time",
                "",
                ratio,
                self.fusion.time_ratio,
                f"bytes ratio of the chain (fused with {self.fusion.fused_with})",
                tuple(chain_steps),
                depends=("fusion",),
            )
        ]
        unfused = self.fusion.samples[0]
        peak = (self.matmul.peak_flops_by_dtype.get("float32") if self.matmul else None) or self.peak_flops
        if self.mem_bandwidth and peak and unfused.arithmetic_intensity:
            predicted, steps = _predict(
                estimator.attainable_flops,
                arithmetic_intensity=unfused.arithmetic_intensity,
                peak_flops=peak,
                mem_bandwidth=self.mem_bandwidth,
            )
            rows.append(
                Comparison(
                    "arithmetic-intensity",
                    "Element-wise op FLOP/s (one unfused clamp)",
                    "FLOP/s",
                    predicted,
                    unfused.flops_per_s,
                    "roofline at its intensity, measured roofs",
                    steps,
                    depends=("fusion", "bandwidth", "matmul:float32"),
                )
            )
        vector = self.spec.peak_flops_vector if self.spec else None
        if self.spec and vector and unfused.arithmetic_intensity:
            predicted, steps = _predict(
                estimator.attainable_flops,
                arithmetic_intensity=unfused.arithmetic_intensity,
                peak_flops=vector,
                mem_bandwidth=self.spec.mem_bandwidth,
            )
            rows.append(
                Comparison(
                    "arithmetic-intensity",
                    "Element-wise op FLOP/s against the datasheet",
                    "FLOP/s",
                    predicted,
                    unfused.flops_per_s,
                    f"{self.spec.name} datasheet: fp32 vector (non-tensor) peak and bandwidth",
                    steps,
                    depends=("fusion",),
                )
            )
        return rows

    def _decode_rows(self, decode: DecodeResult) -> list[Comparison]:
        if not decode.samples:
            return []
        peak, bandwidth = decode.peak_flops_used, decode.mem_bandwidth_used
        first = min(decode.samples, key=lambda s: s.size)
        n_params = math.prod(decode.weight_shape)
        itemsize = decode.weight_bytes / n_params
        rows: list[Comparison] = []
        knee, knee_steps = (
            _predict(
                estimator.decode_critical_batch_size,
                peak_flops=peak,
                mem_bandwidth=bandwidth,
                bytes_per_param=itemsize,
            )
            if peak and bandwidth
            else (None, ())
        )
        rows.append(
            Comparison(
                "decode-batch-threshold",
                f"Critical decode batch ({decode.dtype})",
                "",
                knee,
                decode.knee_measured,
                f"measured {decode.dtype} matmul peak and bandwidth",
                knee_steps,
                depends=(f"decode-knee:{decode.dtype}", "bandwidth", f"matmul:{decode.dtype}"),
            )
        )
        if peak and bandwidth:
            step_time, steps = _predict(
                estimator.decode_step_time,
                n_params=n_params,
                bytes_per_param=itemsize,
                mem_bandwidth=bandwidth,
                peak_flops=peak,
                batch_size=first.size,
            )
            rows.append(
                Comparison(
                    "decode-weight-read",
                    f"Batch-{first.size} step time ({decode.dtype})",
                    "s",
                    step_time,
                    first.seconds,
                    f"reading {format_si(decode.weight_bytes, 'B')} of weights",
                    steps,
                    depends=(f"decode:{decode.dtype}", "bandwidth"),
                )
            )
            intensity = first.arithmetic_intensity or 0.0
            attainable, steps = _predict(
                estimator.attainable_flops,
                arithmetic_intensity=intensity,
                peak_flops=peak,
                mem_bandwidth=bandwidth,
            )
            rows.append(
                Comparison(
                    "arithmetic-intensity",
                    f"Batch-{first.size} decode matmul FLOP/s ({decode.dtype})",
                    "FLOP/s",
                    attainable,
                    first.flops_per_s,
                    "roofline at its intensity, measured roofs",
                    steps,
                    depends=(f"decode:{decode.dtype}", "bandwidth", f"matmul:{decode.dtype}"),
                )
            )
        return rows
