"""The practice page's roofline as an SVG picture: one roof, its ridge marked, labelled points, no legend.

Drawn here and shown as an image because it sits in the feedback after every answer: a chart library
in the browser compiles and lays out a chart before it draws (on a slow machine most of the time
between Enter and the finished feedback, and the first chart of a session loads the library too),
while an image is on screen as soon as it arrives. The picture has nothing to hover: every point is
labelled where it sits, and the page writes the exact figures under it.

The roof is drawn with ``grader.estimator``'s ``ridge_point`` and ``attainable_flops``; in log-log
space it is two straight segments, so three rows draw it exactly. Both axes run over whole decades
with one tick each.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from grader.estimator import attainable_flops, ridge_point
from grader.units import format_quantity
from ui import vega

#: The picture's size in CSS pixels at its natural size; on a narrower screen it scales down.
WIDTH, HEIGHT = 560, 340
# The plot area inside the picture: room on the left for "100T", below for the ticks and the title.
_LEFT, _RIGHT, _TOP, _BOTTOM = 66.0, WIDTH - 14.0, 16.0, HEIGHT - 46.0
# The axes reach this factor beyond the outermost point or ridge before rounding out to a decade.
_MARGIN = 3.0
_INK, _GRID, _AXIS = "#555555", "#e3e3e3", "#8c8c8c"
_FONT = 12
# Scaled down to a phone (the picture's own width under 420 px), text is drawn larger in picture
# units so that it still reads at about 10–11 px; tick labels a little smaller, to stay apart.
_PHONE_FONT, _PHONE_TICK_FONT = 17, 15
_STYLE = (
    "text{font-family:'Source Sans Pro','Source Sans 3',Arial,sans-serif;font-size:12px;fill:#555555}"
    ".label{font-weight:bold}"
    f"@media (max-width:420px){{text{{font-size:{_PHONE_FONT}px}}.tick{{font-size:{_PHONE_TICK_FONT}px}}}}"
)
# Roughly how wide a bold character is at the larger (phone) size, to keep labels inside the picture.
_CHAR_WIDTH = 0.62 * _PHONE_FONT


class Role(StrEnum):
    """Whose point it is: sets its colour and shape, so that no legend is needed."""

    PROBLEM = "problem"
    ANSWER = "answer"
    REFERENCE = "reference"


#: role → (colour, shape)
MARKS = {
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


@dataclass(frozen=True)
class Placed:
    """A point with where its label goes: ``above`` or below it, to its left or right, on row 0 or 1."""

    label: str
    role: Role
    arithmetic_intensity: float
    flops_per_s: float
    above: bool
    leftward: bool
    row: int


def placed_points(
    points: Sequence[Mapping[str, Any]], *, ridge: float, lo_decade: int, hi_decade: int
) -> list[Placed]:
    """The points in order of intensity, each with its label's place, so that no label crosses the roof.

    Under the slope, below and to the right of a point is empty: labels go there. On the flat part
    they go above the roof, toward the middle of the plot. Neighbours alternate between two rows.
    """
    ordered = sorted(points, key=lambda p: float(p["arithmetic_intensity"]))
    middle = 10 ** ((lo_decade + hi_decade) / 2)
    rows: list[Placed] = []
    for p in ordered:
        x = float(p["arithmetic_intensity"])
        above = x >= ridge * (1 - 1e-9)
        rows.append(
            Placed(
                label=str(p["label"]),
                role=Role(p.get("role", Role.PROBLEM)),
                arithmetic_intensity=x,
                flops_per_s=float(p["flops_per_s"]),
                above=above,
                leftward=above and x > middle,
                row=sum(r.above == above for r in rows) % 2,
            )
        )
    return rows


def _scale(lo_decade: int, hi_decade: int, start: float, end: float) -> Callable[[float], float]:
    """Position of a value on a log axis running over whole decades from ``start`` to ``end``."""
    span = hi_decade - lo_decade
    return lambda value: start + (math.log10(value) - lo_decade) / span * (end - start)


def _si(exponent: int) -> str:
    """A power of ten with an SI prefix, as a FLOP/s axis reads: 12 → ``1T``, 14 → ``100T``."""
    prefixes = {0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
    group = 3 * (exponent // 3)
    if group not in prefixes:
        return f"1e{exponent}"
    return f"{10 ** (exponent - group)}{prefixes[group]}"


def _plain(exponent: int) -> str:
    """A power of ten as a plain number where that stays short: 0.01, 1, 1000; else ``1e6``."""
    return f"{10.0**exponent:g}" if -3 <= exponent <= 5 else f"1e{exponent}"


def _text(x: float, y: float, content: str, *, anchor: str = "start", cls: str = "", **attrs: str) -> str:
    extra = "".join(f" {name.replace('_', '-')}={quoteattr(value)}" for name, value in attrs.items())
    klass = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}{extra}>{escape(content)}</text>'


def _mark(x: float, y: float, role: Role) -> str:
    colour, shape = MARKS[role]
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{colour}"/>'
    if shape == "square":
        return f'<rect x="{x - 5.5:.1f}" y="{y - 5.5:.1f}" width="11" height="11" fill="{colour}"/>'
    corners = ((x, y - 7.5), (x + 7.5, y), (x, y + 7.5), (x - 7.5, y))
    return f'<polygon points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in corners)}" fill="{colour}"/>'


@dataclass(frozen=True)
class Box:
    """Where a text sits in picture units: its left, top, right and bottom edges."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box, *, gap: float = 1.0) -> bool:
        """Whether the two boxes come closer than ``gap`` (the picture rounds positions to 0.1)."""
        return not (
            self.right + gap <= other.left
            or other.right + gap <= self.left
            or self.bottom + gap <= other.top
            or other.bottom + gap <= self.top
        )


