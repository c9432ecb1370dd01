"""The CUDA path's logic without a GPU: discovery from a fake device table, presets, plan sizing.

A stand-in for torch answers what discovery asks CUDA (names, L2 size, free memory, bf16
support); sizes are then chosen for that device from the memory it says is free. What needs a
real GPU (allocating, timing) stays in ``test_cuda.py``, skipped without one.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from gpu_checks.device import DeviceInfo, DeviceKind, discover, resolve_kind
from gpu_checks.errors import DeviceUnavailableError, MemoryCapError
from gpu_checks.plan import FULL, GIB, MIB, QUICK, with_buffer_bytes
from gpu_checks.presets import spec_roof
from gpu_checks.probes.decode import LAYER_DIM_ACCELERATOR, layer_stack, weight_dtypes
from gpu_checks.probes.sizes import bandwidth_target, decode_target
from gpu_checks.session import Session

#: name, total bytes, free bytes, L2 bytes, bf16 support: what CUDA reports for a few parts.
DEVICE_TABLE = {
    "NVIDIA H200": (150_754_820_096, 149_000_000_000, 60 * MIB, True),
    "NVIDIA A100-SXM4-80GB": (85_089_959_936, 84_000_000_000, 40 * MIB, True),
    "Tesla T4": (15_828_320_256, 15_000_000_000, 4 * MIB, False),
    "NVIDIA L40S": (48_305_799_168, 47_000_000_000, 96 * MIB, True),
}


def fake_torch(name: str, *, free_bytes: int | None = None, index: int = 0) -> Any:
    """Enough of torch for discovery to describe the CUDA device ``name`` of the table."""
    total, free, l2, bf16 = DEVICE_TABLE[name]
    cuda = SimpleNamespace(
        is_available=lambda: True,
        current_device=lambda: index,
        get_device_properties=lambda i: SimpleNamespace(name=name, L2_cache_size=l2),
        mem_get_info=lambda i: (free if free_bytes is None else free_bytes, total),
        is_bf16_supported=lambda: bf16,
    )
    return SimpleNamespace(
        cuda=cuda,
        backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: False)),
        get_num_threads=lambda: 16,
        __version__="2.13.0+cu128",
    )


def no_gpu_torch() -> Any:
    return SimpleNamespace(
        cuda=SimpleNamespace(is_available=lambda: False),
        backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: False)),
        __version__="2.13.0+cpu",
    )


@pytest.mark.parametrize(
    ("name", "preset_id", "fast"),
    [
        ("NVIDIA H200", "h200_sxm", ("float32", "bfloat16", "float16")),
        ("NVIDIA A100-SXM4-80GB", "a100_80gb_sxm", ("float32", "bfloat16", "float16")),
        ("Tesla T4", "t4", ("float32", "float16")),
        ("NVIDIA L40S", None, ("float32", "bfloat16", "float16")),
    ],
)
def test_discovery_describes_each_cuda_device(
    name: str, preset_id: str | None, fast: tuple[str, ...]
) -> None:
    total, free, l2, _ = DEVICE_TABLE[name]
    info = discover(None, torch_module=fake_torch(name, index=1))  # CUDA is the best available
    assert info.kind is DeviceKind.CUDA
    assert info.torch_device == "cuda:1"
    assert (info.name, info.memory_bytes, info.free_memory_bytes) == (name, total, free)
    assert (info.llc_bytes, info.llc_source) == (l2, "CUDA L2")
    assert info.fast_dtypes == fast
    assert info.preset_id == preset_id
    assert info.threads == 16
    assert info.torch_version == "2.13.0+cu128"


def test_the_fingerprint_tells_cuda_devices_apart_and_ignores_free_memory() -> None:
    h200 = discover("cuda", torch_module=fake_torch("NVIDIA H200"))
    busier = discover("cuda", torch_module=fake_torch("NVIDIA H200", free_bytes=10 * GIB))
    a100 = discover("cuda", torch_module=fake_torch("NVIDIA A100-SXM4-80GB"))
    assert h200.fingerprint == busier.fingerprint
    assert h200.fingerprint != a100.fingerprint


def test_cuda_is_refused_on_a_machine_without_it() -> None:
    with pytest.raises(DeviceUnavailableError, match="--device cpu"):
        resolve_kind("cuda", torch_module=no_gpu_torch())
    assert resolve_kind(None, torch_module=no_gpu_torch()) is DeviceKind.CPU


def test_a_matched_device_gets_its_datasheet_roof() -> None:
    info = discover("cuda", torch_module=fake_torch("NVIDIA H200"))
    spec = spec_roof(info.preset_id)
    assert spec is not None
    assert spec.mem_bandwidth == pytest.approx(4.8e12)
    assert spec.peak_flops == pytest.approx(989e12, rel=0.01)
    assert spec.peak_flops_vector is not None and spec.peak_flops_vector < spec.peak_flops
    assert spec_roof(discover("cuda", torch_module=fake_torch("NVIDIA L40S")).preset_id) is None


def _h200(free_bytes: int) -> DeviceInfo:
    return discover("cuda", torch_module=fake_torch("NVIDIA H200", free_bytes=free_bytes))


def test_full_plan_sizes_on_an_idle_h200() -> None:
    info = _h200(140 * GIB)
    session = Session(info=info, plan=FULL)
    assert session.cap_bytes == 35 * GIB  # a quarter of what is free
    bandwidth = bandwidth_target(FULL, llc_bytes=info.llc_bytes, cap_bytes=session.cap_bytes)
    decode = decode_target(FULL, llc_bytes=info.llc_bytes, cap_bytes=session.cap_bytes)
    assert (bandwidth.n_bytes, bandwidth.shrunk) == (2 * GIB, False)  # the floor: 4 × 60 MiB is less
    assert bandwidth.n_bytes >= 4 * info.llc_bytes
    assert (decode.n_bytes, decode.shrunk) == (GIB, False)
    assert session.arena_bytes >= max(bandwidth.n_bytes, decode.n_bytes)
    assert weight_dtypes(info.fast_dtypes, all_dtypes=FULL.decode_all_dtypes) == (
        "bfloat16",
        "float16",
        "float32",
    )
    layers, dim = layer_stack(weight_bytes=decode.n_bytes, bytes_per_element=2, max_dim=LAYER_DIM_ACCELERATOR)
    assert (layers, dim) == (8, 8192)  # eight 128 MiB layers of a large model's width


def test_sizes_shrink_to_a_busy_gpus_free_memory() -> None:
    info = _h200(2 * GIB)  # other work holds nearly all of it
    session = Session(info=info, plan=FULL)
    assert session.cap_bytes == GIB // 2
    bandwidth = bandwidth_target(FULL, llc_bytes=info.llc_bytes, cap_bytes=session.cap_bytes)
    assert (bandwidth.n_bytes, bandwidth.shrunk) == (GIB // 2, True)
    quick = bandwidth_target(QUICK, llc_bytes=info.llc_bytes, cap_bytes=session.cap_bytes)
    assert quick.n_bytes == 256 * MIB and not quick.shrunk


def test_an_explicit_size_above_a_busy_gpus_cap_is_refused_before_allocating() -> None:
    with pytest.raises(MemoryCapError, match="memory cap"):
        Session(info=_h200(4 * GIB), plan=with_buffer_bytes(FULL, 2 * GIB))
    assert Session(info=_h200(16 * GIB), plan=with_buffer_bytes(FULL, 2 * GIB)).arena is None


def test_unknown_free_memory_falls_back_to_a_safe_cap() -> None:
    info = replace(_h200(140 * GIB), free_memory_bytes=None)
    assert Session(info=info, plan=QUICK).cap_bytes == GIB
