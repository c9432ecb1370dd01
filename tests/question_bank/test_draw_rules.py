"""Draws an interviewer would pose: a draw breaking a rule is drawn again, else the template is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from question_bank import GenerationError, generate, load_bank, load_models
from question_bank.draw_rules import bf16_kv_bytes_per_token, draw_issue, rules_of
from question_bank.generation import draw_values
from question_bank.scenarios import scenario_values, step_view
from question_bank.templates import Template

TEMPLATE = """templates:
  - id: {id}
    checklist: kv-cache
    kind: numeric
    difficulty: 1
    title: A draw
    prompt: "{prompt}"
    params:
      model: {{preset: models, ids: [{model}]}}
      gpu: {{preset: hardware, ids: [{gpu}]}}
      context: {{choice: [{context}]}}
      chips: {{choice: [{chips}]}}
    answer:
      call: {call}
      with: {with_}
      unit: ms
    explanation: Why.
    references: [kipply]
"""
TPOT = "time_per_output_token"
TPOT_WITH = (
    "{n_params: model.n_params, bytes_per_param: 2, mem_bandwidth: gpu.mem_bandwidth,"
    " peak_flops: gpu.peak_flops, batch_size: 1, context_len: context, kv_bytes_per_token: 131072,"
    " n_chips: chips}"
)
CASES = {
    "over-maximum": ("llama2_7b", "h100_sxm", 8192, 1, "a context of 8,192 beyond Llama-2-7B's 4,096"),
    "over-window": ("mistral_7b", "h100_sxm", 16384, 1, "beyond Mistral-7B-v0.1's sliding window of 4,096"),
    "heads": ("qwen25_7b", "h100_sxm", 4096, 8, "28 query and 4 KV heads split over 8 chips"),
    "pcie": ("llama3_70b", "a100_80gb_pcie", 4096, 4, "tensor parallelism over NVIDIA A100 80GB PCIe"),
    "bf16": ("llama2_7b", "v100_sxm2", 2048, 1, "bf16 on NVIDIA V100 SXM2 16GB, which has none"),
    "a10g": ("llama2_7b", "a10g", 2048, 1, "unverified peak in a question that uses it"),
    "fits": ("llama31_405b", "h100_sxm", 4096, 2, "Llama-3.1-405B does not fit on 2 × NVIDIA H100"),
}


def _bank(tmp_path: Path, name: str, prompt: str = "{model.name} in bf16 on {chips} × {gpu.name}?") -> object:
    model, gpu, context, chips, _ = CASES[name]
    text = TEMPLATE.format(
        id=f"draw-{name}",
        prompt=prompt,
        model=model,
        gpu=gpu,
        context=context,
        chips=chips,
        call=TPOT,
        with_=TPOT_WITH,
    )
    (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return load_bank([tmp_path], include_shipped=False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_draw_no_interviewer_would_pose_is_refused_by_name(tmp_path: Path, name: str) -> None:
    bank = _bank(tmp_path, name)
    with pytest.raises(GenerationError, match="draw rules") as caught:
        generate(bank.get(f"draw-{name}"), 0)  # type: ignore[attr-defined]
    assert CASES[name][-1] in str(caught.value)


def test_a_prompt_that_says_pcie_may_split_over_pcie(tmp_path: Path) -> None:
    bank = _bank(tmp_path, "pcie", prompt="{model.name} in bf16 on {chips} × {gpu.name}, linked over PCIe?")
    assert generate(bank.get("draw-pcie"), 0).answer  # type: ignore[attr-defined]


def test_no_shipped_draw_breaks_a_rule() -> None:
    bank = load_bank()
    for template in bank.templates:
        rules = rules_of(template)
        for seed in range(40):
            assert draw_issue(rules, draw_values(template, seed)) is None, (template.id, seed)
    for scenario in bank.scenarios:
        rules = rules_of(step_view(scenario, 0))
        for seed in range(40):
            assert draw_issue(rules, scenario_values(scenario, seed)) is None, (scenario.id, seed)


def test_the_rules_read_what_the_bindings_mean() -> None:
    template = load_bank().get("tpot-with-kv-read")
    rules = rules_of(template)
    assert rules.contexts == (("context",),) and rules.chips == ("chips",)
    assert rules.models == ("model",) and rules.uses_peak == ("gpu",) and rules.serves == ("model",)


LATENT = """templates:
  - id: {id}
    checklist: kv-cache
    kind: numeric
    difficulty: 1
    title: KV bytes per token
    prompt: "{prompt}"
    params:
      model: {{preset: models, ids: [{ids}]}}
    answer:
      call: {call}
      with: {with_}
      unit: KB
    explanation: Why.
    references: [kipply]
