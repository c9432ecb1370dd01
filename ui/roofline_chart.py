"""A log-log roofline chart (altair): the measured roof, the datasheet roof, and measured points.

Used by the GPU checks page and reusable anywhere a roofline is drawn. The roofs are drawn with
``grader.estimator.ridge_point`` and ``attainable_flops``; in log-log space each roof is two
straight segments, so three points per roof draw it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import altair as alt
import pandas as pd

from grader.estimator import attainable_flops, ridge_point

_MARGIN = 4.0  # the x axis reaches this factor beyond the outermost point or ridge


def _roof_rows(
    *, name: str, peak_flops: float, mem_bandwidth: float, lo: float, hi: float
) -> list[dict[str, Any]]:
    ridge = ridge_point(peak_flops=peak_flops, mem_bandwidth=mem_bandwidth)
    xs = sorted({lo, min(max(ridge, lo), hi), hi})
    return [
        {
            "roof": name,
            "arithmetic_intensity": x,
            "flops_per_s": attainable_flops(
                arithmetic_intensity=x, peak_flops=peak_flops, mem_bandwidth=mem_bandwidth
            ),
        }
        for x in xs
    ]


def roofline_chart(
    *,
    peak_flops: float,
    mem_bandwidth: float,
    points: Sequence[Mapping[str, Any]],
    spec_peak_flops: float | None = None,
    spec_mem_bandwidth: float | None = None,
    roof_name: str = "measured roof",
) -> alt.LayerChart:
    """A log-log roofline: FLOP/s against arithmetic intensity (FLOP/B).

    ``peak_flops`` (FLOP/s) and ``mem_bandwidth`` (bytes/s) draw the measured roof (solid); the
    ``spec_*`` pair, when both are given, the datasheet roof (dashed). Each point is a mapping with
    ``label`` (series name, sets the colour), ``arithmetic_intensity`` (FLOP/B, > 0) and
    ``flops_per_s`` (achieved FLOP/s, > 0); an optional ``size`` (the swept size) shows in the
    tooltip, and other keys are ignored. Points with a missing or non-positive value are skipped.
    ``roof_name`` labels the solid roof: a page that draws datasheet figures only passes
    "datasheet roof" and no ``spec_*`` pair.
    """
    kept = [
        {
            "label": str(p["label"]),
            "arithmetic_intensity": float(ai),
            "flops_per_s": float(fl),
            "size": p.get("size"),
        }
        for p in points
        if (ai := p.get("arithmetic_intensity")) and (fl := p.get("flops_per_s")) and ai > 0 and fl > 0
    ]
    has_spec = bool(spec_peak_flops and spec_mem_bandwidth)
    ridges = [ridge_point(peak_flops=peak_flops, mem_bandwidth=mem_bandwidth)]
    if has_spec:
        ridges.append(ridge_point(peak_flops=spec_peak_flops, mem_bandwidth=spec_mem_bandwidth))
    xs = [p["arithmetic_intensity"] for p in kept] + ridges
    lo, hi = min(xs) / _MARGIN, max(xs) * _MARGIN
    roofs = _roof_rows(name=roof_name, peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, lo=lo, hi=hi)
    if has_spec:
        roofs += _roof_rows(
            name="datasheet roof",
            peak_flops=float(spec_peak_flops),
            mem_bandwidth=float(spec_mem_bandwidth),
            lo=lo,
            hi=hi,
        )
    roof_names = [roof_name, "datasheet roof"] if has_spec else [roof_name]
    points_data = pd.DataFrame(kept, columns=["label", "arithmetic_intensity", "flops_per_s", "size"])
    return _layered(roofs=roofs, roof_names=roof_names, points_data=points_data, point_title="Probe")


def _layered(
    *, roofs: list[dict[str, Any]], roof_names: list[str], points_data: Any, point_title: str
) -> alt.LayerChart:
    x = alt.X(
        "arithmetic_intensity:Q",
        scale=alt.Scale(type="log"),
        axis=alt.Axis(format="~g"),
        title="Arithmetic intensity (FLOP/B)",
    )
    y = alt.Y(
        "flops_per_s:Q", scale=alt.Scale(type="log"), axis=alt.Axis(format="~s"), title="Achieved FLOP/s"
    )
    roof_layer = (
        alt.Chart(pd.DataFrame(roofs))
        .mark_line()
        .encode(
            x=x,
            y=y,
            strokeDash=alt.StrokeDash(
                "roof:N",
                scale=alt.Scale(domain=roof_names, range=[[1, 0], [6, 4]][: len(roof_names)]),
                title="Roof",
            ),
            color=alt.value("#555555"),
        )
    )
    point_layer = (
        alt.Chart(points_data)
        .mark_point(filled=True, size=60)
        .encode(
            x=x,
            y=y,
            color=alt.Color("label:N", title=point_title),
            tooltip=[
                alt.Tooltip("label:N", title=point_title),
                alt.Tooltip("size:Q", title="Size"),
                alt.Tooltip("arithmetic_intensity:Q", title="FLOP/B", format=".3g"),
                alt.Tooltip("flops_per_s:Q", title="FLOP/s", format=".3s"),
            ],
        )
    )
    return alt.layer(roof_layer, point_layer).resolve_scale(color="independent")


#: Name of the dataset a :func:`roofline_spec` template reads its points from.
POINTS_DATASET = "points"


def roofline_spec(
    *, peak_flops: float, mem_bandwidth: float, lo: float, hi: float, roof_name: str = "datasheet roof"
) -> dict[str, Any]:
    """The Vega-Lite spec of a one-roof roofline over intensities ``lo``..``hi`` (FLOP/B), without points.

    Its points come from the dataset named :data:`POINTS_DATASET`; fill it with :func:`with_points`.
    Building and validating an altair chart costs tens of milliseconds, so a page that draws the
    same GPU again and again builds this template once (cache it) and only swaps the points in.
    """
    roofs = _roof_rows(name=roof_name, peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, lo=lo, hi=hi)
    points_data = alt.NamedData(name=POINTS_DATASET)
    chart = _layered(roofs=roofs, roof_names=[roof_name], points_data=points_data, point_title="Point")
    spec = chart.to_dict()
    # Inline the hoisted datasets: Streamlit turns top-level datasets into Arrow tables on every
    # draw, while inline values pass through as JSON.
    datasets = spec.pop("datasets", {})
    for layer in spec["layer"]:
        name = layer.get("data", {}).get("name")
        if name in datasets:
            layer["data"] = {"values": datasets[name]}
    return spec


def with_points(spec: dict[str, Any], points: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A copy of a :func:`roofline_spec` template whose points are ``points`` (same fields as above)."""
    named = {"name": POINTS_DATASET}
    rows = [
        {
            "label": str(p["label"]),
            "arithmetic_intensity": float(p["arithmetic_intensity"]),
            "flops_per_s": float(p["flops_per_s"]),
            "size": p.get("size"),
        }
        for p in points
    ]
    filled = {"values": rows}
    layers = [{**ly, "data": filled} if ly.get("data") == named else ly for ly in spec["layer"]]
    return {**spec, "layer": layers}
