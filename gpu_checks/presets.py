"""Which preset in ``hardware.yaml`` a device is, and its spec roof.

CUDA reports marketing names ("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "Tesla T4");
:data:`NAME_PATTERNS` maps them to preset ids, most specific pattern first. A device matching no
pattern (every CPU, Apple MPS, an unlisted GPU) has no spec roof and is shown "measured only".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpu_checks.record import Record
from question_bank import load_hardware

#: (regular expression over the normalised name, preset id or None for a known non-preset part).
#: Normalised: lower case, runs of spaces, hyphens and underscores turned into one space.
NAME_PATTERNS: tuple[tuple[str, str | None], ...] = (
    (r"\bh200 nvl\b", None),  # 600 W PCIe card with other figures than the SXM part
    (r"\bh200\b", "h200_sxm"),
    (r"\bh100 nvl\b", "h100_nvl"),
    (r"\bh100\b.*\bpcie\b", "h100_pcie"),
    (r"\bh100\b", "h100_sxm"),  # "H100 80GB HBM3" and "H100 SXM5" are the SXM part
    (r"\ba100\b.*\b80gb\b.*\bpcie\b|\ba100\b.*\bpcie\b.*\b80gb\b", "a100_80gb_pcie"),
    (r"\ba100\b.*\bpcie\b", "a100_40gb_pcie"),
    (r"\ba100\b.*\b80gb\b", "a100_80gb_sxm"),
    (r"\ba100\b", "a100_40gb_sxm"),
    (r"\ba10g\b", "a10g"),
    (r"\ba10\b", "a10"),
    (r"\bl4\b", "l4"),
    (r"\bt4\b", "t4"),
    (r"\bv100\b.*\bsxm2\b", "v100_sxm2"),
    (r"\brtx 4090\b", "rtx_4090"),
    (r"\bmi300x\b", "mi300x"),
)


@dataclass(frozen=True)
class SpecRoof(Record):
    """The datasheet roof of a preset: dense bf16/fp16 FLOP/s and memory bandwidth in bytes/s.

    ``peak_flops_vector`` is the fp32 peak without tensor cores (FLOP/s), where element-wise
    kernels run; None when the preset does not give it.
    """

    preset_id: str
    name: str
    peak_flops: float
    mem_bandwidth: float
    peak_flops_vector: float | None = None


def normalise_name(name: str) -> str:
    """Lower case with each run of spaces, hyphens and underscores made one space."""
    return re.sub(r"[\s_-]+", " ", name.strip().lower())


def preset_id_for(device_name: str) -> str | None:
    """The preset id for a device name as CUDA reports it, or None when no preset fits."""
    normalised = normalise_name(device_name)
    for pattern, preset_id in NAME_PATTERNS:
        if re.search(pattern, normalised):
            return preset_id
    return None


def spec_roof(preset_id: str | None, *, hardware: Mapping[str, Any] | None = None) -> SpecRoof | None:
    """The spec roof of ``preset_id`` from ``hardware`` (default: ``question_bank.load_hardware()``).

    None when there is no preset id, the presets cannot be loaded, or the id is not among them.
    """
    if preset_id is None:
        return None
    if hardware is None:
        try:
            hardware = load_hardware()
        except (OSError, ValueError):  # presets missing or invalid: measured only
            return None
    accelerator = hardware.get(preset_id)
    if accelerator is None:
        return None
    return SpecRoof(
        preset_id=preset_id,
        name=str(accelerator.name),
        peak_flops=float(accelerator.peak_flops),
        mem_bandwidth=float(accelerator.mem_bandwidth),
        peak_flops_vector=_float_or_none(getattr(accelerator, "peak_flops_vector", None)),
    )


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)
