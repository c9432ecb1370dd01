"""CUDA device names to hardware.yaml preset ids, and the spec roof."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpu_checks.presets import NAME_PATTERNS, preset_id_for, spec_roof
from question_bank import load_hardware


@pytest.mark.parametrize(
    ("name", "preset_id"),
    [
        ("NVIDIA H200", "h200_sxm"),
        ("NVIDIA H100 80GB HBM3", "h100_sxm"),
        ("NVIDIA H100 PCIe", "h100_pcie"),
        ("NVIDIA H100 NVL", "h100_nvl"),
        ("NVIDIA A100-SXM4-80GB", "a100_80gb_sxm"),
        ("NVIDIA A100-SXM4-40GB", "a100_40gb_sxm"),
        ("NVIDIA A100-PCIE-40GB", "a100_40gb_pcie"),
        ("NVIDIA A100 80GB PCIe", "a100_80gb_pcie"),
        ("NVIDIA A10G", "a10g"),
        ("NVIDIA A10", "a10"),
        ("NVIDIA L4", "l4"),
        ("Tesla T4", "t4"),
        ("Tesla V100-SXM2-32GB", "v100_sxm2"),
        ("NVIDIA GeForce RTX 4090", "rtx_4090"),
        ("AMD Instinct MI300X", "mi300x"),
    ],
)
def test_known_names_match_their_preset(name: str, preset_id: str) -> None:
    assert preset_id_for(name) == preset_id


@pytest.mark.parametrize(
    "name",
    ["NVIDIA H200 NVL", "NVIDIA L40S", "Tesla V100-PCIE-16GB", "Intel(R) Xeon(R) Processor", "Apple MPS"],
)
def test_other_devices_are_measured_only(name: str) -> None:
    assert preset_id_for(name) is None


def test_every_mapped_id_is_a_preset() -> None:
    hardware = load_hardware()
    mapped = {preset_id for _, preset_id in NAME_PATTERNS if preset_id is not None}
    assert mapped <= set(hardware)


def test_spec_roof_of_the_h200_comes_from_the_presets() -> None:
    spec = spec_roof("h200_sxm")
    assert spec is not None
    hardware = load_hardware()["h200_sxm"]
    assert (spec.peak_flops, spec.mem_bandwidth) == (hardware.peak_flops, hardware.mem_bandwidth)


def test_spec_roof_from_an_injected_table() -> None:
    table = {"x1": SimpleNamespace(name="X1", peak_flops=2e12, mem_bandwidth=1e11)}
    spec = spec_roof("x1", hardware=table)
    assert spec is not None
    assert (spec.name, spec.peak_flops, spec.mem_bandwidth) == ("X1", 2e12, 1e11)
    assert spec_roof("missing", hardware=table) is None
    assert spec_roof(None, hardware=table) is None
