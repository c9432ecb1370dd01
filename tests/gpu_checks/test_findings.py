"""Doubts about a run's figures, and the run read as answers to the interview questions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpu_checks.findings import findings
from gpu_checks.presets import spec_roof
from gpu_checks.reliability import Reason, assess, doubts_of
from gpu_checks.report import RunReport
from gpu_checks.si import format_si
from grader import estimator
from tests.gpu_checks import synthetic


def _by_item(report: RunReport) -> dict[str, str]:
    return {f.check_id: f.text for f in findings(report)}


def test_a_clean_run_has_no_doubts_and_reads_as_answers() -> None:
    report = synthetic.report()
    assert all(not found for found in assess(report).values())
    texts = _by_item(report)
    assert set(texts) == {
        "ops-byte-threshold",
        "arithmetic-intensity",
        "overhead-vs-bandwidth",
        "fusion",
        "decode-weight-read",
        "decode-batch-threshold",
    }
    assert texts["ops-byte-threshold"].startswith(
        "This device moves 10 GB/s. Its ridge is 10 FLOP/B for float32"
    )
    assert (
        "sits at 0.0833 FLOP/B, below the float32 ridge of 10 FLOP/B, so it is bandwidth-bound"
        in (texts["arithmetic-intensity"])
    )
    assert (
        "A 2048×2048 float32 matmul sits at 341 FLOP/B, so it is compute-bound"
        in texts["arithmetic-intensity"]
    )
    assert "measured at 40.2 (predicted 40 = peak" in texts["decode-batch-threshold"]
    assert "⚠" not in " ".join(texts.values())


def test_a_plateau_that_stayed_in_the_cache_is_doubted() -> None:
    base = synthetic.report()
    assert base.bandwidth is not None
    report = replace(base, bandwidth=replace(base.bandwidth, beyond_cache=False))
    (doubt,) = assess(report)["bandwidth"]
    assert doubt.reason is Reason.CACHE
    assert "33.6 MB last-level cache" in doubt.detail
    assert "This device moves 10 GB/s ⚠." in _by_item(report)["ops-byte-threshold"]
    ridge = next(c for c in report.comparisons() if c.label.startswith("Ridge"))
    assert [d.reason for d in doubts_of(assess(report), ridge.depends)] == [Reason.CACHE]


def test_noisy_timings_are_doubted_with_their_spread() -> None:
    (doubt,) = assess(synthetic.noisy_bandwidth(synthetic.report()))["bandwidth"]
    assert doubt.reason is Reason.NOISY
    assert "up to 40%" in doubt.detail  # IQR of (0.7, 1, 1.5) × t is 0.4 t: 40 % of the median
    assert doubt.sentence().startswith("Too noisy: ")


@pytest.mark.parametrize(
    ("knee", "below_range", "reason"),
    [
        (None, True, Reason.BELOW_RANGE),
        (0.34, False, Reason.BELOW_RANGE),  # a report saved before the fit knew its range
        (None, False, Reason.ABOVE_RANGE),
    ],
)
def test_a_decode_knee_outside_the_sweep_is_doubted(
    knee: float | None, below_range: bool, reason: Reason
) -> None:
    base = synthetic.report()
    decode = base.decode[0]
    fit = replace(decode.fit, knee=knee, below_range=below_range)
    report = replace(base, decode=(replace(decode, fit=fit, knee_measured=knee),))
    doubts = assess(report)["decode-knee:bfloat16"]
    assert [d.reason for d in doubts] == [reason]
    text = _by_item(report)["decode-batch-threshold"]
    assert text.startswith(f"The decode batch knee was not measured ({reason.value};")
    assert "0.34" not in text


def test_a_matched_gpu_compares_with_its_datasheet_and_the_vector_peak() -> None:
    spec = spec_roof("h200_sxm")
    assert spec is not None and spec.peak_flops_vector is not None
    report = synthetic.report(spec=spec)
    text = _by_item(report)
    assert (
        "The NVIDIA H200 SXM 141GB datasheet gives 4.8 TB/s: this machine reaches 0.21 %"
        in (text["ops-byte-threshold"])
    )
    assert "the datasheet ridge is 206 FLOP/B" in text["ops-byte-threshold"]
    row = next(c for c in report.comparisons() if c.label == "Element-wise op FLOP/s against the datasheet")
    assert report.fusion is not None
    unfused = report.fusion.samples[0]
    assert row.predicted == pytest.approx(
        estimator.attainable_flops(
            arithmetic_intensity=unfused.arithmetic_intensity,
            peak_flops=spec.peak_flops_vector,
            mem_bandwidth=spec.mem_bandwidth,
        )
    )
    assert row.measured == pytest.approx(unfused.flops_per_s)
    assert "fp32 vector peak 67 TFLOP/s" in text["arithmetic-intensity"]


def test_a_device_without_a_preset_has_no_datasheet_sentences() -> None:
    texts = _by_item(synthetic.report())
    assert "datasheet" not in " ".join(texts.values())
    assert not any("datasheet" in c.label for c in synthetic.report().comparisons())


def _with_batch1_seconds(report: RunReport, factor: float) -> RunReport:
    """``report`` with its batch-1 decode step ``factor`` times one read of the weights."""
    decode = report.decode[0]
    first = min(decode.samples, key=lambda s: s.size)
    read_s = decode.weight_bytes / decode.mem_bandwidth_used
    slow = replace(first, timing=replace(first.timing, median_s=factor * read_s))
    samples = tuple(slow if s is first else s for s in decode.samples)
    return replace(report, decode=(replace(decode, samples=samples), *report.decode[1:]))


def test_the_weight_read_conclusion_follows_the_measurement() -> None:
    near = _by_item(_with_batch1_seconds(synthetic.report(), 1.2))["decode-weight-read"]
    assert near.endswith("At 1.2× the read, batch-1 decode is bounded by reading the weights.")
    far = _by_item(_with_batch1_seconds(synthetic.report(), 2.4))["decode-weight-read"]
    assert "The step took 2.4× the read" in far
    assert "does not show the weight read as the bound" in far
    assert "is bounded by reading the weights" not in far


def test_weights_near_the_cache_size_are_doubted_with_the_real_ratio() -> None:
    base = synthetic.report()
    decode = replace(base.decode[0], beyond_cache=False)
    (doubt,) = assess(replace(base, decode=(decode,)))[f"decode:{decode.dtype}"]
    assert doubt.reason is Reason.CACHE
    assert "the 33.6 MB of weights are only 1.0× the 33.6 MB last-level cache" in doubt.detail


def test_the_decode_finding_and_its_comparison_name_the_weights_in_one_unit() -> None:
    report = synthetic.report()
    decode = report.primary_decode
    assert decode is not None
    size = format_si(decode.weight_bytes, "B")
    finding = next(f for f in findings(report) if f.check_id == "decode-weight-read")
    (row,) = [c for c in report.comparisons() if c.check_id == "decode-weight-read"]
    assert f"over {size} of bfloat16 weights" in finding.text
    assert row.basis == f"reading {size} of weights"
    assert "MiB" not in finding.text + row.basis


def test_a_bandwidth_measured_on_a_busy_machine_is_a_lower_bound_and_so_is_all_that_rests_on_it() -> None:
    report = synthetic.busy_bandwidth(synthetic.report())
    found = {f.check_id: f for f in findings(report)}
    roofs = found["ops-byte-threshold"]
    assert "This device moves 10 GB/s ⚠." in roofs.text
    assert "FLOP/B ⚠ for float32" in roofs.text  # the ridge rests on the bandwidth
    (doubt,) = [d for d in roofs.doubts if d.reason is Reason.BUSY]
    assert doubt.sentence().startswith(
        "The machine was busy; this is a lower bound: other programs kept 1.0 CPUs"
    )
    knee = found["decode-batch-threshold"]
    assert "predicted 40 ⚠" in knee.text  # the predicted knee uses the bandwidth
    assert any(d.reason is Reason.BUSY for d in knee.doubts)


def test_a_quiet_machine_raises_no_busy_doubt() -> None:
    report = synthetic.busy_bandwidth(synthetic.report(), busy_cpus=0.05)
    assert not any(d.reason is Reason.BUSY for f in findings(report) for d in f.doubts)