"""
STANDARD_KV = (
    "kv_cache_bytes_per_token",
    "{n_layers: model.n_layers, n_kv_heads: model.n_kv_heads, head_dim: model.head_dim,"
    " bytes_per_element: 2}",
)
MLA_KV = (
    "mla_kv_bytes_per_token",
    "{n_layers: model.n_layers, kv_lora_rank: model.kv_lora_rank, rope_head_dim: model.qk_rope_head_dim,"
    " bytes_per_element: 2}",
)


def _latent_bank(tmp_path: Path, ids: str, call: tuple[str, str], prompt: str = "{model.name}?") -> object:
    text = LATENT.format(id="latent", prompt=prompt, ids=ids, call=call[0], with_=call[1])
    (tmp_path / "latent.yaml").write_text(text, encoding="utf-8")
    return load_bank([tmp_path], include_shipped=False)


def test_standard_kv_is_never_computed_for_a_latent_attention_model(tmp_path: Path) -> None:
    bank = _latent_bank(tmp_path, "deepseek_v3", STANDARD_KV)
    with pytest.raises(GenerationError, match="draw rules") as caught:
        generate(bank.get("latent"), 0)  # type: ignore[attr-defined]
    assert "DeepSeek-V3's latent attention (MLA)" in str(caught.value)


def test_a_template_over_any_model_that_reads_kv_heads_draws_no_latent_model(tmp_path: Path) -> None:
    bank = _latent_bank(tmp_path, "llama3_8b, deepseek_v3", STANDARD_KV)
    drawn = {generate(bank.get("latent"), seed).params["model"] for seed in range(30)}  # type: ignore[attr-defined]
    assert drawn == {"llama3_8b"}


def test_a_prompt_that_shows_kv_heads_counts_as_reading_them(tmp_path: Path) -> None:
    bank = _latent_bank(tmp_path, "deepseek_v3", MLA_KV, prompt="{model.name}: {model.n_kv_heads} KV heads?")
    assert rules_of(bank.get("latent")).standard_kv == ("model",)  # type: ignore[attr-defined]


def test_latent_kv_may_draw_the_latent_model(tmp_path: Path) -> None:
    bank = _latent_bank(tmp_path, "deepseek_v3", MLA_KV)
    problem = generate(bank.get("latent"), 0)  # type: ignore[attr-defined]
    assert problem.answer == 70_272  # 61 · (512 + 64) · 2 B (DeepSeek-V3 config.json)


def test_the_fit_rule_counts_a_latent_models_own_kv() -> None:
    assert bf16_kv_bytes_per_token(load_models()["deepseek_v3"]) == 70_272
    assert bf16_kv_bytes_per_token(load_models()["llama3_8b"]) == 131_072


def test_validate_refuses_a_template_that_computes_standard_kv_for_a_latent_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from question_bank.__main__ import main

    _latent_bank(tmp_path, "deepseek_v3", STANDARD_KV)
    assert main(["validate", str(tmp_path / "latent.yaml")]) == 1
    assert "DeepSeek-V3's latent attention (MLA)" in capsys.readouterr().out


FORMAT_TEMPLATE = """templates:
  - id: draw-format
    checklist: decode-weight-read
    kind: numeric
    difficulty: 1
    title: A format on a part
    prompt: "{{model.name}} with {{dtype}} {prompt} on {{gpu.name}}?"
    params:
      model: {{preset: models, ids: [llama2_7b]}}
      gpu: {{preset: hardware, ids: [{gpu}]}}
      dtype: {{dtype: [{dtype}]}}
    answer:
      call: {call}
      with: {with_}
      unit: "{unit}"
    explanation: Why.
    references: [kipply]
