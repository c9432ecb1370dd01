"""Dense FP8 peaks and the 128k-context Llama-3.1-8B: the figures of the reference, and a copied sparse
FP8 headline refused with what to write."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grader import estimator as est
from question_bank import load_hardware, load_models
from question_bank.errors import BankError

GOOD_GPU = {
    "id": "test_gpu", "name": "Test GPU", "kind": "gpu", "vendor": "Test", "memory_bytes": 8.0e10,
    "mem_bandwidth": 3.35e12, "peak_flops": 9.89e14, "sources": ["H100 spec table"],
}  # fmt: skip

# Dense FP8 TFLOP/s, from /work/shared/reference/figures.md.
FP8_REFERENCE = {"h100_sxm": 1979, "h100_pcie": 1513, "h200_sxm": 1979, "l4": 242.5, "mi300x": 2614.9}


@pytest.mark.parametrize(("preset_id", "tflops"), sorted(FP8_REFERENCE.items()))
def test_fp8_peaks_match_the_reference(preset_id: str, tflops: float) -> None:
    assert load_hardware()[preset_id].peak_flops_fp8 == pytest.approx(tflops * 1e12)


def test_fp8_compute_keeps_the_critical_batch_and_w4a16_divides_it_by_four() -> None:
    # B* = peak · bytes per param / (2 · bw): FP8 doubles the peak and halves the bytes.
    h100 = load_hardware()["h100_sxm"]
    assert h100.peak_flops_fp8 is not None
    bf16 = est.decode_critical_batch_size(
        peak_flops=h100.peak_flops, mem_bandwidth=h100.mem_bandwidth, bytes_per_param=2
    )
    fp8 = est.decode_critical_batch_size(
        peak_flops=h100.peak_flops_fp8, mem_bandwidth=h100.mem_bandwidth, bytes_per_param=1
    )
    w4a16 = est.decode_critical_batch_size(
        peak_flops=h100.peak_flops, mem_bandwidth=h100.mem_bandwidth, bytes_per_param=0.5
    )
    assert fp8 == pytest.approx(bf16, rel=0.01)
    assert w4a16 == pytest.approx(bf16 / 4)


def test_parts_without_fp8_tensor_cores_leave_it_out() -> None:
    hardware = load_hardware()
    assert all(
        hardware[key].peak_flops_fp8 is None for key in ("a100_40gb_sxm", "a100_80gb_sxm", "t4", "v100_sxm2")
    )


def test_a_sparse_fp8_headline_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hw.yaml"
    path.write_text(
        yaml.safe_dump({"accelerators": [{**GOOD_GPU, "peak_flops_fp8": 3.958e15}]}), encoding="utf-8"
    )
    with pytest.raises(BankError) as caught:
        load_hardware(path)
    message = str(caught.value)
    assert "peak_flops_fp8" in message and "DENSE" in message


def test_a_dense_fp8_figure_loads(tmp_path: Path) -> None:
    path = tmp_path / "hw-good.yaml"
    path.write_text(
        yaml.safe_dump({"accelerators": [{**GOOD_GPU, "peak_flops_fp8": 1.979e15}]}), encoding="utf-8"
    )
    assert load_hardware(path)["test_gpu"].peak_flops_fp8 == pytest.approx(1.979e15)


def test_llama31_8b_has_a_128k_context_and_llama3_8b_shape() -> None:
    models = load_models()
    new, old = models["llama31_8b"], models["llama3_8b"]
    assert new.max_context_tokens == 131_072
    assert new.n_params == old.n_params
    kv = est.kv_cache_bytes_per_token(n_layers=new.n_layers, n_kv_heads=new.n_kv_heads, head_dim=new.head_dim,
                                      bytes_per_element=2)  # fmt: skip
    # 32 · 8 · 128 · 2 · 2 B = 131,072 B per token: a full 128k context is 17.2 GB, more than the weights.
    assert kv * new.max_context_tokens == pytest.approx(17.18e9, rel=1e-3)
