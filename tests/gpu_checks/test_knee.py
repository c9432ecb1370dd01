"""Knee detection on synthetic timings: the crossing of the flat and rising asymptotes."""

from __future__ import annotations

import math
import random

import pytest

from gpu_checks.knee import fit_knee

BATCHES = [2**k for k in range(11)]  # 1 .. 1024


@pytest.mark.parametrize("knee", [3.0, 40.0, 96.0, 300.0])
def test_roofline_shaped_timings_give_the_exact_knee(knee: float) -> None:
    floor = 0.02
    times = [max(floor, floor * b / knee) for b in BATCHES]
    fit = fit_knee(xs=BATCHES, ys=times)
    assert fit.knee == pytest.approx(knee, rel=1e-9)
    assert fit.floor == pytest.approx(floor)


def test_additive_timings_give_a_knee_near_the_asymptotes_crossing() -> None:
    # t = floor + slope·x has asymptotes crossing at floor / slope = 64.
    times = [1.0 + b / 64 for b in BATCHES]
    fit = fit_knee(xs=BATCHES, ys=times)
    assert fit.knee is not None
    assert 64 / 1.5 < fit.knee < 64 * 1.5


def test_noise_of_a_few_percent_moves_the_knee_little() -> None:
    rng = random.Random(7)
    times = [max(1.0, b / 50) * (1 + rng.uniform(-0.05, 0.05)) for b in BATCHES]
    fit = fit_knee(xs=BATCHES, ys=times)
    assert fit.knee is not None
    assert 50 / 1.3 < fit.knee < 50 * 1.3


def test_a_flat_curve_has_no_knee() -> None:
    times = [1.0, 1.04, 0.98, 1.1, 1.02, 0.97, 1.2]
    fit = fit_knee(xs=BATCHES[: len(times)], ys=times)
    assert fit.knee is None
    assert fit.slope is None
    assert fit.floor == pytest.approx(math.exp(sum(math.log(t) for t in times) / len(times)))


def test_points_are_sorted_before_fitting() -> None:
    pairs = [(b, max(1.0, b / 8)) for b in BATCHES]
    random.Random(1).shuffle(pairs)
    fit = fit_knee(xs=[x for x, _ in pairs], ys=[y for _, y in pairs])
    assert fit.knee == pytest.approx(8.0)


@pytest.mark.parametrize(
    ("xs", "ys"),
    [([1.0], [1.0]), ([1.0, 2.0], [1.0]), ([0.0, 2.0], [1.0, 1.0]), ([1.0, 2.0], [1.0, -1.0])],
)
def test_bad_input_is_refused(xs: list[float], ys: list[float]) -> None:
    with pytest.raises(ValueError):
        fit_knee(xs=xs, ys=ys)


@pytest.mark.parametrize("knee", [0.34, 0.9])
def test_a_knee_below_the_smallest_batch_is_reported_as_below_the_range(knee: float) -> None:
    # Every batch swept is already on the rising asymptote: the crossing lies below batch 1.
    times = [max(0.02, 0.02 * b / knee) for b in BATCHES]
    times[0] *= 0.97  # a first point a little under the line, as noise makes it
    fit = fit_knee(xs=BATCHES, ys=times)
    assert fit.knee is None
    assert fit.below_range
    assert fit.slope is not None


def test_a_knee_inside_the_range_is_not_below_it() -> None:
    fit = fit_knee(xs=BATCHES, ys=[max(1.0, b / 8) for b in BATCHES])
    assert not fit.below_range
