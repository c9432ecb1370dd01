"""Timing one statement with ``torch.utils.benchmark``: replicates, median and spread.

``torch.utils.benchmark.Timer`` warms up, picks a block size that makes the timer's own cost
negligible, pins the CPU thread count for the measurement and synchronises the accelerator
(CUDA or MPS, through ``torch.accelerator``) before reading the clock, so no hand-made loop is
needed. ``blocked_autorange`` times blocks until the minimum run time is spent; a statement so
slow that this left fewer than :data:`MIN_REPLICATES` blocks gets a second round, so every
timing has a spread. (``adaptive_autorange`` is not used: with short, noisy blocks its stopping
rule re-sorts every replicate after each block and can run for minutes.)
"""

from __future__ import annotations

import functools
import statistics
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpu_checks.load import BUSY_CPUS, CpuMeter
from gpu_checks.record import Record

#: A measurement whose interquartile range exceeds this fraction of its median is flagged noisy.
NOISE_THRESHOLD = 0.10
#: Fewest timed blocks per measurement (a slow statement gets a second round to reach it).
MIN_REPLICATES = 3


class ProbeStopped(Exception):
    """Raised between timed blocks once the run's stop flag is set; the runner catches it."""


@dataclass(frozen=True)
class Timing(Record):
    """Replicated timings of one statement, in seconds per call.

    ``times_s`` holds one value per timed block (each block ran the statement
    ``number_per_block`` times, and the value is the block's time divided by that count).
    """

    times_s: tuple[float, ...]
    number_per_block: int
    median_s: float
    iqr_s: float
    #: CPUs that other programs kept busy, on average, while the blocks ran (None: not known).
    busy_cpus: float | None = None

    @property
    def best_s(self) -> float:
        """The fastest block's seconds per call: STREAM's statistic (other work only adds time)."""
        return min(self.times_s)

    @property
    def busy(self) -> bool:
        """Whether other programs kept at least :data:`gpu_checks.load.BUSY_CPUS` CPUs busy meanwhile."""
        return self.busy_cpus is not None and self.busy_cpus >= BUSY_CPUS

    @property
    def spread(self) -> float:
        """Interquartile range over median (0 when there is one replicate)."""
        return self.iqr_s / self.median_s if self.median_s > 0 else 0.0

    @property
    def noisy(self) -> bool:
        """Whether the spread exceeds :data:`NOISE_THRESHOLD` (other work on the machine, clocks)."""
        return self.spread > NOISE_THRESHOLD


def timing_from_times(
    *, times_s: Sequence[float], number_per_block: int = 1, busy_cpus: float | None = None
) -> Timing:
    """A :class:`Timing` from per-call times: median and interquartile range (linear quantiles)."""
    if not times_s:
        raise ValueError("a timing needs at least one replicate")
    values = [float(t) for t in times_s]
    if len(values) == 1:
        iqr = 0.0
    else:
        p25, _, p75 = statistics.quantiles(values, n=4, method="inclusive")
        iqr = p75 - p25
    return Timing(
        times_s=tuple(values),
        number_per_block=number_per_block,
        median_s=statistics.median(values),
        iqr_s=iqr,
        busy_cpus=busy_cpus,
    )


def measure(
    stmt: str,
    *,
    namespace: dict[str, Any],
    num_threads: int,
    min_run_time_s: float,
    max_run_time_s: float,
    stop: threading.Event | None = None,
) -> Timing:
    """Time ``stmt`` (Python source run with ``namespace`` as globals) on ``num_threads`` CPU threads.

    Times blocks for at least ``min_run_time_s`` seconds after warm-up; when that gave fewer than
    :data:`MIN_REPLICATES` blocks, times more blocks, for up to ``max_run_time_s`` seconds, until
    it has that many (always at least one more block). ``stop`` is checked after every block, so
    a stop request ends a measurement before its next timed call or block, warm-up included
    (raising :class:`ProbeStopped`), instead of waiting for the whole sample.
    """
    if stop is not None and stop.is_set():
        raise ProbeStopped
    timer = _stoppable_timer_class()(stmt=stmt, globals=namespace, num_threads=num_threads)
    timer.stop = stop
    meter = CpuMeter()
    meter.start()
    first = timer.blocked_autorange(min_run_time=min_run_time_s)
    times = list(first.times)
    # A second autorange can still come back with a single block (its own sizing run counts towards
    # its time on a busy machine), so ask again until the replicates are there or the time is spent;
    # every round adds at least one block.
    block_s = max(first.raw_times)
    started = time.perf_counter()
    while len(times) < MIN_REPLICATES and time.perf_counter() - started < max_run_time_s:
        extra_s = min(max_run_time_s, (MIN_REPLICATES - len(times)) * block_s)
        times += timer.blocked_autorange(min_run_time=extra_s).times
    return timing_from_times(times_s=times, number_per_block=first.number_per_run, busy_cpus=meter.stop())


@functools.cache
def _stoppable_timer_class() -> type[Any]:
    """``torch.utils.benchmark.Timer`` that looks at a stop flag before every timed block.

    Every call the timer makes (the warm-up that sizes its blocks, then each block) goes through
    ``Timer._timeit``; checking there, rather than in ``blocked_autorange``'s callback (which only
    follows a finished block), spares a stop request the warm-up call of a slow statement. torch
    is pinned in requirements.txt, so this private hook does not move under us.
    """
    from torch.utils.benchmark import Timer

    class StoppableTimer(Timer):
        stop: threading.Event | None = None

        def _timeit(self, number: int) -> float:
            if self.stop is not None and self.stop.is_set():
                raise ProbeStopped
            return float(super()._timeit(number))

    return StoppableTimer
