"""Explore's figures are the estimator's, called directly on the same setup, with the steps it records."""

from __future__ import annotations

import itertools

import pytest

from grader import estimator as est
from grader.layer_ops import decode_layer_ops
from question_bank import load_hardware, load_models
from ui.explore_figures import Setup, compute_figures, setup_warnings
from ui.explore_sweeps import batch_sweep, context_sweep

MODELS, HARDWARE = load_models(), load_hardware()

SETUPS = (
    Setup(),
    Setup(
        model="llama2_70b",
        gpu="h100_sxm",
        chips=4,
        weights="int8",
        kv="fp8",
        batch=16,
        prompt=2000,
        output=500,
    ),
    Setup(
        model="mistral_7b",
        gpu="l4",
        weights="int4",
        batch=8,
        prompt=512,
        output=64,
        mfu=0.5,
        price_per_chip_hour=0.8,
    ),
)


def _direct(setup: Setup) -> dict[str, float]:
    m, g = MODELS[setup.model], HARDWARE[setup.gpu]
    w, kv = est.dtype_bytes(dtype=setup.weights), est.dtype_bytes(dtype=setup.kv)
    ctx = setup.prompt + setup.output
    per_token = 2 * m.n_layers * m.n_kv_heads * m.head_dim * kv
    tpot = est.time_per_output_token(
        n_params=m.n_params, bytes_per_param=w, mem_bandwidth=g.mem_bandwidth, peak_flops=g.peak_flops,
        batch_size=setup.batch, context_len=ctx, kv_bytes_per_token=per_token, n_chips=setup.chips,
    )  # fmt: skip
    tps = setup.batch / tpot
    out = {
        "weights_per_chip": m.n_params * w / setup.chips,
        "kv_per_token": per_token,
        "kv_per_sequence": per_token * ctx,
        "kv_capacity_tokens": est.tensor_parallel_kv_capacity_tokens(
            memory_bytes=g.memory_bytes, n_params=m.n_params, bytes_per_param=w,
            kv_bytes_per_token=per_token, n_kv_heads=m.n_kv_heads, n_chips=setup.chips,
        ),
        "kv_capacity_sequences": est.max_batch_at_context(
            memory_bytes=g.memory_bytes, n_params=m.n_params, bytes_per_param=w,
            kv_bytes_per_token=per_token, context_len=ctx, n_chips=setup.chips,
        ),
        "ttft": est.time_to_first_token(
            n_params=m.n_params, prompt_tokens=setup.prompt, peak_flops=g.peak_flops,
            mem_bandwidth=g.mem_bandwidth, bytes_per_param=w, batch_size=setup.batch,
            n_chips=setup.chips, mfu=setup.mfu,
        ),
        "tpot": tpot,
        "request_latency": est.request_latency(
            n_params=m.n_params, bytes_per_param=w, mem_bandwidth=g.mem_bandwidth, peak_flops=g.peak_flops,
            prompt_tokens=setup.prompt, output_tokens=setup.output, kv_bytes_per_token=per_token,
            batch_size=setup.batch, n_chips=setup.chips, mfu=setup.mfu,
        ),
        "tokens_per_s": tps,
        "tokens_per_s_per_chip": tps / setup.chips,
        "mbu": (m.n_params * w + setup.batch * ctx * per_token) / tpot / (g.mem_bandwidth * setup.chips),
        "mfu": 2 * m.n_params * tps / (g.peak_flops * setup.chips),
        "critical_batch": g.peak_flops * w / (2 * g.mem_bandwidth),
        "ridge": g.peak_flops / g.mem_bandwidth,
        "decode_intensity": 2 * setup.batch / w,
        "prefill_intensity": 2 * setup.prompt * setup.batch / w,
        "crossover_context": m.n_params * w / (setup.batch * per_token),
    }  # fmt: skip
    if setup.price_per_chip_hour is not None:
        out["cost_per_million"] = setup.price_per_chip_hour * setup.chips / 3600 / tps * 1e6
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.model}-{s.gpu}-{s.chips}")
def test_every_figure_matches_the_estimator_called_directly(setup: Setup) -> None:
    figures = compute_figures(setup, models=MODELS, hardware=HARDWARE)
    expected = _direct(setup)
    assert set(figures.figures) == set(expected)
    for key, value in expected.items():
        assert figures.value(key) == pytest.approx(value, rel=1e-12), key


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.model}-{s.gpu}-{s.chips}")
def test_each_figure_carries_the_steps_that_computed_it(setup: Setup) -> None:
    figures = compute_figures(setup, models=MODELS, hardware=HARDWARE)
    for figure in figures.figures.values():
        assert figure.steps, figure.key
        assert figure.steps[-1].value == pytest.approx(figure.value), figure.key


