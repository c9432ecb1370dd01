"""Where a timing curve turns from flat to rising: the knee of a roofline in time.

Both the overhead sweep (time against bytes) and the decode sweep (time against batch) follow
t(x) ≈ max(floor, slope · x): a flat floor (per-op overhead, or reading the weights once) then a
line through the origin (bandwidth, or compute). :func:`fit_knee` fits that two-asymptote model
by least squares in log-log space and reports the knee as the asymptotes' crossing,
x = floor / slope. A smooth curve such as floor + slope · x has the same asymptotes, so the fit
returns the same knee for it. When no point rises above ``min_rise`` times the floor, there is
no knee within the sweep and ``knee`` is None. A crossing below the smallest x swept is not a
measurement either (the sweep never saw the flat part): ``knee`` is None and ``below_range`` True.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gpu_checks.record import Record

#: The last point must exceed the floor by this factor before a knee is claimed.
MIN_RISE = 1.5


@dataclass(frozen=True)
class KneeFit(Record):
    """The fitted asymptotes: ``floor`` (units of y), ``slope`` (y per unit of x) and their crossing.

    ``n_flat`` is how many of the sorted points the fit put on the floor; ``knee`` is None when
    the curve never clearly rose (then ``slope`` is None too) or when the asymptotes cross below
    the smallest x swept (then ``below_range`` is True and ``slope`` is kept).
    """

    floor: float
    slope: float | None
    knee: float | None
    n_flat: int
    below_range: bool = False


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _log_sse(xs: Sequence[float], ys: Sequence[float], floor: float, slope: float | None) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        model = floor if slope is None else max(floor, slope * x)
        total += (math.log(y) - math.log(model)) ** 2
    return total


def fit_knee(*, xs: Sequence[float], ys: Sequence[float], min_rise: float = MIN_RISE) -> KneeFit:
    """Fit t = max(floor, slope · x) to positive points; see the module docstring.

    Each split of the sorted points into a flat head (at least one point) and a rising tail is
    tried: the floor is the head's geometric mean, the slope the tail's geometric mean of y / x;
    the split with the least squared log error wins. Raises ``ValueError`` on fewer than two
    points, mismatched lengths or non-positive values.
    """
    if len(xs) != len(ys):
        raise ValueError("xs and ys must have the same length")
    if len(xs) < 2:
        raise ValueError("a knee needs at least two points")
    if min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("a log-log fit needs positive x and y")
    pairs = sorted(zip(xs, ys, strict=True))
    sx = [float(x) for x, _ in pairs]
    sy = [float(y) for _, y in pairs]
    best = KneeFit(floor=_geomean(sy), slope=None, knee=None, n_flat=len(sy))
    best_sse = _log_sse(sx, sy, best.floor, None)
    for n_flat in range(1, len(sx)):
        floor = _geomean(sy[:n_flat])
        slope = _geomean([y / x for x, y in zip(sx[n_flat:], sy[n_flat:], strict=True)])
        sse = _log_sse(sx, sy, floor, slope)
        if sse < best_sse:
            best, best_sse = KneeFit(floor=floor, slope=slope, knee=floor / slope, n_flat=n_flat), sse
    if best.slope is not None and sy[-1] < min_rise * best.floor:
        # A tail that never clearly rises is noise on the floor, not a second regime.
        floor = _geomean(sy)
        return KneeFit(floor=floor, slope=None, knee=None, n_flat=len(sy))
    if best.knee is not None and best.knee < sx[0]:
        # Rising from the first point on: where it would have been flat was never measured.
        return KneeFit(floor=best.floor, slope=best.slope, knee=None, n_flat=0, below_range=True)
    return best
