"""A log-log roofline chart (altair): the measured roof, the datasheet roof, and measured points.

Used by the GPU checks page and reusable anywhere a roofline is drawn. The roofs are drawn with
``grader.estimator.ridge_point`` and ``attainable_flops``; in log-log space each roof is two
straight segments, so three points per roof draw it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import altair as alt
import pandas as pd

from grader.estimator import ridge_point
from ui.roofline_svg import roof_rows

_MARGIN = 4.0  # the x axis reaches this factor beyond the outermost point or ridge


class _Point(TypedDict):
    """One measured point as drawn: its series, where it sits, and the swept size for the tooltip."""

    label: str
    arithmetic_intensity: float
    flops_per_s: float
    size: Any


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
    kept: list[_Point] = [
        {
            "label": str(p["label"]),
            "arithmetic_intensity": float(ai),
            "flops_per_s": float(fl),
            "size": p.get("size"),
        }
        for p in points
        if (ai := p.get("arithmetic_intensity")) and (fl := p.get("flops_per_s")) and ai > 0 and fl > 0
    ]
    # The datasheet roof, drawn when both of its figures are given (and non-zero).
    spec = (spec_peak_flops, spec_mem_bandwidth) if spec_peak_flops and spec_mem_bandwidth else None
    has_spec = spec is not None
    ridges = [ridge_point(peak_flops=peak_flops, mem_bandwidth=mem_bandwidth)]
    if spec is not None:
        ridges.append(ridge_point(peak_flops=spec[0], mem_bandwidth=spec[1]))
    xs = [p["arithmetic_intensity"] for p in kept] + ridges
    lo, hi = min(xs) / _MARGIN, max(xs) * _MARGIN
    roofs = roof_rows(name=roof_name, peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, lo=lo, hi=hi)
    if spec is not None:
        roofs += roof_rows(
            name="datasheet roof",
            peak_flops=float(spec[0]),
            mem_bandwidth=float(spec[1]),
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
