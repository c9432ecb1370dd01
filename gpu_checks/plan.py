"""What a run measures and how long it may take: the Smoke, Quick and Full plans.

Sizes in a plan are bounds; the concrete sizes follow from the device (its last-level cache and
free memory), see ``gpu_checks.probes.sizes``. Times are seconds, sizes bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from gpu_checks.errors import PlanError
from gpu_checks.record import Record

KIB = 2**10
MIB = 2**20
GIB = 2**30
#: Largest size a plan accepts (1 EiB): beyond any memory, and far inside a 64-bit count.
MAX_BYTES = 2**60


class ProbeName(StrEnum):
    """The five probes, in the order a run performs them (later ones use earlier results)."""

    BANDWIDTH = "bandwidth"
    MATMUL = "matmul"
    OVERHEAD = "overhead"
    DECODE = "decode"
    FUSION = "fusion"  # last: a torch.compile that outlives its time box then disturbs nothing


@dataclass(frozen=True)
class Plan(Record):
    """Bounds for one run.

    ``llc_multiple``: the largest bandwidth working set and the decode weight aim at this many
    times the last-level cache, so the plateau is read from main memory (STREAM's 4×).
    ``*_floor_bytes``/``*_ceiling_bytes`` bound those sizes from below and above (a small cache
    still gets a long enough sweep; a huge cache does not blow the time budget); automatic sizes
    shrink to ``memory_fraction`` of free memory. ``buffer_bytes``, when set, replaces both
    targets with an explicit size, which is refused (not shrunk) when above that cap.
    ``min_run_time_s`` is each measurement's timed run; ``max_run_time_s`` bounds the second
    round a slow statement gets to reach three replicates. ``sweep_step`` is the ratio between
    consecutive sizes of a sweep. ``probe_budget_s`` is each probe's time budget: a sweep adds
    no new size once its probe is over budget. ``fusion_rounds`` is how many unfused/fused
    pairs the fusion probe alternates.
    """

    name: str
    probes: tuple[ProbeName, ...]
    min_run_time_s: float
    max_run_time_s: float
    sweep_step: int
    probe_budget_s: float
    llc_multiple: float
    bandwidth_floor_bytes: int
    bandwidth_ceiling_bytes: int
    matmul_dims_cpu: tuple[int, ...]
    matmul_dims_accelerator: tuple[int, ...]
    decode_floor_bytes: int
    decode_ceiling_bytes: int
    decode_max_batch: int
    decode_all_dtypes: bool
    fusion_use_compile: bool
    compile_timeout_s: float
    fusion_rounds: int
    memory_fraction: float = 0.25
    buffer_bytes: int | None = None


_ALL_PROBES = tuple(ProbeName)

#: Fractions of a second per size: for tests and for checking an installation.
SMOKE = Plan(
    name="smoke",
    probes=_ALL_PROBES,
    min_run_time_s=0.002,
    max_run_time_s=0.02,
    sweep_step=4,
    probe_budget_s=2.0,
    llc_multiple=0.0,
    bandwidth_floor_bytes=256 * KIB,
    bandwidth_ceiling_bytes=256 * KIB,
    matmul_dims_cpu=(16, 64),
    matmul_dims_accelerator=(64, 256),
    decode_floor_bytes=256 * KIB,
    decode_ceiling_bytes=256 * KIB,
    decode_max_batch=16,
    decode_all_dtypes=False,
    fusion_use_compile=False,
    compile_timeout_s=0.0,
    fusion_rounds=2,
)

#: About 20 s on two CPU cores (17-27 s measured with other work on up to one of them; each probe's 6 s
#: budget, overshot by the sample in progress): coarse sweeps, the decode weight capped at 512 MiB.
QUICK = Plan(
    name="quick",
    probes=_ALL_PROBES,
    min_run_time_s=0.05,
    max_run_time_s=0.4,
    sweep_step=4,
    probe_budget_s=6.0,
    llc_multiple=4.0,
    bandwidth_floor_bytes=256 * MIB,
    bandwidth_ceiling_bytes=2 * GIB,
    matmul_dims_cpu=(256, 1024, 2048),
    matmul_dims_accelerator=(1024, 4096, 8192),
    decode_floor_bytes=64 * MIB,
    decode_ceiling_bytes=512 * MIB,
    decode_max_batch=512,
    decode_all_dtypes=False,
    fusion_use_compile=False,
    compile_timeout_s=0.0,
    fusion_rounds=2,
)

#: A few minutes: finer sweeps, bigger buffers, every fast dtype, torch.compile for fusion.
FULL = Plan(
    name="full",
    probes=_ALL_PROBES,
    min_run_time_s=0.2,
    max_run_time_s=2.0,
    sweep_step=2,
    probe_budget_s=90.0,
    llc_multiple=4.0,
    bandwidth_floor_bytes=2 * GIB,
    bandwidth_ceiling_bytes=16 * GIB,
    matmul_dims_cpu=(128, 256, 512, 1024, 2048, 4096),
    matmul_dims_accelerator=(512, 1024, 2048, 4096, 8192, 16384),
    decode_floor_bytes=1 * GIB,
    decode_ceiling_bytes=8 * GIB,
    decode_max_batch=512,
    decode_all_dtypes=True,
    fusion_use_compile=True,
    compile_timeout_s=90.0,
    fusion_rounds=5,
)

PLANS: dict[str, Plan] = {plan.name: plan for plan in (SMOKE, QUICK, FULL)}

_UNITS = {
    **{"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12},
    **{"kib": KIB, "mib": MIB, "gib": GIB, "tib": 2**40},
}


def get_plan(name: str) -> Plan:
    """The plan called ``name`` (smoke, quick or full)."""
    try:
        return PLANS[name]
    except KeyError:
        raise PlanError(f"unknown plan {name!r}: use one of {', '.join(PLANS)}") from None


def parse_bytes(text: str) -> int:
    """Bytes from ``4096``, ``512MiB``, ``1.5 GB`` (GB = 1e9, GiB = 2^30); raises :class:`PlanError`."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = match.group(2).lower() if match else ""
    if match is None or unit not in _UNITS:
        raise PlanError(f"unreadable size {text!r}: write a number of bytes such as 4096, 512MiB or 2GB")
    # Decimal, not float: a number with hundreds of digits must be refused, not overflow.
    value = int(Decimal(match.group(1)) * _UNITS[unit])
    if value <= 0:
        raise PlanError(f"size {text!r} must be positive")
    if value > MAX_BYTES:
        raise PlanError(f"size {text[:40]!r} is larger than any memory: give at most 1 EiB, such as 512MiB")
    return value


def with_buffer_bytes(plan: Plan, buffer_bytes: int | None) -> Plan:
    """``plan`` with an explicit size for its largest buffers (None keeps the automatic sizes)."""
    if buffer_bytes is not None and buffer_bytes <= 0:
        raise PlanError("the buffer size must be positive")
    return replace(plan, buffer_bytes=buffer_bytes)
