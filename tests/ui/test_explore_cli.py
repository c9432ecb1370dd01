"""``python -m grader.estimator explore``: the same figures as the page, as text and as JSON."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader import estimator as est
from question_bank import load_hardware, load_models
from ui.explore.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_json_from_the_command_line_matches_the_estimator() -> None:
    args = ["explore", "--model", "llama2_13b", "--gpu", "a100_80gb_sxm", "--chips", "2", "--weights", "int8",
            "--kv", "fp8", "--batch", "8", "--prompt", "1500", "--output", "300", "--json"]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "grader.estimator", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    m, g = load_models()["llama2_13b"], load_hardware()["a100_80gb_sxm"]
    per_token = est.kv_cache_bytes_per_token(
        n_layers=m.n_layers, n_kv_heads=m.n_kv_heads, head_dim=m.head_dim, bytes_per_element=1.0
    )
    tpot = est.time_per_output_token(
        n_params=m.n_params, bytes_per_param=1.0, mem_bandwidth=g.mem_bandwidth, peak_flops=g.peak_flops,
        batch_size=8, context_len=1800, kv_bytes_per_token=per_token, n_chips=2,
    )  # fmt: skip
    figures = report["figures"]
    assert report["setup"]["chips"] == 2 and report["setup"]["weights"] == "int8"
    assert figures["kv_per_token"]["value"] == pytest.approx(per_token)
    assert figures["weights_per_chip"]["value"] == pytest.approx(m.n_params / 2)
    assert figures["tpot"]["value"] == pytest.approx(tpot)
    assert figures["tokens_per_s"]["value"] == pytest.approx(8 / tpot)
    assert figures["tpot"]["steps"][-1]["value"] == pytest.approx(tpot)
    assert [op["name"] for op in report["layer_ops"]][:2] == ["QKV projection", "Attention scores"]


def test_text_report_names_the_setup_and_its_figures() -> None:
    out = io.StringIO()
    assert main(["explore", "--model", "llama2_13b", "--gpu", "a100_80gb_sxm"], out=out) == 0
    text = out.getvalue()
    assert "Llama-2-13B on 1 × NVIDIA A100 80GB SXM4" in text
    assert "KV cache per token: 819.2 KB (800 KiB)" in text
    assert "Fits in memory: yes" in text


def test_an_unrealistic_setup_is_warned_about() -> None:
    out = io.StringIO()
    main(["explore", "--model", "llama2_70b", "--gpu", "a100_40gb_sxm", "--prompt", "5000"], out=out)
    assert "Warning: a context of 5,200 beyond Llama-2-70B's 4,096" in out.getvalue()
    assert "Fits in memory: no" in out.getvalue()


@pytest.mark.parametrize("bad", [["--model", "nope"], ["--batch", "0"], ["--weights", "fp64"]])
def test_bad_arguments_are_refused_with_what_to_type(
    bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = {"--model": "llama2_13b", "--gpu": "a100_80gb_sxm"}
    args.update(dict(zip(bad[::2], bad[1::2], strict=True)))
    with pytest.raises(SystemExit) as raised:
        main(["explore", *(x for pair in args.items() for x in pair)])
    assert raised.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_markdown_export_carries_every_figure_with_its_derivation() -> None:
    from grader.derivation_text import derivation_lines
    from ui.explore.figures import Setup, compute_figures
    from ui.explore.text import figure_text, report_markdown

    figures = compute_figures(Setup(price_per_chip_hour=2.0), models=load_models(), hardware=load_hardware())
    text = report_markdown(figures)
    for figure in figures.figures.values():
        assert f"### {figure.label}: {figure_text(figure)}" in text
        assert derivation_lines(figure.steps) in text
    assert "| QKV projection |" in text


def test_a_mixture_of_experts_model_is_said_to_be_counted_whole() -> None:
    out = io.StringIO()
    main(["explore", "--model", "mixtral_8x7b", "--gpu", "h100_sxm"], out=out)
    model = load_models()["mixtral_8x7b"]
    assert f"where one token uses {model.n_active_params / 1e9:.1f} B" in out.getvalue()
    dense = io.StringIO()
    main(["explore", "--model", "llama2_13b", "--gpu", "h100_sxm"], out=dense)
    assert "Note:" not in dense.getvalue()


def test_a_latent_attention_model_is_not_offered(capsys: pytest.CaptureFixture[str]) -> None:
    # Explore computes KV as 2 · layers · KV heads · head_dim; DeepSeek-V3 caches an MLA latent instead.
    with pytest.raises(SystemExit) as raised:
        main(["explore", "--model", "deepseek_v3", "--gpu", "h200_sxm"])
    assert raised.value.code == 2
    assert "invalid choice: 'deepseek_v3'" in capsys.readouterr().err