def test_the_worked_example_llama2_13b_on_an_a100_reads_26_gb_and_800_kb_per_token() -> None:
    figures = compute_figures(Setup(), models=MODELS, hardware=HARDWARE)
    assert figures.value("weights_per_chip") == pytest.approx(26.03e9, rel=1e-3)
    assert figures.value("kv_per_token") == 819_200
    assert figures.fits and figures.warnings == ()


def test_layer_table_sums_the_layers_operations_and_places_each_under_its_roof() -> None:
    setup = SETUPS[1]
    figures = compute_figures(setup, models=MODELS, hardware=HARDWARE)
    m, g = MODELS[setup.model], HARDWARE[setup.gpu]
    ops = decode_layer_ops(
        batch_size=setup.batch, context_len=setup.context, d_model=m.d_model, n_heads=m.n_heads,
        n_kv_heads=m.n_kv_heads, head_dim=m.head_dim, d_ff=m.d_ff, weight_bytes=1.0,
        activation_bytes=2.0, kv_bytes=1.0, gated_mlp=True, n_chips=setup.chips,
    )  # fmt: skip
    assert [r.name for r in figures.ops] == [o.name for o in ops]
    assert "MLP gate" in [r.name for r in figures.ops]
    for row, op in zip(figures.ops, ops, strict=True):
        assert row.intensity == pytest.approx(op.flops / op.n_bytes)
        peak = g.peak_flops if op.tensor else g.peak_flops_vector
        assert row.time_s == pytest.approx(max(op.flops / peak, op.n_bytes / g.mem_bandwidth))
        assert row.bound == ("bandwidth" if row.intensity < peak / g.mem_bandwidth else "compute")


def test_attention_reads_the_kv_cache_once_per_step() -> None:
    setup = Setup(batch=4, prompt=3000, output=96)
    figures = compute_figures(setup, models=MODELS, hardware=HARDWARE)
    by_name = {r.name: r for r in figures.ops}
    kv_read_per_layer = (
        figures.value("kv_per_token") * setup.context * setup.batch / MODELS[setup.model].n_layers
    )
    attention = by_name["Attention scores"].n_bytes + by_name["Attention over values"].n_bytes
    assert attention == pytest.approx(kv_read_per_layer, rel=0.01)


def test_warnings_name_each_rule_the_setup_breaks() -> None:
    setup = Setup(model="llama2_70b", gpu="a100_40gb_sxm", chips=3, prompt=5000)
    warnings = setup_warnings(setup, model=MODELS[setup.model], gpu=HARDWARE[setup.gpu])
    text = " | ".join(warnings)
    assert "beyond Llama-2-70B's 4,096" in text
    assert "split over 3 chips" in text
    assert "does not fit" in text
    bf16_on_t4 = setup_warnings(
        Setup(model="llama2_7b", gpu="t4", prompt=100, output=10),
        model=MODELS["llama2_7b"],
        gpu=HARDWARE["t4"],
    )
    assert any("bf16" in w for w in bf16_on_t4)


def test_batch_sweep_turns_at_the_critical_batch() -> None:
    setup = Setup(prompt=100, output=10)
    rows, critical = batch_sweep(setup, model=MODELS[setup.model], gpu=HARDWARE[setup.gpu])
    assert rows[0]["batch"] == 1 and rows[-1]["batch"] > critical
    flat = [r for r in rows if r["batch"] < critical / 4]
    steep = [r for r in rows if r["batch"] > 2 * critical]
    # Below the knee a bigger batch barely moves TPOT; past it TPOT grows with the batch.
    assert flat[-1]["tpot_ms"] / flat[0]["tpot_ms"] < 1.2
    assert steep[-1]["tpot_ms"] / steep[0]["tpot_ms"] > 1.2
    assert all(b["tokens_per_s"] >= a["tokens_per_s"] for a, b in itertools.pairwise(rows))


def test_context_sweep_crosses_where_the_estimator_says() -> None:
    setup = Setup(batch=4)
    rows, crossover = context_sweep(setup, model=MODELS[setup.model], gpu=HARDWARE[setup.gpu])
    below = [r for r in rows if r["context"] < crossover]
    above = [r for r in rows if r["context"] > crossover]
    assert below and above
    assert all(r["kv_gb"] < r["weights_gb"] for r in below)
    assert all(r["kv_gb"] > r["weights_gb"] for r in above)
