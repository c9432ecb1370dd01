"""The practice page's roofline as a Vega-Lite dict: one roof, its ridge marked, labelled points, no legend.

Written as a dict, not through altair: the feedback under an answer draws it on every rerun, and an
altair build validates the whole spec each time. The roof is drawn with ``grader.estimator``'s
``ridge_point`` and ``attainable_flops``; in log-log space it is two straight segments, so three rows
draw it exactly. Points are labelled where they sit (a legend squeezes the plot on a phone and cuts
long names), and both axes tick once per decade.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from grader.estimator import attainable_flops, ridge_point
from grader.units import format_quantity
from ui import vega

#: Height of the plot area in pixels: enough for the roof's slope to read at phone width.
HEIGHT_PX = 300
# The axes reach this factor beyond the outermost point or ridge before rounding out to a decade.
_MARGIN = 3.0
_INK = "#555555"


class Role(StrEnum):
    """Whose point it is: sets its colour and shape, so that no legend is needed."""

    PROBLEM = "problem"
    ANSWER = "answer"
    REFERENCE = "reference"


_STYLE = {  # role → (colour, shape)
    Role.PROBLEM: (vega.BLUE, "circle"),
    Role.ANSWER: (vega.ORANGE, "diamond"),
    Role.REFERENCE: (vega.GREEN, "square"),
}


def roof_rows(
    *, name: str, peak_flops: float, mem_bandwidth: float, lo: float, hi: float
) -> list[dict[str, Any]]:
    """Rows (``roof``, ``arithmetic_intensity``, ``flops_per_s``) that draw a roof from ``lo`` to ``hi``."""
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


def _placed(
    points: Sequence[Mapping[str, Any]], *, ridge: float, lo_decade: int, hi_decade: int
) -> list[dict[str, Any]]:
    """Point rows with where their label goes, so that no label crosses the roof.

    Under the slope, below and to the right of a point is empty: labels go there. On the flat part
    they go above the roof, toward the middle of the plot. Neighbours alternate between two rows.
    """
    ordered = sorted(points, key=lambda p: float(p["arithmetic_intensity"]))
    middle = 10 ** ((lo_decade + hi_decade) / 2)
    rows: list[dict[str, Any]] = []
    for p in ordered:
        x = float(p["arithmetic_intensity"])
        above = x >= ridge * (1 - 1e-9)
        rows.append(
            {
                "label": str(p["label"]),
                "role": str(p.get("role", Role.PROBLEM)),
                "arithmetic_intensity": x,
                "flops_per_s": float(p["flops_per_s"]),
                "place": ("above" if above else "below") + ("-left" if above and x > middle else "-right"),
                "row": sum(r["place"].startswith("above") == above for r in rows) % 2,
            }
        )
    return rows


def _label_layer(
    rows: list[dict[str, Any]], *, place: str, row: int, colour: dict[str, Any]
) -> dict[str, Any]:
    above, leftward = place.startswith("above"), place.endswith("left")
    step = 8 + 16 * row
    return {
        "data": {"values": [r for r in rows if r["place"] == place and r["row"] == row]},
        "mark": {
            "type": "text",
            "align": "right" if leftward else "left",
            "baseline": "bottom" if above else "top",
            "dx": -6 if leftward else 8,
            "dy": -step if above else step,
            "fontSize": 12,
            "fontWeight": "bold",
        },
        "encoding": {"text": {"field": "label"}, "color": colour},
    }


def roofline_spec(
    *,
    peak_flops: float,
    mem_bandwidth: float,
    points: Sequence[Mapping[str, Any]],
    roof_name: str = "datasheet roof",
) -> dict[str, Any]:
    """A log-log roofline of one accelerator with ``points`` labelled on it.

    ``peak_flops`` in FLOP/s and ``mem_bandwidth`` in bytes/s draw the roof. Each point has ``label``
    (drawn beside it), ``arithmetic_intensity`` (FLOP/B, > 0), ``flops_per_s`` (FLOP/s, > 0) and an
    optional ``role`` (a :class:`Role`, the problem's by default). The ridge is marked and labelled
    with its intensity; both axes run over whole decades with one tick each.
    """
    ridge = ridge_point(peak_flops=peak_flops, mem_bandwidth=mem_bandwidth)
    xs = [float(p["arithmetic_intensity"]) for p in points] + [ridge]
    x_lo, x_hi = vega.decades(lo=min(xs) / _MARGIN, hi=max(xs) * _MARGIN)
    low_flops = attainable_flops(
        arithmetic_intensity=10.0**x_lo, peak_flops=peak_flops, mem_bandwidth=mem_bandwidth
    )
    y_lo, y_hi = vega.decades(
        lo=min([low_flops, *(float(p["flops_per_s"]) for p in points)]), hi=peak_flops * 3
    )
    x = vega.log_axis_field(
        "arithmetic_intensity",
        title="Arithmetic intensity (FLOP/B)",
        lo_decade=x_lo,
        hi_decade=x_hi,
        label_format="~g",
    )
    y = vega.log_axis_field("flops_per_s", title="FLOP/s", lo_decade=y_lo, hi_decade=y_hi, label_format="~s")
    roles = list(_STYLE)
    colour = {
        "field": "role",
        "type": "nominal",
        "scale": {"domain": roles, "range": [_STYLE[r][0] for r in roles]},
        "legend": None,
    }
    shape = {**colour, "scale": {"domain": roles, "range": [_STYLE[r][1] for r in roles]}}
    rows = _placed(points, ridge=ridge, lo_decade=x_lo, hi_decade=x_hi)
    ridge_leftward = ridge > 10 ** ((x_lo + x_hi) / 2)
    ridge_row = {
        "arithmetic_intensity": ridge,
        "flops_per_s": peak_flops,
        "floor": 10.0**y_lo,
        "text": f"ridge {format_quantity(ridge, 'FLOP/B')}",
    }
    layers: list[dict[str, Any]] = [
        {
            "data": {
                "values": roof_rows(
                    name=roof_name,
                    peak_flops=peak_flops,
                    mem_bandwidth=mem_bandwidth,
                    lo=10.0**x_lo,
                    hi=10.0**x_hi,
                )
            },
            "mark": {"type": "line", "color": _INK, "strokeWidth": 2, "clip": True},
            "encoding": {"x": x, "y": y},
        },
        {  # the ridge: a dashed drop from the bend to the axis, labelled at its foot
            "data": {"values": [ridge_row]},
            "mark": {"type": "rule", "color": _INK, "strokeDash": [4, 4]},
            "encoding": {"x": x, "y": {**y, "field": "floor"}, "y2": {"field": "flops_per_s"}},
        },
        {
            "data": {"values": [ridge_row]},
            "mark": {
                "type": "text",
                "align": "right" if ridge_leftward else "left",
                "baseline": "bottom",
                "dx": -5 if ridge_leftward else 5,
                "dy": -4,
                "color": _INK,
            },
            "encoding": {"x": x, "y": {**y, "field": "floor"}, "text": {"field": "text"}},
        },
        {
            "data": {"values": rows},
            "mark": {"type": "point", "filled": True, "size": 110, "opacity": 1},
            "encoding": {
                "x": x,
                "y": y,
                "color": colour,
                "shape": shape,
                "tooltip": [
                    {"field": "label", "title": "Point"},
                    {
                        "field": "arithmetic_intensity",
                        "type": "quantitative",
                        "title": "FLOP/B",
                        "format": ".3~g",
                    },
                    {"field": "flops_per_s", "type": "quantitative", "title": "FLOP/s", "format": ".3~s"},
                ],
            },
        },
    ]
    for place in ("above-left", "above-right", "below-right"):
        for row in (0, 1):
            label = _label_layer(rows, place=place, row=row, colour=colour)
            if label["data"]["values"]:
                layers.append({**label, "encoding": {**label["encoding"], "x": x, "y": y}})
    return vega.chart(layers, height=HEIGHT_PX, config={"axis": {"labelFontSize": 12, "titleFontSize": 12}})
