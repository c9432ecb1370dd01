"""The altair roofline builder: log-log axes, measured and datasheet roofs, points."""

from __future__ import annotations

from typing import Any

import pytest

from ui.roofline_chart import roofline_chart


def _layers(spec: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    datasets = spec["datasets"]
    roof, points = spec["layer"]
    return datasets[roof["data"]["name"]], datasets[points["data"]["name"]]


def test_measured_roof_bends_at_the_ridge_and_axes_are_log() -> None:
    chart = roofline_chart(
        peak_flops=1e12,
        mem_bandwidth=1e10,
        points=[{"label": "matmul", "arithmetic_intensity": 300.0, "flops_per_s": 8e11, "size": 2048}],
    )
    spec = chart.to_dict()
    roof, points = _layers(spec)
    assert {row["roof"] for row in roof} == {"measured roof"}
    ridge = next(row for row in roof if row["arithmetic_intensity"] == pytest.approx(100.0))
    assert ridge["flops_per_s"] == pytest.approx(1e12)
    assert min(row["flops_per_s"] for row in roof) < 1e12  # the bandwidth slope below the ridge
    assert points == [{"label": "matmul", "arithmetic_intensity": 300.0, "flops_per_s": 8e11, "size": 2048}]
    encoding = spec["layer"][1]["encoding"]
    assert encoding["x"]["scale"]["type"] == "log"
    assert encoding["y"]["scale"]["type"] == "log"


def test_datasheet_roof_appears_only_with_both_figures() -> None:
    base = {"peak_flops": 1e12, "mem_bandwidth": 1e10, "points": []}
    roof, _ = _layers(roofline_chart(**base, spec_peak_flops=2e12, spec_mem_bandwidth=4e10).to_dict())
    assert {row["roof"] for row in roof} == {"measured roof", "datasheet roof"}
    spec = roofline_chart(**base, spec_peak_flops=2e12).to_dict()
    roof, _ = _layers(spec)
    assert {row["roof"] for row in roof} == {"measured roof"}
    assert spec["layer"][0]["encoding"]["strokeDash"]["scale"]["domain"] == ["measured roof"]  # legend


def test_points_without_positive_values_are_skipped() -> None:
    chart = roofline_chart(
        peak_flops=1e12,
        mem_bandwidth=1e10,
        points=[
            {"label": "copy", "arithmetic_intensity": None, "flops_per_s": 0.0},
            {"label": "bad", "arithmetic_intensity": -1.0, "flops_per_s": 1e9},
            {"label": "triad", "arithmetic_intensity": 1 / 6, "flops_per_s": 1.5e9},
        ],
    )
    _, points = _layers(chart.to_dict())
    assert [p["label"] for p in points] == ["triad"]