def text_box(left: float, baseline: float, content: str) -> Box:
    """The box a label takes at its larger (phone) size, which holds its desktop size too: both start
    at ``left`` on the same baseline."""
    right = left + _CHAR_WIDTH * len(content)
    return Box(left, baseline - 0.8 * _PHONE_FONT, right, baseline + 0.25 * _PHONE_FONT)


_PLOT = Box(_LEFT, _TOP, _RIGHT, _BOTTOM)
# Rows a label may move to, away from its point, before it gives up on keeping clear of the others.
_ROWS = 6
_ROW_STEP = 0.8 * _PHONE_FONT + 0.25 * _PHONE_FONT + 2


def _label_place(point: Placed, x: float, y: float, taken: Sequence[Box]) -> tuple[float, float]:
    """Where the point's name goes (left edge, baseline): beside it on its side of the roof, the nearest
    row and side that keeps the name inside the plot and clear of every name and mark already drawn
    (the boxes in ``taken``)."""
    width = _CHAR_WIDTH * len(point.label)
    sides = [x - 8 - width, x + 8] if point.leftward else [x + 8, x - 8 - width]
    first: tuple[float, float] | None = None
    # Its own side (under the slope: below and to the right, where nothing is drawn) row by row first,
    # then the other side of the point, then the other side of the roof.
    rows = range(point.row, point.row + _ROWS)
    roof_sides = (point.above, not point.above)
    places = [(above, side, row) for above in roof_sides for side in sides for row in rows]
    for above, side, row in places:
        step = 8 + _ROW_STEP * row
        baseline = y - step - 2 if above else y + step + 0.8 * _PHONE_FONT
        left = min(max(side, _LEFT + 2), _RIGHT - 2 - width)
        box = text_box(left, baseline, point.label)
        inside = box.top >= _PLOT.top and box.bottom <= _PLOT.bottom + 0.25 * _PHONE_FONT
        if first is None:
            first = (left, baseline)
        if inside and not any(box.overlaps(other) for other in taken):
            return left, baseline
    assert first is not None
    return first


def _anchored(left: float, content: str, *, x: float) -> tuple[float, str]:
    """Where to anchor a text placed by its phone-size box at ``left``: a text left of ``x`` ends where
    its box ends, so that at the smaller desktop size it still sits beside the point or line."""
    right = left + _CHAR_WIDTH * len(content)
    return (right, "end") if right <= x else (left, "start")


def _label(point: Placed, left: float, baseline: float, *, x: float) -> str:
    """The point's name at its place, in the point's colour."""
    at, anchor = _anchored(left, point.label, x=x)
    return _text(at, baseline, point.label, anchor=anchor, cls="label", style=f"fill:{MARKS[point.role][0]}")


def _mark_box(x: float, y: float) -> Box:
    return Box(x - 8, y - 8, x + 8, y + 8)


