"""STREAM's timing on a synthetic clock: best repetition, block sizing, the plateau, the load meter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gpu_checks.load import CpuMeter
from gpu_checks.results import Sample
from gpu_checks.stream import MAX_OVERHEAD_SHARE, best_of, find_plateau, per_call_cost

LLC = 32 * 2**20
CACHE_BPS, MEMORY_BPS = 200e9, 20e9


class Clock:
    """Seconds that only move when a synthetic call spends them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def triad(
    clock: Clock, n: int, *, cost_s: float, slow: Callable[[float], float] = lambda now: 1.0
) -> Callable[[], None]:
    """A synthetic triad over n float32 elements: a fixed cost, then its bytes at cache or memory speed.

    ``slow(now)`` scales the data part (other work on the machine: 2.0 halves the bandwidth).
    """
    moved = 12 * n

    def call() -> None:
        speed = CACHE_BPS if moved < LLC else MEMORY_BPS
        clock.now += cost_s + moved / speed * slow(clock.now)

    return call


def sweep(clock: Clock, *, cost_s: float, slow: Callable[[float], float] = lambda now: 1.0) -> list[Sample]:
    samples = []
    for n in sorted((8192 * 4**k for k in range(9)), reverse=True):  # largest first, as the probe sweeps
        timing = best_of(triad(clock, n, cost_s=cost_s, slow=slow), clock=clock, min_block_s=0.05)
        samples.append(
            Sample(
                label="triad",
                size=n,
                bytes_moved=12 * n,
                flops=2 * n,
                working_set_bytes=12 * n,
                timing=timing,
            )
        )
    return samples


def test_the_plateau_is_memory_not_the_faster_cache() -> None:
    clock = Clock()
    cost = per_call_cost(triad(clock, 8, cost_s=5e-6), clock=clock, min_block_s=0.05)
    assert cost == pytest.approx(5e-6, rel=1e-3)
    plateau = find_plateau(sweep(clock, cost_s=cost), label="triad", min_bytes=2 * LLC, per_call_cost_s=cost)
    assert plateau.beyond_cache
    assert plateau.bytes_per_s == pytest.approx(MEMORY_BPS, rel=0.01)
    assert min(plateau.sizes) * 12 >= 2 * LLC


def test_the_best_repetition_recovers_the_figure_when_other_work_slows_most_blocks() -> None:
    clock = Clock()
    # Another program takes the memory two thirds of the time, in 0.2 s stretches.
    busy = lambda now: 3.0 if int(now / 0.2) % 3 else 1.0  # noqa: E731
    samples = sweep(clock, cost_s=5e-6, slow=busy)
    plateau = find_plateau(samples, label="triad", min_bytes=2 * LLC, per_call_cost_s=5e-6)
    assert plateau.bytes_per_s == pytest.approx(MEMORY_BPS, rel=0.01)
    largest = max(samples, key=lambda s: s.size)
    assert largest.bytes_per_s < 0.8 * MEMORY_BPS  # the median alone would have taught a slower memory
    assert largest.timing.noisy


def test_blocks_are_long_enough_that_clock_and_sync_are_a_small_part() -> None:
    clock = Clock()
    timing = best_of(triad(clock, 8192, cost_s=5e-6), clock=clock, min_block_s=0.05)
    one_call = 5e-6 + 12 * 8192 / CACHE_BPS
    assert timing.number_per_block * one_call >= 0.05
    assert len(timing.times_s) == 10  # STREAM's ten repetitions


def test_a_sample_whose_per_call_cost_is_over_5_percent_is_not_the_plateau() -> None:
    clock = Clock()
    # A busy core: every call waits 8 ms for a worker thread, whatever its size.
    samples = sweep(clock, cost_s=8e-3)
    plateau = find_plateau(samples, label="triad", min_bytes=2 * LLC, per_call_cost_s=8e-3)
    kept = [s for s in samples if s.size in plateau.sizes]
    assert kept and all(MAX_OVERHEAD_SHARE * s.timing.best_s >= 8e-3 for s in kept)
    assert len(kept) < len([s for s in samples if s.working_set_bytes >= 2 * LLC])  # 1.6 GB was too short
    assert plateau.beyond_cache
    assert plateau.bytes_per_s == pytest.approx(MEMORY_BPS, rel=MAX_OVERHEAD_SHARE)
    small = find_plateau(samples, label="triad", min_bytes=2 * LLC, per_call_cost_s=1.0)
    assert not small.beyond_cache  # nothing long enough beside that cost: the largest stands in, doubted


def test_a_time_limit_keeps_at_least_three_repetitions() -> None:
    clock = Clock()
    timing = best_of(triad(clock, 2**26, cost_s=0.0), clock=clock, min_block_s=0.0, max_s=0.0)
    assert len(timing.times_s) == 3


def test_the_meter_counts_other_programs_not_this_one(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    wall, own = [0.0], [0.0]
    meter = CpuMeter(stat_path=stat, clock=lambda: wall[0], own_cpu=lambda: own[0])
    tick = meter._tick
    stat.write_text(f"cpu  {100 * tick} 0 0 {500 * tick} 0 0 0 0 0 0\n", encoding="ascii")
    meter.start()
    # 2 s later: 3 CPU-seconds busy in all, 1 of them this process's own.
    stat.write_text(f"cpu  {103 * tick} 0 0 {501 * tick} 0 0 0 0 0 0\n", encoding="ascii")
    wall[0], own[0] = 2.0, 1.0
    assert meter.stop() == pytest.approx(1.0)


def test_without_proc_stat_the_meter_says_nothing(tmp_path: Path) -> None:
    meter = CpuMeter(stat_path=tmp_path / "missing")
    meter.start()
    assert meter.stop() is None
