"""Device discovery helpers: sysfs cache sizes, /proc files, fast dtypes, the fingerprint."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gpu_checks.device import (
    DEFAULT_LLC_BYTES,
    DeviceKind,
    cpu_fast_dtypes,
    cpu_flags,
    cpu_llc_bytes,
    cpu_name,
    discover,
    meminfo_bytes,
    parse_cache_size,
    resolve_kind,
)
from gpu_checks.errors import DeviceUnavailableError
from tests.gpu_checks import synthetic


def _cache_index(root: Path, name: str, *, level: int, kind: str, size: str) -> None:
    index = root / name
    index.mkdir(parents=True)
    (index / "level").write_text(f"{level}\n")
    (index / "type").write_text(f"{kind}\n")
    (index / "size").write_text(f"{size}\n")


@pytest.mark.parametrize(("text", "expected"), [("48K", 48 * 1024), ("32M", 32 * 2**20), ("512", 512)])
def test_parse_cache_size(text: str, expected: int) -> None:
    assert parse_cache_size(text) == expected


def test_llc_is_the_highest_level_data_or_unified_cache(tmp_path: Path) -> None:
    _cache_index(tmp_path, "index0", level=1, kind="Data", size="48K")
    _cache_index(tmp_path, "index1", level=1, kind="Instruction", size="64K")
    _cache_index(tmp_path, "index2", level=2, kind="Unified", size="2048K")
    _cache_index(tmp_path, "index3", level=3, kind="Unified", size="30720K")
    assert cpu_llc_bytes(cache_dir=tmp_path) == (30 * 2**20, "sysfs L3")


def test_llc_falls_back_to_the_default(tmp_path: Path) -> None:
    size, source = cpu_llc_bytes(cache_dir=tmp_path / "missing")
    assert size == DEFAULT_LLC_BYTES
    assert "default" in source


def test_meminfo_fields(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       16000000 kB\nMemAvailable:    8000000 kB\n")
    assert meminfo_bytes("MemAvailable", meminfo=meminfo) == 8_000_000 * 1024
    assert meminfo_bytes("SwapTotal", meminfo=meminfo) is None
    assert meminfo_bytes("MemTotal", meminfo=tmp_path / "none") is None


def test_bf16_is_fast_only_with_native_instructions(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("model name\t: Some CPU\nflags\t\t: fpu sse avx2 avx512f amx_bf16\n")
    assert cpu_fast_dtypes(cpu_flags(cpuinfo=cpuinfo)) == ("float32", "bfloat16")
    assert cpu_name(cpuinfo=cpuinfo) == "Some CPU"
    assert cpu_fast_dtypes(frozenset({"avx2", "avx512f"})) == ("float32",)
    assert "float16" not in cpu_fast_dtypes(frozenset({"avx512_fp16", "avx512_bf16"}))


def test_fingerprint_is_stable_and_ignores_free_memory_and_threads() -> None:
    info = synthetic.device()
    assert info.fingerprint == synthetic.device().fingerprint
    assert replace(info, free_memory_bytes=1, threads=7).fingerprint == info.fingerprint
    assert synthetic.device(name="Other CPU").fingerprint != info.fingerprint
    assert type(info).from_dict(info.to_dict()) == info


def test_discover_the_cpu() -> None:
    info = discover("cpu", threads=1)
    assert info.kind is DeviceKind.CPU
    assert info.threads == 1
    assert info.llc_bytes > 0
    assert info.fast_dtypes[0] == "float32"
    assert "float16" not in info.fast_dtypes


def test_an_unknown_device_is_refused() -> None:
    with pytest.raises(DeviceUnavailableError, match="cpu, cuda or mps"):
        resolve_kind("tpu")


def test_a_missing_accelerator_is_refused() -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(DeviceUnavailableError, match="--device cpu"):
        resolve_kind("cuda")