def roofline_svg(
    *,
    peak_flops: float,
    mem_bandwidth: float,
    points: Sequence[Mapping[str, Any]],
    title: str = "Roofline",
) -> str:
    """A log-log roofline of one accelerator with ``points`` labelled on it, as an SVG document.

    ``peak_flops`` in FLOP/s and ``mem_bandwidth`` in bytes/s draw the roof. Each point has ``label``
    (drawn beside it), ``arithmetic_intensity`` (FLOP/B, > 0), ``flops_per_s`` (FLOP/s, > 0) and an
    optional ``role`` (a :class:`Role`, the problem's by default). The ridge is marked and labelled
    with its intensity; both axes run over whole decades with one tick each. ``title`` is the
    picture's accessible name.
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
    sx = _scale(x_lo, x_hi, _LEFT, _RIGHT)
    sy = _scale(y_lo, y_hi, _BOTTOM, _TOP)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        f'<clipPath id="plot"><rect x="{_LEFT}" y="{_TOP}" width="{_RIGHT - _LEFT}" '
        f'height="{_BOTTOM - _TOP}"/></clipPath>',
    ]
    # Grid and ticks: one per decade on each axis; the end labels sit flush with the plot's edges.
    x_decades = range(x_lo, x_hi + 1)
    for k in x_decades:
        x = sx(10.0**k)
        anchor = "start" if k == x_lo else "end" if k == x_hi else "middle"
        parts.append(f'<line x1="{x:.1f}" y1="{_TOP}" x2="{x:.1f}" y2="{_BOTTOM}" stroke="{_GRID}"/>')
        parts.append(_text(x, _BOTTOM + 16, _plain(k), anchor=anchor, cls="tick"))
    for k in range(y_lo, y_hi + 1):
        y = sy(10.0**k)
        parts.append(f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_RIGHT}" y2="{y:.1f}" stroke="{_GRID}"/>')
        parts.append(_text(_LEFT - 6, y + 4, _si(k), anchor="end", cls="tick"))
    parts.append(f'<path d="M{_LEFT},{_TOP} V{_BOTTOM} H{_RIGHT}" fill="none" stroke="{_AXIS}"/>')
    parts.append(_text((_LEFT + _RIGHT) / 2, HEIGHT - 6, "Arithmetic intensity (FLOP/B)", anchor="middle"))
    turned = f"translate(14 {(_TOP + _BOTTOM) / 2:.1f}) rotate(-90)"
    parts.append(_text(0, 0, "FLOP/s", anchor="middle", transform=turned))
    # The roof, clipped to the plot, and the ridge: a dashed drop from the bend to the axis, labelled.
    roof = roof_rows(
        name="roof", peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, lo=10.0**x_lo, hi=10.0**x_hi
    )
    path = " ".join(f"{sx(r['arithmetic_intensity']):.1f},{sy(r['flops_per_s']):.1f}" for r in roof)
    parts.append(
        f'<polyline points="{path}" fill="none" stroke="{_INK}" stroke-width="2" clip-path="url(#plot)"/>'
    )
    rx, ry = sx(ridge), sy(peak_flops)
    parts.append(
        f'<line x1="{rx:.1f}" y1="{_BOTTOM}" x2="{rx:.1f}" y2="{ry:.1f}" stroke="{_INK}" '
        'stroke-dasharray="4 4"/>'
    )
    # The ridge's label beside its line, kept inside the plot (never across the FLOP/s axis).
    ridge_text = f"ridge {format_quantity(ridge, 'FLOP/B')}"
    ridge_width = _CHAR_WIDTH * len(ridge_text)
    ridge_leftward = ridge > 10 ** ((x_lo + x_hi) / 2)
    ridge_left = rx - 5 - ridge_width if ridge_leftward else rx + 5
    ridge_left = min(max(ridge_left, _LEFT + 2), _RIGHT - 2 - ridge_width)
    ridge_at, ridge_anchor = _anchored(ridge_left, ridge_text, x=rx)
    parts.append(_text(ridge_at, _BOTTOM - 5, ridge_text, anchor=ridge_anchor, cls="ridge"))
    placed = placed_points(points, ridge=ridge, lo_decade=x_lo, hi_decade=x_hi)
    at = [(point, sx(point.arithmetic_intensity), sy(point.flops_per_s)) for point in placed]
    taken = [text_box(ridge_left, _BOTTOM - 5, ridge_text), *(_mark_box(x, y) for _, x, y in at)]
    for point, x, y in at:
        parts.append(_mark(x, y, point.role))
    for point, x, y in at:
        left, baseline = _label_place(point, x, y, taken)
        taken.append(text_box(left, baseline, point.label))
        parts.append(_label(point, left, baseline, x=x))
    parts.append("</svg>")
    return "".join(parts)


def svg_data_uri(svg: str) -> str:
    """The SVG document as a ``data:`` address, for a Markdown image."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
