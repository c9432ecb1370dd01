"""How busy the machine was while a sample was timed: CPU time that other programs took.

Busy time is every non-idle column of ``/proc/stat`` (steal included: on a virtual machine,
other guests), minus this process's own CPU time. Where ``/proc/stat`` does not exist the meter
says nothing (None), and no doubt is raised from it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

#: Other work keeping this many CPUs busy on average makes a sample "taken on a busy machine".
BUSY_CPUS = 0.25
_PROC_STAT = Path("/proc/stat")


class CpuMeter:
    """CPU seconds that other programs spent between :meth:`start` and :meth:`stop`, per wall second.

    ``clock``/``own_cpu`` are the wall clock and this process's CPU clock (all its threads).
    """

    def __init__(
        self,
        *,
        stat_path: Path = _PROC_STAT,
        clock: Callable[[], float] = time.monotonic,
        own_cpu: Callable[[], float] = time.process_time,
    ) -> None:
        self._path, self._clock, self._own = stat_path, clock, own_cpu
        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._start: tuple[float, float, float] | None = None

    def _busy_s(self) -> float | None:
        try:
            first = self._path.read_text(encoding="ascii").splitlines()[0].split()
        except (OSError, IndexError, UnicodeDecodeError):
            return None
        if first[:1] != ["cpu"] or len(first) < 5:
            return None
        values = [int(v) for v in first[1:9]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
        return (sum(values) - idle) / self._tick

    def start(self) -> None:
        busy = self._busy_s()
        self._start = None if busy is None else (self._clock(), busy, self._own())

    def stop(self) -> float | None:
        """Average number of CPUs that other work kept busy since :meth:`start` (None when unknown)."""
        if self._start is None:
            return None
        busy = self._busy_s()
        wall0, busy0, own0 = self._start
        wall = self._clock() - wall0
        if busy is None or wall <= 0:
            return None
        others = (busy - busy0) - (self._own() - own0)
        return max(0.0, others / wall)
