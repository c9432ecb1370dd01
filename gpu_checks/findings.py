"""A run's results as answers to the interview questions they back, in words and numbers with units.

One :class:`Finding` per checklist item the run speaks to: "this device moves 29 GB/s; its ridge
is 14 FLOP/B for float32; an element-wise add sits at 0.083 FLOP/B, so it is bandwidth-bound".
Every prediction in a sentence comes from ``grader.estimator``; every figure that the run could
not measure reliably is marked "⚠" in the sentence, and the finding carries the doubts
(reason and what to do) for the page to show beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from gpu_checks.reliability import Doubt, Doubts, Reason, assess, doubts_of
from gpu_checks.report import RunReport
from gpu_checks.table import format_si
from grader import estimator


class _Elementwise(TypedDict):
    """An element-wise op as ``estimator.arithmetic_intensity_elementwise`` reads it."""

    flops_per_element: float
    bytes_per_element: float
    n_inputs: int


#: The element-wise example the interview asks about: c = a + b in float32 (1 FLOP, 12 bytes).
_ADD: _Elementwise = {"flops_per_element": 1.0, "bytes_per_element": 4.0, "n_inputs": 2}
_RANGE = (Reason.BELOW_RANGE, Reason.ABOVE_RANGE)


@dataclass(frozen=True)
class Finding:
    """What a run says about checklist item ``check_id``: ``text`` (sentences) and its ``doubts``."""

    check_id: str
    text: str
    doubts: tuple[Doubt, ...] = ()

    @property
    def reliable(self) -> bool:
        return not self.doubts


class _Writer:
    """Formats figures, marking those whose keys carry doubts, and collects the doubts used."""

    def __init__(self, doubts: Doubts) -> None:
        self._doubts = doubts
        self.used: list[str] = []

    def fig(self, value: float | None, unit: str, *keys: str, after: str = "") -> str:
        """``value`` with its SI prefix and ``after`` ("×"), then "⚠" when a figure of ``keys`` is doubted."""
        self.used += keys
        text = format_si(value, unit) + after
        return f"{text} ⚠" if doubts_of(self._doubts, keys) else text

    def doubts(self, *keys: str) -> tuple[Doubt, ...]:
        """The doubts of ``keys``, without counting them as used."""
        return doubts_of(self._doubts, keys)

    def out_of_range(self, key: str) -> Doubt | None:
        """The doubt of a knee ``key`` that fell outside the swept range, if any."""
        return next((d for d in self.doubts(key) if d.reason in _RANGE), None)

    def finding(self, check_id: str, parts: Iterable[str]) -> Finding:
        found = Finding(check_id, " ".join(parts), doubts_of(self._doubts, self.used))
        self.used = []
        return found


def _pct(measured: float, datasheet: float) -> str:
    """A share as a percentage, two significant figures below 10 % (a CPU against a GPU's sheet)."""
    share = measured / datasheet
    return f"{share:.0%}" if share >= 0.1 else f"{share * 100:.2g} %"


def _roofs(report: RunReport, w: _Writer) -> list[Finding]:
    bandwidth, peaks = report.mem_bandwidth, report.matmul.peak_flops_by_dtype if report.matmul else {}
    if not bandwidth:
        return []
    parts = [f"This device moves {w.fig(bandwidth, 'B/s', 'bandwidth')}."]
    ridges = []
    for dtype, peak in peaks.items():
        key = f"matmul:{dtype}"
        ridge = estimator.ridge_point(peak_flops=peak, mem_bandwidth=bandwidth)
        ridges.append(
            f"{w.fig(ridge, 'FLOP/B', 'bandwidth', key)} for {dtype} (peak {w.fig(peak, 'FLOP/s', key)})"
        )
    if ridges:
        parts.append(
            f"Its ridge is {' and '.join(ridges)}: a kernel below that many FLOP per byte is "
            "bandwidth-bound, above it compute-bound."
        )
    spec = report.spec
    if spec:
        parts.append(
            f"The {spec.name} datasheet gives {format_si(spec.mem_bandwidth, 'B/s')}: this machine reaches "
            f"{_pct(bandwidth, spec.mem_bandwidth)} of it."
        )
        dense = next((d for d in ("bfloat16", "float16") if d in peaks), None)
        sheet_ridge = estimator.ridge_point(peak_flops=spec.peak_flops, mem_bandwidth=spec.mem_bandwidth)
        if dense:
            parts.append(
                f"Dense {dense} matmuls reach {w.fig(peaks[dense], 'FLOP/s', f'matmul:{dense}')} of the "
                f"datasheet's {format_si(spec.peak_flops, 'FLOP/s')} "
                f"({_pct(peaks[dense], spec.peak_flops)}); "
                f"the datasheet ridge is {format_si(sheet_ridge, 'FLOP/B')}."
            )
    return [w.finding("ops-byte-threshold", parts)]


def _intensity(report: RunReport, w: _Writer) -> list[Finding]:
    bandwidth, matmul = report.mem_bandwidth, report.matmul
    fp32 = matmul.peak_flops_by_dtype.get("float32") if matmul else None
    if not bandwidth or not fp32:
        return []
    add = estimator.arithmetic_intensity_elementwise(**_ADD)
    ridge = estimator.ridge_point(peak_flops=fp32, mem_bandwidth=bandwidth)
    regime = "bandwidth-bound" if add < ridge else "compute-bound"
    parts = [
        f"An element-wise add (c = a + b in float32) sits at {format_si(add, 'FLOP/B')}, "
        f"{'below' if add < ridge else 'above'} the float32 ridge of "
        f"{w.fig(ridge, 'FLOP/B', 'bandwidth', 'matmul:float32')}, so it is {regime}."
    ]
    assert matmul is not None  # fp32, checked above, is read from it
    largest = max((s for s in matmul.samples if s.label == "float32"), key=lambda s: s.size, default=None)
    if largest and largest.arithmetic_intensity:
        big = largest.arithmetic_intensity
        parts.append(
            f"A {largest.size}×{largest.size} float32 matmul sits at {format_si(big, 'FLOP/B')}, so it is "
            f"{'compute-bound' if big >= ridge else 'bandwidth-bound'}."
        )
    if report.fusion:
        unfused = report.fusion.samples[0]
        parts.append(
            "Measured: the unfused element-wise chain ran at "
            f"{w.fig(unfused.flops_per_s, 'FLOP/s', 'fusion')}, a float32 matmul at up to "
            f"{w.fig(fp32, 'FLOP/s', 'matmul:float32')}."
        )
        spec = report.spec
        vector = spec.peak_flops_vector if spec else None
        if spec and vector and unfused.arithmetic_intensity:
            roof = estimator.attainable_flops(
                arithmetic_intensity=unfused.arithmetic_intensity,
                peak_flops=vector,
                mem_bandwidth=spec.mem_bandwidth,
            )
            parts.append(
                f"On the datasheet (fp32 vector peak {format_si(vector, 'FLOP/s')}, not the tensor cores), "
                f"such a chain can reach {format_si(roof, 'FLOP/s')}: this machine gets "
                f"{_pct(unfused.flops_per_s, roof)} of that."
            )
    return [w.finding("arithmetic-intensity", parts)]


def _overhead(report: RunReport, w: _Writer) -> list[Finding]:
    overhead = report.overhead
    if overhead is None:
        return []
    parts = [f"A tiny op costs {w.fig(overhead.overhead_s, 's', 'overhead')} however small its tensor."]
    predicted = overhead.knee_bytes_predicted
    prediction = ""
    if predicted:
        prediction = f" (predicted {w.fig(predicted, 'B', 'overhead', 'bandwidth')} = overhead × bandwidth)"
    measured = overhead.knee_bytes_measured
    if measured is not None and w.out_of_range("overhead-knee") is None:
        parts.append(
            f"Time starts growing with size at about {w.fig(measured, 'B', 'overhead-knee')} per op"
            f"{prediction}: below that an op is overhead-bound, above it bandwidth-bound."
        )
    else:
        w.used.append("overhead-knee")
        parts.append(f"Where time starts growing with size was not measured{prediction}.")
    return [w.finding("overhead-vs-bandwidth", parts)]


def _fusion(report: RunReport, w: _Writer) -> list[Finding]:
    fusion = report.fusion
    if fusion is None:
        return []
    text = (
        f"Two element-wise ops fused (with {fusion.fused_with}) took "
        f"{w.fig(fusion.time_ratio, '', 'fusion', after='×')} "
        f"the time of running them one after the other; the bytes they move predict "
        f"{format_si(fusion.bytes_ratio, '')}×. Fusing saves the trip through memory, and that trip "
        "is the cost."
    )
    return [w.finding("fusion", [text])]


#: A batch-1 step within this factor of one read of the weights is read as bounded by that read: the
#: probe's own bandwidth figure is a streaming best case, so a real step lands a little above it.
WEIGHT_READ_BOUND = 1.5


def _weight_read_verdict(ratio: float) -> str:
    """What the step's time says about the weight read, from the measurement rather than the lesson."""
    if ratio <= WEIGHT_READ_BOUND:
        return f"At {ratio:.1f}× the read, batch-1 decode is bounded by reading the weights."
    return (
        f"The step took {ratio:.1f}× the read, so here something else adds on top of it "
        "(per-op overhead, or compute that is slow on this device), and this run does not show the "
        "weight read as the bound: see the overhead finding, and run Full for larger weights."
    )


def _decode(report: RunReport, w: _Writer) -> list[Finding]:
    findings: list[Finding] = []
    decode = report.primary_decode
    if decode is None or not decode.samples:
        return findings
    dtype, first = decode.dtype, min(decode.samples, key=lambda s: s.size)
    if decode.mem_bandwidth_used:
        predicted = decode.weight_bytes / decode.mem_bandwidth_used
        findings.append(
            w.finding(
                "decode-weight-read",
                [
                    f"A batch-{first.size} decode step over {format_si(decode.weight_bytes, 'B')} of {dtype} "
                    f"weights took {w.fig(first.seconds, 's', f'decode:{dtype}')}; reading them once at the "
                    f"measured bandwidth takes {w.fig(predicted, 's', 'bandwidth')}. "
                    + _weight_read_verdict(first.seconds / predicted)
                ],
            )
        )
    key = f"decode-knee:{dtype}"
    out_of_range = w.out_of_range(key)
    predicted_knee = decode.knee_predicted
    prediction = (
        f"predicted {w.fig(predicted_knee, '', 'bandwidth', f'matmul:{dtype}')} = peak × bytes per weight "
        "/ (2 × bandwidth)"
        if predicted_knee
        else "no prediction without the matmul peak and bandwidth"
    )
    w.used.append(key)
    if decode.knee_measured is None or out_of_range:
        where = out_of_range.reason.value if out_of_range else "not measured"
        text = f"The decode batch knee was not measured ({where}; {prediction})."
    else:
        text = (
            f"The decode batch knee was measured at {w.fig(decode.knee_measured, '', key)} ({prediction}): "
            "below it a decode step costs about what batch 1 costs."
        )
    findings.append(w.finding("decode-batch-threshold", [text]))
    return findings


def findings(report: RunReport, *, doubts: Doubts | None = None) -> list[Finding]:
    """The run's answers, one per checklist item it backs, in the checklist's teaching order."""
    w = _Writer(assess(report) if doubts is None else doubts)
    return [
        *_roofs(report, w),
        *_intensity(report, w),
        *_overhead(report, w),
        *_fusion(report, w),
        *_decode(report, w),
    ]
