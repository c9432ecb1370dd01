"""Every probe on the CPU at tiny sizes: structure, byte and FLOP counting, cap, stop and budget."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from gpu_checks.device import DeviceInfo, discover
from gpu_checks.errors import MemoryCapError
from gpu_checks.plan import MIB, SMOKE, Plan, with_buffer_bytes
from gpu_checks.probes.arena import Arena
from gpu_checks.probes.bandwidth import run_bandwidth
from gpu_checks.probes.context import ProbeContext, ProbeStopped
from gpu_checks.probes.decode import layer_stack, run_decode, weight_dtypes
from gpu_checks.probes.fusion import run_fusion
from gpu_checks.probes.matmul import run_matmul
from gpu_checks.probes.overhead import run_overhead
from gpu_checks.session import Session


@pytest.fixture(scope="module")
def info() -> DeviceInfo:
    return discover("cpu", threads=1)


@pytest.fixture(scope="module")
def arena() -> Arena:
    return Arena(torch_device="cpu", capacity_bytes=MIB)


def context(
    info: DeviceInfo,
    arena: Arena,
    *,
    plan: Plan = SMOKE,
    cap_bytes: int = 64 * MIB,
    budget_s: float = 30.0,
    stop: threading.Event | None = None,
) -> ProbeContext:
    return ProbeContext(
        device=info, plan=plan, cap_bytes=cap_bytes, arena=arena, budget_s=budget_s, stop=stop
    )


def test_arena_views_are_aligned_disjoint_and_finite(arena: Arena) -> None:
    import torch

    a, b = arena.tensors(1000, torch.float32, count=2)
    assert b.data_ptr() - a.data_ptr() >= 4000
    assert a.data_ptr() % 4096 == 0
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        view = arena.tensor(10_000, dtype)
        assert bool(torch.isfinite(view).all())
        assert float(view.abs().max()) < 4.0
    with pytest.raises(ValueError, match="cannot hold"):
        arena.tensor(arena.capacity_bytes, torch.float32)


def test_bandwidth_counts_bytes_as_stream(info: DeviceInfo, arena: Arena) -> None:
    result = run_bandwidth(context(info, arena))
    assert {s.label for s in result.samples} == {"copy", "triad"}
    for sample in result.samples:
        words = 2 if sample.label == "copy" else 3
        assert sample.bytes_moved == words * 4 * sample.size
        assert sample.flops == (0 if sample.label == "copy" else 2 * sample.size)
        assert sample.bytes_per_s > 0
    assert result.mem_bandwidth_bytes_per_s == max(result.copy_bytes_per_s, result.triad_bytes_per_s) > 0
    # 256 KiB is far below twice any last-level cache: the result says its plateau is not from memory.
    assert not result.beyond_cache
    assert result.notes


def test_matmul_counts_flops_and_bytes_per_dtype(info: DeviceInfo, arena: Arena) -> None:
    result = run_matmul(context(info, arena))
    assert set(result.peak_flops_by_dtype) == set(info.fast_dtypes)
    for sample in result.samples:
        width = 4 if sample.label == "float32" else 2
        assert sample.flops == 2 * sample.size**3
        assert sample.bytes_moved == pytest.approx(3 * sample.size**2 * width)
        assert sample.flops_per_s <= result.peak_flops_by_dtype[sample.label]
    assert {s.size for s in result.samples} == set(SMOKE.matmul_dims_cpu)


def test_overhead_sweeps_up_from_one_element(info: DeviceInfo, arena: Arena) -> None:
    result = run_overhead(context(info, arena), mem_bandwidth=1e10)
    sizes = [s.size for s in result.samples]
    assert sizes[0] == 1
    assert sizes == sorted(sizes)
    for sample in result.samples:
        assert sample.bytes_moved == 8 * sample.size  # read x and write y, float32
    assert result.overhead_s > 0
    assert result.knee_bytes_predicted == pytest.approx(result.overhead_s * 1e10)
    assert run_overhead(context(info, arena), mem_bandwidth=None).knee_bytes_predicted is None


def test_decode_counts_bytes_and_predicts_the_knee(info: DeviceInfo, arena: Arena) -> None:
    dtype = weight_dtypes(info.fast_dtypes, all_dtypes=False)[0]
    result = run_decode(context(info, arena), dtype_name=dtype, peak_flops=1e11, mem_bandwidth=1e10)
    width = 2 if dtype == "bfloat16" else 4
    layers, k, n = result.weight_shape
    assert k == n and k % 64 == 0
    assert result.weight_bytes == layers * k * n * width <= SMOKE.decode_ceiling_bytes
    assert [s.size for s in result.samples][:3] == [1, 2, 4]
    for sample in result.samples:
        b = sample.size
        assert sample.flops == 2 * b * k * n * layers
        assert sample.bytes_moved == pytest.approx(layers * width * (b * k + k * n + b * n))
    assert result.knee_predicted == pytest.approx(1e11 * width / (2 * 1e10))
    assert len(result.predicted_times_s) == len(result.samples)
    params = layers * k * n
    assert result.predicted_times_s[0] == pytest.approx(max(width * params / 1e10, 2 * params / 1e11))


@pytest.mark.parametrize(
    ("weight_bytes", "width", "expected"),
    [
        (512 * MIB, 2, (16, 4096)),  # sixteen 4096² bf16 layers
        (512 * MIB, 4, (8, 4096)),
        (256 * 1024, 2, (1, 320)),  # too small for one 4096² layer: one narrower layer
        (100, 4, (1, 64)),
    ],
)
def test_layer_stack(weight_bytes: int, width: int, expected: tuple[int, int]) -> None:
    assert layer_stack(weight_bytes=weight_bytes, bytes_per_element=width, max_dim=4096) == expected


def test_decode_without_measured_roofs_makes_no_prediction(info: DeviceInfo, arena: Arena) -> None:
    result = run_decode(context(info, arena), dtype_name="float32", peak_flops=None, mem_bandwidth=1e10)
    assert result.knee_predicted is None
    assert result.predicted_times_s == ()


def test_weight_dtypes_prefer_the_narrowest_fast_one() -> None:
    assert weight_dtypes(("float32", "bfloat16"), all_dtypes=False) == ("bfloat16",)
    assert weight_dtypes(("float32", "float16"), all_dtypes=True) == ("float16", "float32")
    assert weight_dtypes(("float32",), all_dtypes=False) == ("float32",)


def test_fusion_halves_the_bytes_with_the_single_op(info: DeviceInfo, arena: Arena) -> None:
    result = run_fusion(context(info, arena))
    unfused, fused = result.samples
    assert result.fused_with == "torch.clamp"
    assert unfused.bytes_moved == 4 * 4 * unfused.size  # two ops, each reading and writing float32
    assert fused.bytes_moved == 2 * 4 * fused.size
    assert result.bytes_ratio == 0.5
    # The ratio is the median of alternating rounds' ratios, so it lies within the pooled extremes.
    assert len(unfused.timing.times_s) >= SMOKE.fusion_rounds
    lowest = min(fused.timing.times_s) / max(unfused.timing.times_s)
    highest = max(fused.timing.times_s) / min(unfused.timing.times_s)
    assert lowest <= result.time_ratio <= highest


def _compile_plan() -> Plan:
    return replace(SMOKE, fusion_use_compile=True, compile_timeout_s=5.0)


def test_fusion_uses_a_compiled_chain_when_it_works(info: DeviceInfo, arena: Arena) -> None:
    result = run_fusion(context(info, arena, plan=_compile_plan()), compiler=lambda fn: fn)
    assert result.fused_with == "torch.compile"
    assert result.compile_s is not None


def test_fusion_falls_back_when_compile_fails(info: DeviceInfo, arena: Arena) -> None:
    def broken(fn: Any) -> Any:
        raise RuntimeError("no C++ compiler")

    result = run_fusion(context(info, arena, plan=_compile_plan()), compiler=broken)
    assert result.fused_with == "torch.clamp"
    assert any("no C++ compiler" in note for note in result.notes)


def test_fusion_falls_back_when_compile_outlives_its_box(info: DeviceInfo, arena: Arena) -> None:
    def slow(fn: Any) -> Any:
        time.sleep(0.5)
        return fn

    plan = replace(SMOKE, fusion_use_compile=True, compile_timeout_s=0.05)
    result = run_fusion(context(info, arena, plan=plan), compiler=slow)
    assert result.fused_with == "torch.clamp"
    assert any("longer than" in note for note in result.notes)


def test_a_probe_refuses_buffers_above_the_memory_cap(info: DeviceInfo, arena: Arena) -> None:
    with pytest.raises(MemoryCapError, match="memory cap"):
        run_decode(
            context(info, arena, cap_bytes=1000), dtype_name="float32", peak_flops=None, mem_bandwidth=None
        )


def test_a_session_refuses_an_explicit_size_above_the_cap_before_allocating(info: DeviceInfo) -> None:
    too_big = (info.free_memory_bytes or 2**30) * 2
    with pytest.raises(MemoryCapError):
        Session(info=info, plan=with_buffer_bytes(SMOKE, too_big))


def test_a_set_stop_flag_stops_the_probe(info: DeviceInfo, arena: Arena) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(ProbeStopped):
        run_bandwidth(context(info, arena, stop=stop))


def test_an_exhausted_budget_still_measures_one_size(info: DeviceInfo, arena: Arena) -> None:
    result = run_bandwidth(context(info, arena, budget_s=0.0))
    assert result.truncated
    assert {s.size for s in result.samples} == {min(s.size for s in result.samples)}


def test_a_stop_request_ends_the_wait_for_a_slow_compile(info: DeviceInfo, arena: Arena) -> None:
    stop = threading.Event()

    def slow(fn: Any) -> Any:
        stop.set()  # the user presses Stop while torch.compile is still busy
        time.sleep(5.0)
        return fn

    plan = replace(SMOKE, fusion_use_compile=True, compile_timeout_s=600.0)
    with pytest.raises(ProbeStopped):
        run_fusion(context(info, arena, plan=plan, stop=stop), compiler=slow)
