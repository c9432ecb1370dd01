"""STREAM's way of timing memory traffic: the best repetition, samples long beside their per-call cost.

Torch-free, and every clock is passed in, so the tests drive it with a synthetic clock. A call
(``copy`` or ``triad`` over n elements) is timed in blocks of back-to-back calls; each block is at
least ``min_block_s`` long, so the clock reads and the final synchronise are a small part of it.
Like STREAM, the figure is the best repetition (the fastest block), not the median: other work on
the machine only ever adds time, so the fastest block is the one it disturbed least, and a figure
from it is a lower bound on what the memory can do. The median and spread are kept to show how
disturbed the other blocks were.

A fixed cost comes with every call however small (Python, dispatch, waking the worker threads;
under load, waiting for a core): :func:`per_call_cost` measures it on a tiny call, and
:func:`find_plateau` takes only samples whose call is at least 20 times that long
(:data:`MAX_OVERHEAD_SHARE`), so the cost is under 5 % of the sample.

Each sample also records how busy the machine was meanwhile (:class:`gpu_checks.load.CpuMeter`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_checks.load import CpuMeter
from gpu_checks.results import Sample
from gpu_checks.timing import ProbeStopped, Timing, timing_from_times

#: A sample counts towards the plateau only when the per-call cost is at most this share of a call.
MAX_OVERHEAD_SHARE = 0.05
#: STREAM's NTIMES: repetitions of each kernel (the best one is the figure).
REPETITIONS = 10
#: Fewest repetitions before a time limit may end a sample.
MIN_REPETITIONS = 3


def best_of(
    call: Callable[[], None],
    *,
    clock: Callable[[], float] = time.perf_counter,
    sync: Callable[[], None] = lambda: None,
    min_block_s: float,
    repetitions: int = REPETITIONS,
    max_s: float = math.inf,
    stop: threading.Event | None = None,
    meter: CpuMeter | None = None,
) -> Timing:
    """Time ``call`` in ``repetitions`` blocks of back-to-back calls, each at least ``min_block_s``.

    One untimed call warms up and one timed call sizes the blocks. After ``max_s`` (from the first
    block), at least :data:`MIN_REPETITIONS` blocks stand. ``stop`` is checked before every block.
    The returned :class:`~gpu_checks.timing.Timing` holds seconds per call, one value per block;
    its ``best_s`` is STREAM's figure.
    """

    def check_stop() -> None:
        if stop is not None and stop.is_set():
            raise ProbeStopped

    check_stop()
    call()
    sync()
    t0 = clock()
    call()
    sync()
    one = max(clock() - t0, 1e-9)
    number = max(1, math.ceil(min_block_s / one))
    if meter is not None:
        meter.start()
    times: list[float] = []
    began = clock()
    while len(times) < repetitions:
        if len(times) >= MIN_REPETITIONS and clock() - began > max_s:
            break
        check_stop()
        t0 = clock()
        for _ in range(number):
            call()
        sync()
        times.append((clock() - t0) / number)
    busy = meter.stop() if meter is not None else None
    return timing_from_times(times_s=times, number_per_block=number, busy_cpus=busy)


def per_call_cost(
    tiny_call: Callable[[], None],
    *,
    clock: Callable[[], float] = time.perf_counter,
    sync: Callable[[], None] = lambda: None,
    min_block_s: float,
    stop: threading.Event | None = None,
) -> float:
    """The fixed cost of one call: the best per-call time of ``tiny_call``, which moves next to nothing."""
    timing = best_of(tiny_call, clock=clock, sync=sync, min_block_s=min_block_s, repetitions=5, stop=stop)
    return timing.best_s


@dataclass(frozen=True)
class Plateau:
    """A kernel's memory figure: the best repetition over the samples that make its plateau.

    ``beyond_cache`` is False when no sample reached ``min_bytes`` and the largest stood in;
    ``sizes`` are the sizes the figure was taken over.
    """

    bytes_per_s: float
    beyond_cache: bool
    sizes: tuple[int, ...]


def overhead_share(sample: Sample, *, per_call_cost_s: float | None) -> float:
    """The per-call cost as a share of the sample's fastest call (0 when the cost is unknown)."""
    if not per_call_cost_s:
        return 0.0
    return per_call_cost_s / sample.timing.best_s


def find_plateau(
    samples: Sequence[Sample], *, label: str, min_bytes: float, per_call_cost_s: float | None
) -> Plateau:
    """The plateau of ``label``: samples whose working set is at least ``min_bytes`` and whose per-call
    cost is at most :data:`MAX_OVERHEAD_SHARE` of a call; its figure is their best repetition.

    Without such a sample, the largest sample stands in (``beyond_cache`` False); no sample at all
    gives 0.
    """
    mine = [s for s in samples if s.label == label]
    if not mine:
        return Plateau(0.0, False, ())
    plateau = [
        s
        for s in mine
        if s.working_set_bytes >= min_bytes
        and overhead_share(s, per_call_cost_s=per_call_cost_s) <= MAX_OVERHEAD_SHARE
    ]
    if plateau:
        best = max(plateau, key=lambda s: s.best_bytes_per_s)
        return Plateau(best.best_bytes_per_s, True, tuple(sorted(s.size for s in plateau)))
    largest = max(mine, key=lambda s: s.size)
    return Plateau(largest.best_bytes_per_s, False, (largest.size,))