"""
#: The format the matmuls compute in: it sets the elements a matmul moves under the part's peak.
COMPUTED = {
    "prompt": "matmuls",
    "call": "matmul_min_square_dim",
    "with_": "{peak_flops: gpu.peak_flops, mem_bandwidth: gpu.mem_bandwidth, bytes_per_element: dtype.bytes}",
    "unit": "",
}
#: Formats only stored: weights (W8A16, converted to 16-bit before the matmul) and a KV cache.
STORED_WEIGHTS = {
    "prompt": "weights",
    "call": "weight_bytes",
    "with_": "{n_params: model.n_params, bytes_per_param: dtype.bytes}",
    "unit": "GB",
}
STORED_KV = {
    "prompt": "KV cache",
    "call": "kv_cache_bytes_per_token",
    "with_": "{n_layers: model.n_layers, n_kv_heads: model.n_kv_heads, head_dim: model.head_dim,"
    " bytes_per_element: dtype.bytes}",
    "unit": "KiB",
}


def _format_template(tmp_path: Path, gpu: str, dtype: str, use: dict[str, str]) -> Template:
    text = FORMAT_TEMPLATE.format(gpu=gpu, dtype=dtype, **use)
    (tmp_path / "format.yaml").write_text(text, encoding="utf-8")
    return load_bank([tmp_path], include_shipped=False).get("draw-format")


@pytest.mark.parametrize(
    ("gpu", "dtype", "refusal"),
    [
        ("a100_80gb_sxm", "fp8", "fp8 compute on NVIDIA A100 80GB SXM4, which has no FP8 tensor cores"),
        ("t4", "fp8", "fp8 compute on NVIDIA T4 16GB, which has no FP8 tensor cores"),
        ("v100_sxm2", "int8", "int8 compute on NVIDIA V100 SXM2 16GB, which has no INT8 tensor math"),
        ("h100_sxm", "fp8", None),
        ("h100_nvl", "fp8", None),  # stated: a Hopper part whose FP8 peak is not listed
        ("a10", "int8", None),  # stated: Ampere INT8 with no peak listed
        ("t4", "int8", None),  # its INT8 peak is listed
    ],
)
def test_a_format_is_computed_in_only_on_a_part_that_has_it(
    tmp_path: Path, gpu: str, dtype: str, refusal: str | None
) -> None:
    template = _format_template(tmp_path, gpu, dtype, COMPUTED)
    assert rules_of(template).compute_dtypes == ("dtype",)
    if refusal is None:
        assert generate(template, 0).params["dtype"] == dtype
        return
    with pytest.raises(GenerationError, match="draw rules") as caught:
        generate(template, 0)
    assert refusal in str(caught.value)


@pytest.mark.parametrize(
    ("gpu", "dtype", "use"),
    [
        ("v100_sxm2", "int8", STORED_WEIGHTS),  # weight-only int8 (W8A16) on a V100
        ("a100_80gb_sxm", "fp8", STORED_WEIGHTS),  # weight-only fp8 on an A100
        ("a100_80gb_sxm", "fp8", STORED_KV),  # an fp8 KV cache on an A100
        ("t4", "fp8", STORED_KV),
    ],
)
def test_a_format_only_stored_is_drawn_on_any_part(
    tmp_path: Path, gpu: str, dtype: str, use: dict[str, str]
) -> None:
    template = _format_template(tmp_path, gpu, dtype, use)
    assert rules_of(template).compute_dtypes == ()
    assert generate(template, 0).params["dtype"] == dtype


def test_a_format_named_only_in_the_prompt_is_read_as_computed_in(tmp_path: Path) -> None:
    unbound = {**STORED_WEIGHTS, "with_": "{n_params: model.n_params, bytes_per_param: 2}"}
    template = _format_template(tmp_path, "a100_80gb_sxm", "fp8", unbound)
    with pytest.raises(GenerationError, match="fp8 compute on NVIDIA A100 80GB SXM4"):
        generate(template, 0)


def test_which_parts_have_fp8_and_int8() -> None:
    from question_bank import load_hardware

    hardware = load_hardware()
    fp8 = {name for name, gpu in hardware.items() if gpu.has_fp8}
    assert fp8 == {"h100_sxm", "h100_pcie", "h100_nvl", "h200_sxm", "l4", "rtx_4090", "mi300x"}
    assert {name for name, gpu in hardware.items() if not gpu.has_int8} == {"v100_sxm2"}
