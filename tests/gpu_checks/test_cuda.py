"""Checks that need a CUDA device; skipped cleanly without one."""

from __future__ import annotations

import pytest

from gpu_checks.device import DeviceKind, discover
from gpu_checks.plan import SMOKE
from gpu_checks.runner import Runner

pytestmark = pytest.mark.cuda


@pytest.fixture(autouse=True, scope="module")
def _needs_cuda() -> None:
    # Asked when a test here runs, not at collection: importing torch costs seconds in every process
    # that collects the suite (each parallel worker does).
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")


def test_discover_cuda_reports_l2_and_tensor_core_dtypes() -> None:
    info = discover("cuda")
    assert info.kind is DeviceKind.CUDA
    assert info.llc_source == "CUDA L2"
    assert info.free_memory_bytes is not None and info.free_memory_bytes > 0
    assert "float16" in info.fast_dtypes


def test_a_smoke_run_on_cuda() -> None:
    report = Runner().run(SMOKE, device="cuda")
    assert report.errors == {}
    assert report.device.kind is DeviceKind.CUDA
    assert report.mem_bandwidth and report.mem_bandwidth > 0
    assert report.matmul and set(report.matmul.peak_flops_by_dtype) == set(report.device.fast_dtypes)
