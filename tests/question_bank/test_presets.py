"""Hardware and model presets: the bundled files load, carry the published figures, and bad files
are refused with a message that names the file, the preset, the field and what to write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from grader import estimator as est
from grader.estimator.derivation import recording
from question_bank import Accelerator, ModelConfig, load_hardware, load_models
from question_bank.errors import BankError

HARDWARE_IDS = {
    "a100_40gb_sxm", "a100_80gb_sxm", "a100_40gb_pcie", "a100_80gb_pcie", "h100_sxm", "h100_pcie", "h100_nvl",
    "h200_sxm", "l4", "a10", "a10g", "t4", "v100_sxm2", "rtx_4090", "mi300x", "tpu_v5e",
}  # fmt: skip
MODEL_IDS = {
    "llama2_7b", "llama2_13b", "llama2_70b", "llama3_8b", "llama3_70b", "llama31_405b", "mistral_7b",
    "mixtral_8x7b", "falcon_40b", "qwen25_7b", "gemma2_9b", "gpt3_175b", "llama31_8b", "deepseek_v3",
}  # fmt: skip

# A valid accelerator and model to break one field at a time (figures from figures.md).
GOOD_GPU: dict[str, Any] = {
    "id": "test_gpu",
    "name": "Test GPU",
    "kind": "gpu",
    "vendor": "Test",
    "memory_bytes": 4.0e10,
    "mem_bandwidth": 1.555e12,
    "peak_flops": 3.12e14,
    "peak_flops_sparse": 6.24e14,
    "peak_int8_ops": 6.24e14,
    "sources": ["A100 datasheet"],
}
GOOD_MODEL: dict[str, Any] = {
    "id": "test_model",
    "name": "Test 13B",
    "n_layers": 40,
    "d_model": 5120,
    "n_heads": 40,
    "n_kv_heads": 40,
    "head_dim": 128,
    "d_ff": 13824,
    "vocab_size": 32000,
    "n_params": 13_015_864_320,
    "gated_mlp": True,
    "tied_embeddings": False,
    "max_context_tokens": 4096,
    "sources": ["Llama-2-13b-hf config.json"],
}
MIXTRAL_SHAPE: dict[str, Any] = {
    **GOOD_MODEL,
    "n_layers": 32,
    "d_model": 4096,
    "n_heads": 32,
    "n_kv_heads": 8,
    "d_ff": 14336,
    "n_params": 46_702_792_704,
    "n_active_params": 12_879_925_248,
    "n_experts": 8,
    "n_experts_active": 2,
}


def write_yaml(tmp_path: Path, key: str, *entries: dict[str, Any]) -> Path:
    # A fresh name per file: loading is cached per file.
    path = tmp_path / f"{key}-{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(yaml.safe_dump({key: list(entries)}), encoding="utf-8")
    return path


def hardware_error(tmp_path: Path, **changes: Any) -> str:
    path = write_yaml(tmp_path, "accelerators", {**GOOD_GPU, **changes})
    with pytest.raises(BankError) as caught:
        load_hardware(path)
    return str(caught.value)


def model_error(tmp_path: Path, base: dict[str, Any] = GOOD_MODEL, **changes: Any) -> str:
    entry = {key: value for key, value in {**base, **changes}.items() if value is not None}
    path = write_yaml(tmp_path, "models", entry)
    with pytest.raises(BankError) as caught:
        load_models(path)
    return str(caught.value)


# --- the bundled presets ------------------------------------------------------------------------


def test_bundled_presets_have_the_contract_ids() -> None:
    hardware, models = load_hardware(), load_models()
    assert set(hardware) == HARDWARE_IDS
    assert set(models) == MODEL_IDS
    assert all(isinstance(gpu, Accelerator) and gpu.id == key for key, gpu in hardware.items())
    assert all(isinstance(model, ModelConfig) and model.id == key for key, model in models.items())


def test_every_preset_cites_a_source() -> None:
    presets = [*load_hardware().values(), *load_models().values()]
    assert all(preset.sources and all(source.strip() for source in preset.sources) for preset in presets)


@pytest.mark.parametrize(
    ("preset_id", "field", "value"),
    [
        ("a100_40gb_sxm", "mem_bandwidth", 1.555e12),  # datasheet, not kipply's rounded 1.5e12
        ("a100_40gb_sxm", "peak_flops", 312e12),
        ("a100_80gb_sxm", "mem_bandwidth", 2.039e12),
        ("h100_sxm", "peak_flops", 989e12),  # dense; 1,979 is the sparse headline
        ("h100_sxm", "peak_flops_sparse", 1979e12),
        ("h200_sxm", "memory_bytes", 141e9),
        ("t4", "peak_flops", 65e12),
        ("rtx_4090", "peak_flops", 165.2e12),
        ("mi300x", "mem_bandwidth", 5.3e12),
        ("tpu_v5e", "peak_flops", 197e12),
        ("tpu_v5e", "peak_int8_ops", 394e12),
        # Non-tensor fp32 (figures.md, fp32_non_tensor_tflops; datasheets and spec tables).
        ("a100_40gb_sxm", "peak_flops_vector", 19.5e12),
        ("a100_80gb_pcie", "peak_flops_vector", 19.5e12),
        ("h100_sxm", "peak_flops_vector", 67e12),
        ("h100_pcie", "peak_flops_vector", 51e12),
        ("h200_sxm", "peak_flops_vector", 67e12),
        ("v100_sxm2", "peak_flops_vector", 15.7e12),
        ("l4", "peak_flops_vector", 30.3e12),
        ("t4", "peak_flops_vector", 8.1e12),
        ("a10", "peak_flops_vector", 31.2e12),
        ("rtx_4090", "peak_flops_vector", 82.6e12),
        # Interconnect per direction: half the bidirectional figures NVIDIA and Google quote.
        ("a100_40gb_sxm", "interconnect_bandwidth", 600e9 / 2),
        ("h100_sxm", "interconnect_bandwidth", 900e9 / 2),
        ("h200_sxm", "interconnect_bandwidth", 900e9 / 2),
        ("v100_sxm2", "interconnect_bandwidth", 300e9 / 2),
        ("h100_pcie", "interconnect_bandwidth", 128e9 / 2),
        ("l4", "interconnect_bandwidth", 64e9 / 2),
        ("mi300x", "interconnect_bandwidth", 7 * 128e9 / 2),
        ("tpu_v5e", "interconnect_bandwidth", 400e9 / 2),
    ],
)
def test_hardware_figures_match_the_reference(preset_id: str, field: str, value: float) -> None:
    assert getattr(load_hardware()[preset_id], field) == pytest.approx(value)


def test_dense_peaks_are_not_sparse_headlines() -> None:
    for gpu in load_hardware().values():
        if gpu.peak_flops_sparse is not None:
            assert gpu.peak_flops_sparse == pytest.approx(2 * gpu.peak_flops, rel=0.01), gpu.id


def test_tpu_v5e_preset_gives_the_scaling_book_critical_batch() -> None:
    # The preset keeps Google's 819 GB/s (240.5); the book's 240 comes from 8.2e11 (240.2).
    tpu = load_hardware()["tpu_v5e"]
    critical = est.decode_critical_batch_size(
        peak_flops=tpu.peak_flops, mem_bandwidth=tpu.mem_bandwidth, bytes_per_param=2
    )
    assert critical == pytest.approx(240, abs=1)


def test_every_nvidia_part_has_a_vector_peak_and_an_interconnect() -> None:
    # Scenario questions about element-wise ops and tensor parallelism may draw any NVIDIA part.
    for gpu in load_hardware().values():
        assert gpu.interconnect_bandwidth is not None and gpu.interconnect, gpu.id
        if gpu.vendor == "NVIDIA":
            assert gpu.peak_flops_vector is not None, gpu.id


def test_vector_peaks_sit_far_below_the_tensor_peaks() -> None:
    # The tensor cores are why a matmul's ridge is ~10x an element-wise kernel's (A100: 200 vs 12.5 FLOP/B).
    a100 = load_hardware()["a100_40gb_sxm"]
    assert a100.peak_flops_vector is not None
    assert a100.peak_flops_vector / a100.mem_bandwidth == pytest.approx(12.54, abs=0.01)
    for gpu in load_hardware().values():
        if gpu.peak_flops_vector is not None:
            assert gpu.peak_flops_vector <= gpu.peak_flops / 2, gpu.id


@pytest.mark.parametrize(
    ("preset_id", "words"),
    [
        ("a100_40gb_sxm", ["1.5 TB/s", "1,555"]),
        ("h100_sxm", ["900GB/s", "450 GB/s per direction"]),
        ("h100_nvl", ["60 TFLOP/s", "gpu.blog lists 67"]),
        ("mi300x", ["163.4", "81.7"]),
        ("tpu_v5e", ["400 GB/s", "1600 Gbps", "4.5e10"]),
        ("h100_sxm", ["1e15", "989"]),
        ("tpu_v5e", ["8.1e11", "8.2e11", "819"]),
        ("a10g", ["UNVERIFIED", "Kept 70"]),
        ("t4", ["no bf16", "fp16"]),
        ("rtx_4090", ["fp32 accumulate", "fp16 accumulate"]),
    ],
)
def test_hardware_notes_record_the_disagreements(preset_id: str, words: list[str]) -> None:
    notes = " ".join(load_hardware()[preset_id].notes)
    assert all(word in notes for word in words)


def test_model_notes_record_the_disagreements() -> None:
    models = load_models()
    assert "16" in " ".join(models["llama31_405b"].notes)
    assert "head_dim" in " ".join(models["gemma2_9b"].notes)


@pytest.mark.parametrize(
    ("preset_id", "total"),
    [
        # total_params_computed in figures.md (counted from each config.json, not a model card).
        ("llama2_7b", 6_738_415_616),
        ("llama2_13b", 13_015_864_320),
        ("llama3_8b", 8_030_261_248),
        ("mixtral_8x7b", 46_702_792_704),
        ("gpt3_175b", 174_604_259_328),
    ],
)
def test_model_parameter_counts_match_the_reference(preset_id: str, total: int) -> None:
    assert load_models()[preset_id].n_params == total


def test_mixtral_active_parameters() -> None:
    mixtral = load_models()["mixtral_8x7b"]
    assert mixtral.n_active_params == 12_879_925_248
    assert (mixtral.n_experts, mixtral.n_experts_active) == (8, 2)


def test_llama2_13b_preset_gives_819200_kv_bytes_per_token() -> None:
    model = load_models()["llama2_13b"]
    per_token = est.kv_cache_bytes_per_token(
        n_layers=model.n_layers, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim, bytes_per_element=2
    )
    assert per_token == 819_200


def test_presets_are_frozen_and_shared() -> None:
    first = load_hardware()
    first.pop("t4")
    second = load_hardware()
    assert "t4" in second  # callers get their own dict
    assert second["a10"] is load_hardware()["a10"]  # the presets themselves are cached
    with pytest.raises(ValidationError):
        second["a10"].peak_flops = 1.0


def test_loading_records_no_derivation_steps(tmp_path: Path) -> None:
    path = write_yaml(tmp_path, "models", GOOD_MODEL)
    with recording() as steps:
        load_models(path)
    assert steps == []


def test_a_custom_file_loads(tmp_path: Path) -> None:
    gpus = load_hardware(write_yaml(tmp_path, "accelerators", GOOD_GPU))
    assert gpus["test_gpu"].mem_bandwidth == 1.555e12
    models = load_models(write_yaml(tmp_path, "models", MIXTRAL_SHAPE))
    assert models["test_model"].n_active_params == 12_879_925_248


def test_a_noted_head_dim_mismatch_loads(tmp_path: Path) -> None:
    # Gemma-2's shape: 16 heads of 256 against d_model 3584.
    gemma = {**GOOD_MODEL, "n_layers": 42, "d_model": 3584, "n_heads": 16, "n_kv_heads": 8, "head_dim": 256}
    gemma |= {"d_ff": 14336, "vocab_size": 256000, "tied_embeddings": True, "n_params": 9_241_705_984}
    assert "head_dim" in model_error(tmp_path, gemma)
    noted = {**gemma, "notes": ["head_dim is 256, not d_model / n_heads"]}
    assert load_models(write_yaml(tmp_path, "models", noted))["test_model"].head_dim == 256


# --- refusals -----------------------------------------------------------------------------------


def test_sparse_below_dense_is_refused(tmp_path: Path) -> None:
    message = hardware_error(tmp_path, peak_flops_sparse=1.56e14)
    assert "accelerators-0.yaml" in message
    assert "[test_gpu]" in message
    assert "peak_flops_sparse" in message
    assert "write instead" in message


def test_int8_below_dense_is_refused(tmp_path: Path) -> None:
    assert "peak_int8_ops" in hardware_error(tmp_path, peak_int8_ops=1.0e14)


def test_a_vector_peak_at_or_above_the_tensor_peak_is_refused(tmp_path: Path) -> None:
    # The usual slip: the dense tensor figure copied into the vector field.
    message = hardware_error(tmp_path, peak_flops_vector=3.12e14)
    assert "peak_flops_vector" in message
    assert "non-tensor fp32" in message


def test_a_bidirectional_figure_above_memory_bandwidth_is_refused(tmp_path: Path) -> None:
    message = hardware_error(tmp_path, interconnect="NVLink", interconnect_bandwidth=1.6e12)
    assert "interconnect_bandwidth" in message
    assert "ONE direction" in message


@pytest.mark.parametrize(
    "changes",
    [{"interconnect": "NVLink 3"}, {"interconnect_bandwidth": 3.0e11}],
)
def test_interconnect_name_and_bandwidth_come_together(tmp_path: Path, changes: dict[str, Any]) -> None:
    assert "interconnect" in hardware_error(tmp_path, **changes)


def test_a_good_interconnect_and_vector_peak_load(tmp_path: Path) -> None:
    link = {"interconnect": "NVLink 3", "interconnect_bandwidth": 3e11}
    entry = {**GOOD_GPU, "peak_flops_vector": 1.95e13, **link}
    gpu = load_hardware(write_yaml(tmp_path, "accelerators", entry))["test_gpu"]
    assert (gpu.peak_flops_vector, gpu.interconnect_bandwidth) == (1.95e13, 3e11)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("mem_bandwidth", 1.555),  # TB/s instead of bytes/s
        ("mem_bandwidth", 1.555e15),
        ("peak_flops", 312.0),  # TFLOP/s instead of FLOP/s
        ("peak_flops", 3.12e18),
        ("memory_bytes", -4.0e10),
        ("memory_bytes", 40.0),  # GB instead of bytes
        ("peak_flops_vector", 19.5),  # TFLOP/s instead of FLOP/s
        ("interconnect_bandwidth", 600.0),  # GB/s instead of bytes/s
    ],
)
def test_values_out_of_range_are_refused(tmp_path: Path, field: str, value: float) -> None:
    message = hardware_error(tmp_path, **{field: value})
    assert field in message
    assert "e+" in message  # the hint shows how to write the number


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"kind": "npu"}, "kind"),
        ({"sources": []}, "sources"),
        ({"bandwidth": 1e12}, "bandwidth"),  # misspelt key
        ({"mem_bandwidth": "1.5 TB/s"}, "mem_bandwidth"),
        ({"id": "A100 SXM"}, "id"),
    ],
)
def test_malformed_fields_are_refused(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    assert field in hardware_error(tmp_path, **changes)


def test_every_mistake_is_reported_at_once(tmp_path: Path) -> None:
    bad_sparse = {**GOOD_GPU, "id": "gpu_one", "peak_flops_sparse": 1e12}
    bad_kind = {**GOOD_GPU, "id": "gpu_two", "kind": "fpga"}
    path = write_yaml(tmp_path, "accelerators", bad_sparse, bad_kind, GOOD_GPU)
    with pytest.raises(BankError) as caught:
        load_hardware(path)
    assert {issue.template_id for issue in caught.value.issues} == {"gpu_one", "gpu_two"}


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    path = write_yaml(tmp_path, "accelerators", GOOD_GPU, GOOD_GPU)
    with pytest.raises(BankError, match="used twice"):
        load_hardware(path)


@pytest.mark.parametrize(
    "text",
    [
        "accelerators: {a100: {}}\n",  # a mapping, not a list
        "gpus: []\n",  # the wrong top-level key
        "accelerators: [\n",  # not YAML
        "accelerators: !!python/object/apply:os.system ['true']\n",  # safe_load refuses tags
    ],
)
def test_malformed_files_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "hardware.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BankError, match=r"hardware\.yaml"):
        load_hardware(path)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BankError, match="cannot be read"):
        load_hardware(tmp_path / "absent.yaml")


def test_parameter_count_off_by_more_than_2_percent_is_refused(tmp_path: Path) -> None:
    # 13e9 is the published "13B"; within 2 % of the config's 13.016e9, so it loads...
    assert load_models(write_yaml(tmp_path, "models", {**GOOD_MODEL, "n_params": 13_000_000_000}))
    # ...but a count for the wrong MLP (2 · d · d_ff instead of 3 · d · d_ff) does not.
    message = model_error(tmp_path, n_params=10_184_704_000)
    assert "n_params" in message
    assert "transformer_params" in message


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"n_active_params": None}, "n_active_params"),  # a mixture of experts needs it
        ({"n_active_params": 46_702_792_704}, "n_active_params"),  # total given as active
        ({"n_experts_active": 9}, "n_experts_active"),
        ({"n_kv_heads": 12}, "n_kv_heads"),  # does not divide 32 query heads
    ],
)
def test_inconsistent_mixture_configs_are_refused(
    tmp_path: Path, changes: dict[str, Any], field: str
) -> None:
    assert field in model_error(tmp_path, MIXTRAL_SHAPE, **changes)


def test_active_params_on_a_dense_model_are_refused(tmp_path: Path) -> None:
    assert "n_active_params" in model_error(tmp_path, n_active_params=13_015_864_320)


def test_head_dim_inconsistent_without_a_note_is_refused(tmp_path: Path) -> None:
    message = model_error(tmp_path, head_dim=64, n_params=10_000_000_000)
    assert "head_dim" in message


def test_every_shipped_model_states_its_maximum_context() -> None:
    models = load_models()
    assert all(model.max_context_tokens >= 2048 for model in models.values())
    # The sliding-window models the configs name, and no others.
    windowed = {model_id for model_id, model in models.items() if model.sliding_window_tokens}
    assert windowed == {"mistral_7b", "gemma2_9b"}
    assert all("max_context_tokens" in " ".join(model.notes) for model in models.values())


def test_a_model_without_its_maximum_context_is_refused(tmp_path: Path) -> None:
    base = {key: value for key, value in GOOD_MODEL.items() if key != "max_context_tokens"}
    assert "max_context_tokens" in model_error(tmp_path, base)


def test_a_window_as_long_as_the_context_is_refused(tmp_path: Path) -> None:
    assert "sliding_window_tokens" in model_error(tmp_path, sliding_window_tokens=4096)
