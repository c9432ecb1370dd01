"""What every probe is handed: device, plan, memory cap, the arena, its time budget, stop and progress."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpu_checks.device import DeviceInfo
from gpu_checks.plan import Plan
from gpu_checks.probes.arena import Arena
from gpu_checks.timing import ProbeStopped, Timing, measure

__all__ = ["ProbeContext", "ProbeStopped", "Sweep"]


@dataclass
class ProbeContext:
    """Per-probe surroundings. ``budget_s`` counts from construction on ``clock`` (seconds)."""

    device: DeviceInfo
    plan: Plan
    cap_bytes: int
    arena: Arena
    budget_s: float
    stop: threading.Event | None = None
    on_progress: Callable[[float, str], None] | None = None
    clock: Callable[[], float] = time.monotonic
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def over_budget(self) -> bool:
        """Whether this probe has used its time budget (a sweep then adds no new size)."""
        return self.clock() - self.started > self.budget_s

    def step(self, fraction: float, message: str) -> None:
        """Report progress within the probe (0..1) and honour the stop flag."""
        if self.stop is not None and self.stop.is_set():
            raise ProbeStopped
        if self.on_progress is not None:
            self.on_progress(min(max(fraction, 0.0), 1.0), message)

    def random(self, *shape: int, dtype: Any) -> Any:
        """A fresh tensor of ``shape`` on the device, uniform in [-1, 1) (torch's global seed)."""
        import torch

        return torch.rand(*shape, device=self.device.torch_device, dtype=dtype).mul_(2).sub_(1)

    def time(self, stmt: str, namespace: dict[str, Any]) -> Timing:
        """Time ``stmt`` with the plan's run times and the device's thread count."""
        return measure(
            stmt,
            namespace=namespace,
            num_threads=self.device.threads,
            min_run_time_s=self.plan.min_run_time_s,
            max_run_time_s=self.plan.max_run_time_s,
            stop=self.stop,
        )


class Sweep:
    """The sizes of a sweep, cut short by the probe's time budget or, with ``stop_rise``, by the curve.

    Iterating reports progress and honours the stop flag before each size (the first size is
    always measured). With ``stop_rise``, the sweep ends once the last two recorded times are
    both at least ``stop_rise`` times the fastest: the curve has clearly left its floor.
    ``share`` is the part of the probe's progress the sweep fills, from 0.
    """

    def __init__(
        self,
        ctx: ProbeContext,
        sizes: Sequence[int],
        *,
        describe: Callable[[int], str],
        stop_rise: float | None = None,
        share: float = 1.0,
    ) -> None:
        self.ctx, self.sizes, self.describe, self.stop_rise = ctx, sizes, describe, stop_rise
        self.share = share
        self.truncated = False
        self._seconds: list[float] = []

    def record(self, seconds: float) -> None:
        """Note the median time measured at the current size."""
        self._seconds.append(seconds)

    def _has_risen(self) -> bool:
        if self.stop_rise is None or len(self._seconds) < 2:
            return False
        fastest = min(self._seconds)
        return all(t >= self.stop_rise * fastest for t in self._seconds[-2:])

    def __iter__(self) -> Iterator[int]:
        for i, size in enumerate(self.sizes):
            if i and self.ctx.over_budget():
                self.truncated = True
                return
            self.ctx.step(self.share * i / len(self.sizes), self.describe(size))
            yield size
            if self._has_risen():
                return
