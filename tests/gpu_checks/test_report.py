"""Run reports: stored form, headline summary, predicted vs measured rows, tables and CSV."""

from __future__ import annotations

import csv
import io
import json

import pytest

from gpu_checks.presets import SpecRoof
from gpu_checks.report import RunReport
from gpu_checks.table import (
    comparison_rows,
    format_si,
    history_rows,
    roofline_points,
    sample_rows,
    to_csv,
)
from tests.gpu_checks import synthetic

SPEC = SpecRoof(preset_id="h200_sxm", name="NVIDIA H200 SXM 141GB", peak_flops=989e12, mem_bandwidth=4.8e12)
CHECK_IDS = {
    "ops-byte-threshold",
    "arithmetic-intensity",
    "overhead-vs-bandwidth",
    "fusion",
    "decode-batch-threshold",
    "decode-weight-read",
}


def test_the_stored_form_round_trips_through_json() -> None:
    report = synthetic.report(spec=SPEC)
    again = RunReport.from_dict(json.loads(json.dumps(report.to_dict(), allow_nan=False)))
    assert again == report
    assert again.device.fingerprint == report.device.fingerprint


def test_unknown_keys_are_ignored_when_reading() -> None:
    data = synthetic.report().to_dict()
    data["from_a_newer_version"] = 1
    data["device"]["extra"] = "x"
    assert RunReport.from_dict(data) == synthetic.report()


def test_summary_has_the_headline_keys() -> None:
    summary = synthetic.report().summary()
    assert summary["mem_bandwidth_bytes_per_s"] == synthetic.BANDWIDTH
    assert summary["matmul_peak_flops"] == synthetic.PEAKS
    assert summary["overhead_s_per_op"] == pytest.approx(synthetic.OVERHEAD_S)
    assert summary["fusion_time_ratio"] == pytest.approx(0.5)
    assert summary["decode_knee_batch_predicted"] == pytest.approx(40.0)
    assert summary["decode_knee_batch_measured"] == pytest.approx(40.0, rel=0.05)
    assert summary["device"]["name"] == "Test CPU"
    assert summary["samples"] == len(synthetic.report().samples()) > 0
    assert summary["noisy_samples"] == 0  # the synthetic replicates are within 3 %


def test_comparisons_back_each_checklist_item() -> None:
    rows = synthetic.report(spec=SPEC).comparisons()
    assert {row.check_id for row in rows} == CHECK_IDS
    # The synthetic times follow the roofline exactly, so every prediction from measured roofs holds.
    for row in rows:
        if "datasheet" not in row.basis:
            assert row.ratio == pytest.approx(1.0, rel=0.05), row.label
            assert row.steps, row.label


def test_datasheet_rows_only_with_a_preset() -> None:
    with_spec = {row.label for row in synthetic.report(spec=SPEC).comparisons()}
    without = {row.label for row in synthetic.report().comparisons()}
    assert {"Memory bandwidth", "Dense matmul peak (bfloat16)"} <= with_spec - without
    ridge = next(r for r in synthetic.report().comparisons() if r.label.startswith("Ridge"))
    assert ridge.predicted is None
    assert ridge.measured == pytest.approx(40.0)  # 400 GFLOP/s / 10 GB/s
    ridge_spec = next(r for r in synthetic.report(spec=SPEC).comparisons() if r.label.startswith("Ridge"))
    assert ridge_spec.predicted == pytest.approx(989e12 / 4.8e12)


def test_a_partial_report_has_partial_rows() -> None:
    report = synthetic.report()
    bare = RunReport(
        plan="quick",
        device=report.device,
        spec=None,
        started_at=report.started_at,
        elapsed_s=1.0,
        threads=2,
        stopped=True,
        bandwidth=report.bandwidth,
    )
    assert bare.comparisons() == []
    assert bare.summary()["decode_knee_batch_measured"] is None
    assert bare.summary()["matmul_peak_flops"] == {}


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (1.23e10, "B/s", "12.3 GB/s"),
        (4.8e14, "FLOP/s", "480 TFLOP/s"),
        (2.5e-6, "s", "2.5 µs"),
        (0.0123, "s", "12.3 ms"),
        (40.2, "", "40.2"),
        (None, "B", "n/a"),
        (float("nan"), "B", "n/a"),
    ],
)
def test_format_si(value: float | None, unit: str, text: str) -> None:
    assert format_si(value, unit) == text


def test_sample_rows_and_csv() -> None:
    report = synthetic.report()
    rows = sample_rows(report)
    assert {row["probe"] for row in rows} == {"bandwidth", "matmul", "overhead", "decode bfloat16", "fusion"}
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert len(parsed) == len(rows)
    assert float(parsed[0]["median_s"]) == pytest.approx(rows[0]["median_s"])
    assert to_csv([]) == ""


def test_comparison_and_history_rows() -> None:
    rows = comparison_rows(synthetic.report())
    assert {row["checklist_item"] for row in rows} <= CHECK_IDS
    assert all("predicted_text" in row for row in rows)
    history = history_rows([synthetic.report()])
    assert history[0]["bandwidth"] == "10 GB/s"


def test_roofline_points_are_the_samples_that_do_arithmetic() -> None:
    points = roofline_points(synthetic.report())
    labels = {p["label"] for p in points}
    assert "bandwidth copy" not in labels  # a copy does no arithmetic
    assert {"matmul float32", "decode bfloat16", "bandwidth triad"} <= labels
    assert all(p["arithmetic_intensity"] > 0 and p["flops_per_s"] > 0 for p in points)
