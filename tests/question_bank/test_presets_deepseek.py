"""DeepSeek-V3's preset: latent attention and shared experts counted, its published figures accepted, a
tampered one refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from question_bank import load_models
from question_bank.errors import BankError

# DeepSeek-V3 config.json (deepseek-ai/DeepSeek-V3) and its report (arXiv:2412.19437, section 4.2).
DEEPSEEK_V3: dict[str, Any] = {
    "id": "test_deepseek",
    "name": "Test DeepSeek-V3",
    "n_layers": 61,
    "d_model": 7168,
    "n_heads": 128,
    "n_kv_heads": 128,
    "head_dim": 128,
    "d_ff": 2048,
    "vocab_size": 129280,
    "n_params": 671_026_419_200,
    "n_active_params": 37_552_282_624,
    "n_experts": 256,
    "n_experts_active": 8,
    "n_shared_experts": 1,
    "n_dense_layers": 3,
    "dense_d_ff": 18432,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "q_lora_rank": 1536,
    "v_head_dim": 128,
    "gated_mlp": True,
    "tied_embeddings": False,
    "max_context_tokens": 163840,
    "sources": ["deepseek-ai/DeepSeek-V3 config.json"],
    "notes": ["head_dim is qk_nope_head_dim."],
}


def load(tmp_path: Path, **changes: Any) -> Any:
    entry = {key: value for key, value in {**DEEPSEEK_V3, **changes}.items() if value is not None}
    path = tmp_path / f"models-{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(yaml.safe_dump({"models": [entry]}), encoding="utf-8")
    return load_models(path)["test_deepseek"]


def refusal(tmp_path: Path, **changes: Any) -> str:
    with pytest.raises(BankError) as caught:
        load(tmp_path, **changes)
    return str(caught.value)


def test_the_shipped_preset_holds_the_reports_figures() -> None:
    model = load_models()["deepseek_v3"]
    # The report: 671B total, 37B activated; README_WEIGHTS.md: 36.6B activated without the 0.9B
    # input embedding (129,280 · 7,168 = 0.93e9).
    assert round(model.n_params / 1e9) == 671
    assert int(model.n_active_params / 1e9) == 37
    assert round((model.n_active_params - 129_280 * 7_168) / 1e8) == 366
    assert (model.kv_lora_rank, model.qk_rope_head_dim, model.n_shared_experts) == (512, 64, 1)
    assert model.latent_attention and not load_models()["mixtral_8x7b"].latent_attention


def test_the_real_figures_load(tmp_path: Path) -> None:
    model = load(tmp_path)
    assert model.n_params == 671_026_419_200 and model.n_experts_active == 8


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        # The Hub page's 685B counts the multi-token-prediction module beside the model.
        ({"n_params": 685_000_000_000}, "n_params"),
        # Counted as plain multi-head attention (128 K and V heads of 128): 688.3e9.
        ({"n_params": 688_265_195_520}, "n_params"),
        # The shared expert left out of the active count: 58 · 3 · 7,168 · 2,048 fewer.
        ({"n_active_params": 37_552_282_624 - 58 * 3 * 7168 * 2048}, "n_active_params"),
        # A tenfold latent adds 11.2e9 of projections: within 2 % of the total, 30 % of the active count.
        ({"kv_lora_rank": 5120}, "n_active_params"),
        # The shared expert dropped from the shape: 2.6e9 fewer, 0.4 % of the total, 7 % of the active.
        ({"n_shared_experts": 0}, "n_active_params"),
    ],
)
def test_a_tampered_figure_is_refused(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    message = refusal(tmp_path, **changes)
    assert f"[test_deepseek] {field}:" in message, message


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"v_head_dim": None}, "v_head_dim"),  # latent attention half described
        ({"dense_d_ff": None}, "dense_d_ff"),  # dense first layers without their width
        ({"n_dense_layers": 61}, "n_dense_layers"),  # no layer left for the experts
    ],
)
def test_an_incomplete_shape_is_refused_by_field(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    assert field in refusal(tmp_path, **changes)


def test_shared_experts_on_a_dense_model_are_refused(tmp_path: Path) -> None:
    message = refusal(
        tmp_path, n_experts=1, n_experts_active=1, n_active_params=None, n_dense_layers=0, dense_d_ff=None
    )
    assert "n_shared_experts" in message and "dense model" in message
