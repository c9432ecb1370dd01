"""Explore's figures are the estimator's, called directly on the same setup, with the steps it records."""

from __future__ import annotations

import itertools

import pytest

from grader.estimator.layer_ops import decode_layer_ops
from question_bank import load_hardware, load_models
from tests.ui.explore_expected import direct_figures
from ui.explore.figures import Setup, compute_figures, setup_warnings
from ui.explore.sweeps import batch_sweep, context_sweep

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


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.model}-{s.gpu}-{s.chips}")
def test_every_figure_matches_the_estimator_called_directly(setup: Setup) -> None:
    figures = compute_figures(setup, models=MODELS, hardware=HARDWARE)
    expected = direct_figures(setup)
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
    figures = compute_figures(Setup(model="llama2_13b"), models=MODELS, hardware=HARDWARE)
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


@pytest.mark.parametrize(
    ("gpu", "formats", "warned"),
    [
        # stored only: weight-only fp8 and int8 (W8A16) and an fp8 KV cache run on any part
        ("a100_80gb_sxm", {"weights": "fp8"}, []),
        ("a100_80gb_sxm", {"weights": "int8", "kv": "fp8"}, []),
        # computed in: the activations' format sets the matmuls' format
        ("a100_80gb_sxm", {"kv": "fp8", "activations": "fp8"}, [
            "fp8 compute on NVIDIA A100 80GB SXM4, which has no FP8 tensor cores"]),
        ("v100_sxm2", {"weights": "int8", "kv": "fp8"}, ["bf16 on NVIDIA V100 SXM2 16GB, which has none"]),
        ("v100_sxm2", {"weights": "int8", "activations": "int8", "kv": "fp8"}, [
            "int8 compute on NVIDIA V100 SXM2 16GB, which has no INT8 tensor math"]),
        ("h100_sxm", {"weights": "fp8", "activations": "fp8", "kv": "fp8"}, []),
        ("a10", {"weights": "int8", "activations": "int8"}, []),
    ],
)  # fmt: skip
def test_a_format_the_part_lacks_is_warned_about(
    gpu: str, formats: dict[str, str], warned: list[str]
) -> None:
    setup = Setup(model="llama2_7b", gpu=gpu, prompt=100, output=10, **formats)
    warnings = setup_warnings(setup, model=MODELS["llama2_7b"], gpu=HARDWARE[gpu])
    formats_warned = [w for w in warnings if "which has" in w]
    assert len(formats_warned) == len(warned)
    for phrase in warned:
        assert any(phrase in w for w in formats_warned), (phrase, warnings)


def test_batch_sweep_turns_at_the_critical_batch() -> None:
    setup = Setup(prompt=100, output=10)
    rows, critical = batch_sweep(setup, model=MODELS[setup.model], gpu=HARDWARE[setup.gpu])
    assert rows[0]["batch"] == 1 and rows[-1]["batch"] > critical
    flat = [r for r in rows if r["batch"] < critical / 4]
    steep = [r for r in rows if r["batch"] > 2 * critical]
    # Below the knee a bigger batch barely moves TPOT; past it TPOT grows with the batch.
    assert flat[-1]["tpot_ms"] / flat[0]["tpot_ms"] < 1.2
    assert steep[-1]["tpot_ms"] / steep[0]["tpot_ms"] > 1.2
    # Past the knee the rate levels off: it never falls (up to the last digit of a float).
    assert all(b["tokens_per_s"] >= a["tokens_per_s"] * (1 - 1e-12) for a, b in itertools.pairwise(rows))


def test_context_sweep_crosses_where_the_estimator_says() -> None:
    setup = Setup(batch=4)
    rows, crossover = context_sweep(setup, model=MODELS[setup.model], gpu=HARDWARE[setup.gpu])
    below = [r for r in rows if r["context"] < crossover]
    above = [r for r in rows if r["context"] > crossover]
    assert below and above
    assert all(r["kv_gb"] < r["weights_gb"] for r in below)
    assert all(r["kv_gb"] > r["weights_gb"] for r in above)


def test_the_layer_tables_two_halves_hold_every_figure_of_each_operation() -> None:
    from ui.explore.text import OP_HALVES, OP_HEADERS, op_half, op_rows

    figures = compute_figures(SETUPS[1], models=MODELS, hardware=HARDWARE)
    rows = op_rows(figures)
    halves = [op_half(rows, half) for half in OP_HALVES]
    assert {h for headers, _ in halves for h in headers} == set(OP_HEADERS)
    for index, row in enumerate(rows):
        cells = {
            header: half_rows[index][i] for headers, half_rows in halves for i, header in enumerate(headers)
        }
        assert cells == dict(zip(OP_HEADERS, row, strict=True))  # the operation named in both halves
    assert max(len(half) for half in OP_HALVES) <= 4  # at most four columns: a half fits a phone
