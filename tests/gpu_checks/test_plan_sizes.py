"""Plans, size parsing and the sizes chosen from the cache and the memory cap."""

from __future__ import annotations

import pytest

from gpu_checks.errors import MemoryCapError, PlanError
from gpu_checks.plan import FULL, GIB, MIB, PLANS, QUICK, get_plan, parse_bytes, with_buffer_bytes
from gpu_checks.probes.sizes import (
    bandwidth_target,
    geometric_sizes,
    memory_cap_bytes,
    require_fits,
    target_bytes,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4096", 4096),
        ("512MiB", 512 * MIB),
        ("2GB", 2 * 10**9),
        ("1.5 GiB", int(1.5 * GIB)),
        ("64kb", 64_000),
    ],
)
def test_parse_bytes(text: str, expected: int) -> None:
    assert parse_bytes(text) == expected


@pytest.mark.parametrize("text", ["", "-3", "0", "12 parsecs", "1e9", "MiB"])
def test_unreadable_or_non_positive_sizes_are_refused(text: str) -> None:
    with pytest.raises(PlanError):
        parse_bytes(text)


def test_plans_by_name() -> None:
    assert get_plan("quick") is QUICK
    assert set(PLANS) == {"smoke", "quick", "full"}
    with pytest.raises(PlanError, match="smoke, quick, full"):
        get_plan("slow")
    with pytest.raises(PlanError):
        with_buffer_bytes(QUICK, 0)


def test_quick_is_lighter_than_full() -> None:
    assert QUICK.max_run_time_s < FULL.max_run_time_s
    assert QUICK.decode_ceiling_bytes <= FULL.decode_ceiling_bytes
    assert not QUICK.fusion_use_compile


def test_cap_is_a_fraction_of_free_memory() -> None:
    assert memory_cap_bytes(free_memory_bytes=8 * GIB, fraction=0.25) == 2 * GIB
    assert memory_cap_bytes(free_memory_bytes=None, fraction=0.25) == GIB


def test_automatic_size_aims_at_a_multiple_of_the_cache() -> None:
    common = {"floor_bytes": 64 * MIB, "ceiling_bytes": 2 * GIB, "requested_bytes": None, "what": "x"}
    small_cache = target_bytes(llc_bytes=8 * MIB, llc_multiple=4, cap_bytes=4 * GIB, **common)
    assert (small_cache.n_bytes, small_cache.shrunk) == (64 * MIB, False)  # the floor
    big_cache = target_bytes(llc_bytes=256 * MIB, llc_multiple=4, cap_bytes=4 * GIB, **common)
    assert big_cache.n_bytes == GIB
    huge_cache = target_bytes(llc_bytes=2 * GIB, llc_multiple=4, cap_bytes=4 * GIB, **common)
    assert huge_cache.n_bytes == 2 * GIB  # the ceiling
    capped = target_bytes(llc_bytes=256 * MIB, llc_multiple=4, cap_bytes=512 * MIB, **common)
    assert (capped.n_bytes, capped.shrunk) == (512 * MIB, True)


def test_an_explicit_size_above_the_cap_is_refused_not_shrunk() -> None:
    plan = with_buffer_bytes(QUICK, 3 * GIB)
    with pytest.raises(MemoryCapError, match="memory cap"):
        bandwidth_target(plan, llc_bytes=32 * MIB, cap_bytes=2 * GIB)
    assert bandwidth_target(plan, llc_bytes=32 * MIB, cap_bytes=4 * GIB).n_bytes == 3 * GIB


def test_require_fits_names_the_buffer() -> None:
    require_fits(n_bytes=100, cap_bytes=100, what="w")
    with pytest.raises(MemoryCapError, match="the decode weight needs 1 GiB"):
        require_fits(n_bytes=GIB, cap_bytes=MIB, what="the decode weight")


def test_geometric_sizes_end_on_the_stop() -> None:
    assert list(geometric_sizes(start=1, stop=100, step=4)) == [1, 4, 16, 64, 100]
    assert list(geometric_sizes(start=8, stop=8, step=2)) == [8]
    assert list(geometric_sizes(start=8, stop=4, step=2)) == []
    with pytest.raises(ValueError):
        list(geometric_sizes(start=1, stop=8, step=1))
