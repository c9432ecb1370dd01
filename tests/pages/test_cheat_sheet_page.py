"""AppTest of the cheat sheet: its figures are the presets put through the estimator."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from grader import estimator as est
from grader.units import format_number, to_display
from question_bank import load_checklist, load_hardware, load_models
from question_bank.cheat_sheet import build_cheat_sheet, cheat_sheet_markdown
from question_bank.presets import standard_attention_models
from ui import state_keys as keys


def page(db: Path) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.switch_page("pages/cheat_sheet.py")
    return at.run()


@pytest.fixture(scope="module")
def at(tmp_path_factory: pytest.TempPathFactory) -> AppTest:
    return page(tmp_path_factory.mktemp("cheat") / "progress.db")


def _table(at: AppTest, index: int):
    return at.table[index].value


def test_page_renders_the_three_sections(at: AppTest) -> None:
    assert not at.exception
    assert [h.value for h in at.subheader] == ["Accelerators", "Models", "Formulas"]


def test_accelerator_figures_match_the_estimator(at: AppTest) -> None:
    gpus = _table(at, 0)
    for gpu in load_hardware().values():
        row = gpus.loc[gpu.name]
        ridge = est.ridge_point(peak_flops=gpu.peak_flops, mem_bandwidth=gpu.mem_bandwidth)
        assert row["ridge 16-bit FLOP/B"] == format_number(ridge)
        assert row["HBM TB/s"] == format_number(gpu.mem_bandwidth / 1e12)
        assert row["dense 16-bit TFLOP/s"] == format_number(gpu.peak_flops / 1e12)
        if gpu.peak_flops_vector is not None:
            vector = est.ridge_point(peak_flops=gpu.peak_flops_vector, mem_bandwidth=gpu.mem_bandwidth)
            assert row["ridge fp32 vector FLOP/B"] == format_number(vector)


def test_model_figures_match_the_estimator(at: AppTest) -> None:
    models = _table(at, 1)
    for model in standard_attention_models().values():
        row = models.loc[model.name]
        kv = est.kv_cache_bytes_per_token(
            n_layers=model.n_layers, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim, bytes_per_element=1
        )
        assert row["KV KB/token fp8"] == format_number(to_display(kv, "KB"))
        assert row["KV KB/token bf16"] == format_number(to_display(2 * kv, "KB"))
        assert row["weights GB int8"] == format_number(model.n_params / 1e9)


def test_deepseek_v3_shows_its_latent_kv(at: AppTest) -> None:
    # DeepSeek-V3 config.json: 61 · (kv_lora_rank 512 + qk_rope_head_dim 64) · 2 B = 70,272 B in bf16.
    row = _table(at, 1).loc["DeepSeek-V3"]
    shown = (row["KV KB/token bf16"], row["KV KB/token fp8"], row["KV heads"])
    assert shown == ("70.27", "35.14", "MLA latent")


def test_llama2_13b_kv_bytes_match_the_published_figure(at: AppTest) -> None:
    # The scaling book and kipply: 819,200 bytes of bf16 KV cache per token for LLaMA-2-13B.
    assert _table(at, 1).loc["Llama-2-13B"]["KV KB/token bf16"] == "819.2"


def test_formulas_carry_the_estimators_worked_examples(at: AppTest) -> None:
    shown = {row["worked example"] for i in range(2, len(at.table)) for _, row in _table(at, i).iterrows()}
    for formula in build_cheat_sheet().formulas:
        assert formula.example in shown
    decode = next(f for f in build_cheat_sheet().formulas if f.name == "decode_step_time")
    # kipply's 13B batch-1 step on an A100 is about 17 ms (16.8 ms at 1.5 TB/s; the datasheet gives 16.74).
    assert decode.example.endswith("16.74 ms")


def test_each_section_links_to_practising_its_items(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db")
    practise = [b for b in at.button if b.key.startswith(keys.CHEAT_PRACTICE_PREFIX)]
    titles = {item.title for item in load_checklist()}
    assert {b.label.removeprefix("Practise ") for b in practise} == titles
    formulas = next(b for b in practise if b.key.endswith("formulas_kv-cache"))
    formulas.click().run()
    assert not at.exception
    assert at.title[0].value == "Practice"
    assert at.session_state[keys.PRACTICE_FILTER_ITEM] == "kv-cache"


def test_markdown_download_holds_every_table_row() -> None:
    text = cheat_sheet_markdown(build_cheat_sheet())
    for name in [*(g.name for g in load_hardware().values()), *(m.name for m in load_models().values())]:
        assert f"| {name} |" in text
    assert text.count("\n## ") == 3
