"""One run's state: the memory cap, the arena, each probe's result or error, the stop outcome.

Creating a session checks the sizes the plan asks for against the memory cap, so a refused
size fails before any buffer is allocated.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpu_checks.device import DeviceInfo
from gpu_checks.plan import Plan, ProbeName
from gpu_checks.presets import SpecRoof
from gpu_checks.probes.arena import Arena, arena_bytes_for
from gpu_checks.probes.context import ProbeContext, ProbeStopped
from gpu_checks.probes.sizes import (
    bandwidth_target,
    decode_target,
    memory_cap_bytes,
    triad_array_elements,
)
from gpu_checks.report import RunReport
from gpu_checks.results import BandwidthResult, DecodeResult, FusionResult, MatmulResult, OverheadResult


class Session:
    """The probes of one run, in order, sharing one arena."""

    def __init__(
        self,
        *,
        info: DeviceInfo,
        plan: Plan,
        stop: threading.Event | None = None,
        compiler: Callable[[Any], Any] | None = None,
    ) -> None:
        self.info, self.plan, self.stop, self.compiler = info, plan, stop, compiler
        self.cap_bytes = memory_cap_bytes(
            free_memory_bytes=info.free_memory_bytes, fraction=plan.memory_fraction
        )
        bandwidth = bandwidth_target(plan, llc_bytes=info.llc_bytes, cap_bytes=self.cap_bytes)
        decode = decode_target(plan, llc_bytes=info.llc_bytes, cap_bytes=self.cap_bytes)
        triad_bytes = triad_array_elements(bandwidth.n_bytes) * 4
        self.arena_bytes = max(
            arena_bytes_for(n_bytes=triad_bytes, count=3), arena_bytes_for(n_bytes=decode.n_bytes, count=1)
        )
        self.arena: Arena | None = None
        self.bandwidth: BandwidthResult | None = None
        self.matmul: MatmulResult | None = None
        self.overhead: OverheadResult | None = None
        self.decode: list[DecodeResult] = []
        self.fusion: FusionResult | None = None
        self.errors: dict[str, str] = {}
        self.stopped = False

    def open(self) -> None:
        """Allocate and fill the arena."""
        self.arena = Arena(torch_device=self.info.torch_device, capacity_bytes=self.arena_bytes)

    def close(self) -> None:
        """Drop the arena so its memory can be returned."""
        self.arena = None

    def _context(self, on_progress: Callable[[float, str], None], budget_s: float) -> ProbeContext:
        if self.arena is None:
            raise RuntimeError("open the session before running probes")
        return ProbeContext(
            device=self.info,
            plan=self.plan,
            cap_bytes=self.cap_bytes,
            arena=self.arena,
            budget_s=budget_s,
            stop=self.stop,
            on_progress=on_progress,
        )

    def run_probe(self, name: ProbeName, *, on_progress: Callable[[float, str], None]) -> bool:
        """Run one probe and keep its result or error; False once the run has been stopped."""
        from gpu_checks.probes.bandwidth import run_bandwidth
        from gpu_checks.probes.decode import run_decode, weight_dtypes
        from gpu_checks.probes.fusion import run_fusion
        from gpu_checks.probes.matmul import run_matmul
        from gpu_checks.probes.overhead import run_overhead

        budget = self.plan.probe_budget_s
        bandwidth = self.bandwidth.mem_bandwidth_bytes_per_s if self.bandwidth else None
        try:
            if name is ProbeName.BANDWIDTH:
                self.bandwidth = run_bandwidth(self._context(on_progress, budget))
            elif name is ProbeName.MATMUL:
                self.matmul = run_matmul(self._context(on_progress, budget))
            elif name is ProbeName.OVERHEAD:
                self.overhead = run_overhead(self._context(on_progress, budget), mem_bandwidth=bandwidth)
            elif name is ProbeName.FUSION:
                self.fusion = run_fusion(self._context(on_progress, budget), compiler=self.compiler)
            else:
                dtypes = weight_dtypes(self.info.fast_dtypes, all_dtypes=self.plan.decode_all_dtypes)
                peaks = self.matmul.peak_flops_by_dtype if self.matmul else {}
                for i, dtype in enumerate(dtypes):

                    def share(fraction: float, message: str, i: int = i) -> None:
                        on_progress((i + fraction) / len(dtypes), message)

                    ctx = self._context(share, budget / len(dtypes))
                    self.decode.append(
                        run_decode(
                            ctx, dtype_name=dtype, peak_flops=peaks.get(dtype), mem_bandwidth=bandwidth
                        )
                    )
        except ProbeStopped:
            self.stopped = True
            return False
        except Exception as error:  # one probe failing (a backend gap, a size) must not lose the others
            self.errors[name.value] = f"{type(error).__name__}: {error}"
        return True

    def report(self, *, started_at: str, elapsed_s: float, spec: SpecRoof | None) -> RunReport:
        """The report of what ran so far."""
        return RunReport(
            plan=self.plan.name,
            device=self.info,
            spec=spec,
            started_at=started_at,
            elapsed_s=elapsed_s,
            threads=self.info.threads,
            stopped=self.stopped,
            bandwidth=self.bandwidth,
            matmul=self.matmul,
            overhead=self.overhead,
            decode=tuple(self.decode),
            fusion=self.fusion,
            errors=dict(self.errors),
        )
