"""The practice roofline's Vega-Lite dict: labelled points, a marked ridge, decade ticks, no legend."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest

from grader.estimator import ridge_point
from ui.roofline_spec import Role, roofline_spec

A100 = {"peak_flops": 312e12, "mem_bandwidth": 1.555e12}
POINTS = [
    {"label": "ops:byte ratio", "arithmetic_intensity": 200.6, "flops_per_s": 312e12, "role": Role.PROBLEM},
    {"label": "your answer", "arithmetic_intensity": 2.0, "flops_per_s": 3.11e12, "role": Role.ANSWER},
]


def channels(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every encoding channel of every layer."""
    return [channel for layer in spec["layer"] for channel in layer.get("encoding", {}).values()]


def texts(spec: dict[str, Any]) -> list[str]:
    """Every text drawn on the chart, as rows give it."""
    drawn = []
    for layer in spec["layer"]:
        mark = layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
        if mark == "text":
            field = layer["encoding"]["text"]["field"]
            drawn += [str(row[field]) for row in layer["data"]["values"]]
    return drawn


def test_every_point_is_labelled_on_the_chart_and_no_legend_takes_room() -> None:
    spec = roofline_spec(**A100, points=POINTS)
    drawn = texts(spec)
    assert "ops:byte ratio" in drawn and "your answer" in drawn
    # a colour or shape channel shows a legend unless told not to
    marked = [ch for ch in channels(spec) if isinstance(ch, dict) and ch.get("type") == "nominal"]
    assert marked and all(ch.get("legend", "shown") is None for ch in marked)


def test_problem_and_answer_points_differ_in_colour_and_shape() -> None:
    spec = roofline_spec(**A100, points=POINTS)
    colour = next(ch for ch in channels(spec) if ch.get("field") == "role" and "range" in ch.get("scale", {}))
    by_role = dict(zip(colour["scale"]["domain"], colour["scale"]["range"], strict=True))
    assert by_role[Role.PROBLEM] != by_role[Role.ANSWER]


def test_the_ridge_is_marked_and_labelled_with_its_intensity() -> None:
    spec = roofline_spec(**A100, points=POINTS)
    ridge = ridge_point(**A100)
    [label] = [text for text in texts(spec) if text.startswith("ridge")]
    assert label.endswith(" FLOP/B")
    assert float(label.split()[1]) == pytest.approx(ridge, rel=1e-3)
    rules = [ly for ly in spec["layer"] if ly["mark"]["type"] == "rule"]
    assert [row["arithmetic_intensity"] for row in rules[0]["data"]["values"]] == [pytest.approx(ridge)]


@pytest.mark.parametrize("axis", ["x", "y"])
def test_axes_tick_once_per_decade_over_whole_decades(axis: str) -> None:
    spec = roofline_spec(**A100, points=POINTS)
    encoding = spec["layer"][0]["encoding"][axis]
    ticks = encoding["axis"]["values"]
    exponents = [math.log10(t) for t in ticks]
    assert exponents == pytest.approx([round(e) for e in exponents])
    assert [round(b - a) for a, b in itertools.pairwise(exponents)] == [1] * (len(ticks) - 1)
    assert encoding["scale"]["domain"] == [ticks[0], ticks[-1]]


def test_axes_reach_past_every_point_and_the_roof() -> None:
    spec = roofline_spec(**A100, points=POINTS)
    x_lo, x_hi = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    y_lo, y_hi = spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    assert x_lo < 2.0 and x_hi > ridge_point(**A100)
    assert y_lo < 3.11e12 and y_hi > A100["peak_flops"]
    json.dumps(spec)  # plain data, no altair objects
