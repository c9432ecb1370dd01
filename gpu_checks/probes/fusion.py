"""Fusion: clamp_min then clamp_max, as two ops or as one fused kernel, on one large tensor.

Unfused, each op reads its input and writes its output; fused, the chain reads once and writes
once, so the estimator's ``elementwise_chain_bytes`` halves. The fused kernel comes from
``torch.compile`` when the plan allows it and the compile finishes within its time box, else
from the single op ``torch.clamp`` (the same arithmetic in one pass). A comparison counts as
one FLOP. The time ratio (fused / unfused, the median over alternating rounds) is reported
beside the bytes ratio.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from gpu_checks.probes.context import ProbeContext
from gpu_checks.probes.sizes import bandwidth_target, triad_array_elements
from gpu_checks.results import FusionResult, Sample
from gpu_checks.timing import ProbeStopped, Timing, timing_from_times
from grader.estimator import elementwise_chain_bytes

_WORD = 4  # float32
_LOW, _HIGH = -0.5, 0.5
_UNFUSED = "torch.clamp_min(x, -0.5, out=tmp); torch.clamp_max(tmp, 0.5, out=out)"
_SINGLE_OP = "torch.clamp(x, -0.5, 0.5, out=out)"
#: How often a wait for torch.compile looks at the stop flag (seconds).
_STOP_POLL_S = 0.1


def _chain(x: Any, out: Any) -> None:
    out.copy_(x.clamp_min(_LOW).clamp_max(_HIGH))


def compile_within(
    *,
    x: Any,
    out: Any,
    timeout_s: float,
    compiler: Callable[[Any], Any] | None = None,
    stop: threading.Event | None = None,
) -> tuple[Callable[[Any, Any], None] | None, float, str | None]:
    """Compile the chain and run it once on (x, out), giving up after ``timeout_s`` seconds.

    Returns (compiled function or None, seconds spent, reason it was not used or None). A compile
    that outlives its box keeps running in a daemon thread; the caller falls back meanwhile. A
    ``stop`` request ends the wait at once (raising ``ProbeStopped``), however long the box.
    """
    import torch

    compile_fn = compiler or (lambda fn: torch.compile(fn, dynamic=False))
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            compiled = compile_fn(_chain)
            compiled(x, out)
            outcome["fn"] = compiled
        except Exception as error:  # any backend failure (no compiler, unsupported device) means fallback
            outcome["error"] = f"{type(error).__name__}: {error}"

    started = time.monotonic()
    worker = threading.Thread(target=work, name="gpu-checks-compile", daemon=True)
    worker.start()
    while worker.is_alive() and time.monotonic() - started < timeout_s:
        worker.join(min(_STOP_POLL_S, max(0.0, timeout_s - (time.monotonic() - started))))
        if stop is not None and stop.is_set():
            raise ProbeStopped
    spent = time.monotonic() - started
    if worker.is_alive():
        return None, spent, f"torch.compile took longer than {timeout_s:g} s"
    if "error" in outcome:
        return None, spent, f"torch.compile failed ({outcome['error'][:200]})"
    if not torch.equal(out, torch.clamp(x, _LOW, _HIGH)):
        return None, spent, "torch.compile gave a different result"
    return outcome["fn"], spent, None


def _sample(label: str, timings: list[Timing], *, n: int, moved: float, arrays: int) -> Sample:
    # Two comparisons per element either way; the arrays touched set the working set.
    return Sample(
        label=label,
        size=n,
        bytes_moved=moved,
        flops=2.0 * n,
        working_set_bytes=float(arrays * n * _WORD),
        timing=timing_from_times(times_s=[t for timing in timings for t in timing.times_s]),
    )


def run_fusion(ctx: ProbeContext, *, compiler: Callable[[Any], Any] | None = None) -> FusionResult:
    """Time the chain unfused and fused on arrays a third of the bandwidth working set each."""
    import torch

    working_set = bandwidth_target(ctx.plan, llc_bytes=ctx.device.llc_bytes, cap_bytes=ctx.cap_bytes).n_bytes
    n = triad_array_elements(working_set)
    x, tmp, out = ctx.arena.tensors(n, torch.float32, count=3)
    namespace: dict[str, Any] = {"torch": torch, "x": x, "tmp": tmp, "out": out}
    notes: list[str] = []
    fused_stmt, fused_with, compile_s = _SINGLE_OP, "torch.clamp", None
    if ctx.plan.fusion_use_compile:
        ctx.step(0.0, "fusion: torch.compile")
        fn, compile_s, reason = compile_within(
            x=x, out=out, timeout_s=ctx.plan.compile_timeout_s, compiler=compiler, stop=ctx.stop
        )
        if fn is None:
            notes.append(f"{reason}; fused with torch.clamp instead")
        else:
            fused_stmt, fused_with = "fused(x, out)", "torch.compile"
            namespace["fused"] = fn
    unfused_bytes = elementwise_chain_bytes(n_elements=n, bytes_per_element=_WORD, n_ops=2, fused=False)
    fused_bytes = elementwise_chain_bytes(n_elements=n, bytes_per_element=_WORD, n_ops=2, fused=True)
    # Alternate the two, round after round, and compare within each round: a machine whose
    # memory bandwidth drifts (other tenants) then slows both sides of a pair alike.
    unfused_t: list[Timing] = []
    fused_t: list[Timing] = []
    rounds = max(1, ctx.plan.fusion_rounds)
    for i in range(rounds):
        ctx.step(0.2 + 0.8 * i / rounds, f"fusion: round {i + 1} of {rounds} (fused with {fused_with})")
        unfused_t.append(ctx.time(_UNFUSED, namespace))
        fused_t.append(ctx.time(fused_stmt, namespace))
    ratios = [f.median_s / u.median_s for f, u in zip(fused_t, unfused_t, strict=True)]
    unfused = _sample("unfused", unfused_t, n=n, moved=unfused_bytes, arrays=3)
    fused = _sample("fused", fused_t, n=n, moved=fused_bytes, arrays=2)
    return FusionResult(
        samples=(unfused, fused),
        fused_with=fused_with,
        compile_s=compile_s,
        time_ratio=statistics.median(ratios),
        bytes_ratio=fused_bytes / unfused_bytes,
        notes=tuple(notes),
    )
