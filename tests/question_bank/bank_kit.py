"""What the question-bank engine tests share: a tiny preset catalog and the fixture folders."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from question_bank.catalog import PresetCatalog

HERE = Path(__file__).parent
GOOD = HERE / "fixtures" / "good"
BROKEN = HERE / "broken"


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    n_params: float


@dataclass(frozen=True)
class Gpu:
    id: str
    name: str
    kind: str
    memory_bytes: float
    mem_bandwidth: float
    peak_flops: float
    peak_flops_sparse: float | None = None


CATALOG = PresetCatalog(
    lists={
        "models": {
            "small": Model("small", "Small-1B", 16, 16, 4, 64, 1.0e9),
            "mid": Model("mid", "Mid-7B", 32, 32, 32, 128, 7.0e9),
            "large": Model("large", "Large-70B", 80, 64, 8, 128, 7.0e10),
        },
        "hardware": {
            "fast": Gpu("fast", "Fast GPU", "gpu", 8.0e10, 3.35e12, 9.89e14, 1.979e15),
            "slow": Gpu("slow", "Slow GPU", "gpu", 4.0e10, 1.555e12, 3.12e14, 6.24e14),
            "nosparse": Gpu("nosparse", "Old GPU", "gpu", 3.2e10, 9.0e11, 1.25e14),
            "big": Gpu("big", "Big TPU", "tpu", 1.6e10, 8.19e11, 1.97e14, 3.94e14),
        },
    }
)

# Every draw overflows: the answer is infinite, which "answer > 0" alone lets through.
ALWAYS_INFINITE = """templates:
  - id: always-infinite
    checklist: ops-byte-threshold
    kind: numeric
    difficulty: 1
    title: Overflow
    prompt: "{flops} FLOPs at {peak} FLOP/s take how long?"
    params:
      flops: {float: {low: 1.0e+300, high: 2.0e+300}}
      peak: {float: {low: 1.0e-300, high: 2.0e-300}}
    answer:
      call: compute_time
      with: {flops: flops, peak_flops: peak}
      unit: s
    explanation: FLOPs over FLOP/s.
    references: [Horace He]
"""
