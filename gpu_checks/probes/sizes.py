"""Buffer sizes from the plan, the cache and the memory cap. Pure arithmetic in bytes; no torch.

Automatic sizes aim at a multiple of the last-level cache and shrink to the memory cap with a
note; a size the user asked for explicitly is refused with :class:`MemoryCapError` instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gpu_checks.errors import MemoryCapError
from gpu_checks.plan import KIB, Plan

#: No probe runs with buffers smaller than this: below it every access is a cache hit.
MIN_BUFFER_BYTES = 64 * KIB
#: Smallest bandwidth array: 32 KiB of float32, inside any L1 or L2.
START_ARRAY_ELEMENTS = 8192
#: Without a figure for free memory, probes stay under this.
UNKNOWN_FREE_CAP_BYTES = 2**30


def memory_cap_bytes(*, free_memory_bytes: int | None, fraction: float) -> int:
    """The most bytes one buffer may take: ``fraction`` of free memory (1 GiB when free is unknown)."""
    if free_memory_bytes is None:
        return UNKNOWN_FREE_CAP_BYTES
    return int(free_memory_bytes * fraction)


def _human(n_bytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g} {unit}"
    return f"{n_bytes:.0f} B"


def require_fits(*, n_bytes: int, cap_bytes: int, what: str) -> None:
    """Raise :class:`MemoryCapError` when ``n_bytes`` exceeds ``cap_bytes``."""
    if n_bytes > cap_bytes:
        raise MemoryCapError(
            f"{what} needs {_human(n_bytes)}, above the memory cap of {_human(cap_bytes)} "
            "(a quarter of the free memory); ask for a smaller size or free some memory"
        )


@dataclass(frozen=True)
class Target:
    """A chosen buffer size in bytes; ``shrunk`` when the memory cap cut it below the aim."""

    n_bytes: int
    shrunk: bool


def target_bytes(
    *,
    llc_bytes: int,
    llc_multiple: float,
    floor_bytes: int,
    ceiling_bytes: int,
    requested_bytes: int | None,
    cap_bytes: int,
    what: str,
) -> Target:
    """The size of the largest buffer of a probe.

    ``requested_bytes`` wins when given (refused above the cap); otherwise
    min(max(multiple · LLC, floor), ceiling), shrunk to the cap when needed.
    """
    if requested_bytes is not None:
        require_fits(n_bytes=requested_bytes, cap_bytes=cap_bytes, what=what)
        return Target(n_bytes=requested_bytes, shrunk=False)
    aim = int(min(max(llc_multiple * llc_bytes, floor_bytes), ceiling_bytes))
    if aim <= cap_bytes:
        return Target(n_bytes=aim, shrunk=False)
    require_fits(n_bytes=MIN_BUFFER_BYTES, cap_bytes=cap_bytes, what=what)
    return Target(n_bytes=cap_bytes, shrunk=True)


def _plan_target(plan: Plan, *, bounds: tuple[int, int], llc_bytes: int, cap_bytes: int, what: str) -> Target:
    floor, ceiling = bounds
    return target_bytes(
        llc_bytes=llc_bytes,
        llc_multiple=plan.llc_multiple,
        floor_bytes=floor,
        ceiling_bytes=ceiling,
        requested_bytes=plan.buffer_bytes,
        cap_bytes=cap_bytes,
        what=what,
    )


def bandwidth_target(plan: Plan, *, llc_bytes: int, cap_bytes: int) -> Target:
    """Working set of the largest bandwidth sample (the triad's three arrays together)."""
    bounds = (plan.bandwidth_floor_bytes, plan.bandwidth_ceiling_bytes)
    return _plan_target(
        plan, bounds=bounds, llc_bytes=llc_bytes, cap_bytes=cap_bytes, what="the bandwidth working set"
    )


def decode_target(plan: Plan, *, llc_bytes: int, cap_bytes: int) -> Target:
    """Bytes of the decode weight matrix."""
    bounds = (plan.decode_floor_bytes, plan.decode_ceiling_bytes)
    return _plan_target(
        plan, bounds=bounds, llc_bytes=llc_bytes, cap_bytes=cap_bytes, what="the decode weight matrix"
    )


def triad_array_elements(working_set_bytes: int) -> int:
    """float32 elements per array when three arrays (triad; fusion's x, tmp, out) fill the working set."""
    return max(START_ARRAY_ELEMENTS, working_set_bytes // 12)


def geometric_sizes(*, start: int, stop: int, step: int) -> Iterator[int]:
    """start, start · step, ... below ``stop``, then ``stop`` itself (nothing when stop < start)."""
    if step < 2:
        raise ValueError("a geometric sweep needs a step of at least 2")
    size = start
    while size < stop:
        yield size
        size *= step
    if stop >= start:
        yield stop
