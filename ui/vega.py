"""Small builders of Vega-Lite spec dicts, written directly rather than through altair.

Building an altair chart validates it against the whole Vega-Lite schema (tens of milliseconds),
on every rerun that draws it; a page that only fills a fixed layout with a few rows writes the dict
itself. These helpers keep the repeated parts of those dicts in one place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

#: Colours that stay apart for colour-blind readers and in greyscale (Tableau 10, first four).
BLUE, ORANGE, RED, GREEN = "#4c78a8", "#f58518", "#e45756", "#54a24b"
GREY = "#9e9e9e"


def decades(*, lo: float, hi: float) -> tuple[int, int]:
    """The whole powers of ten around ``lo``..``hi`` (both > 0): ``lo`` rounded down, ``hi`` up."""
    return math.floor(math.log10(lo)), math.ceil(math.log10(hi))


def decade_values(*, lo_decade: int, hi_decade: int) -> list[float]:
    """Every power of ten from ``10**lo_decade`` to ``10**hi_decade``: one tick per decade on a log axis."""
    return [10.0**k for k in range(lo_decade, hi_decade + 1)]


def log_axis_field(
    field: str, *, title: str, lo_decade: int, hi_decade: int, label_format: str
) -> dict[str, Any]:
    """A quantitative log-scale encoding over whole decades, ticked and gridded once per decade."""
    return {
        "field": field,
        "type": "quantitative",
        "title": title,
        "scale": {"type": "log", "domain": [10.0**lo_decade, 10.0**hi_decade], "nice": False},
        "axis": {
            "values": decade_values(lo_decade=lo_decade, hi_decade=hi_decade),
            "format": label_format,
            "labelFlush": True,
        },
    }


def chart(layers: Sequence[Mapping[str, Any]], *, height: int, **top: Any) -> dict[str, Any]:
    """A layered spec as wide as its container; ``top`` adds top-level keys (``encoding``, ``config``)."""
    return {
        "width": "container",
        "height": height,
        "layer": [dict(layer) for layer in layers],
        **top,
    }
