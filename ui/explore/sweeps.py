"""Explore's sweeps: a setup's figures as batch or context grows, and their Vega-Lite charts. No Streamlit.

Each point is the estimator's own figure for the setup with one input changed (no recording: a
sweep's points have no derivation to show). The charts are spec dicts written directly, as the
Readiness charts are (:mod:`ui.vega`): building them through altair would validate the whole schema
on every rerun.
"""

from __future__ import annotations

import math
from typing import Any

from grader.estimator import (
    decode_critical_batch_size,
    dtype_bytes,
    kv_cache_bytes,
    kv_cache_bytes_per_token,
    kv_weight_crossover_context,
    time_per_output_token,
    tokens_per_second,
    weight_bytes,
)
from question_bank.presets import Accelerator, ModelConfig
from ui import vega
from ui.explore.figures import Setup

#: Points per sweep: enough for a smooth line on a log axis, few enough to travel on every rerun.
_POINTS = 24


def _log_steps(*, low: float, high: float, n: int = _POINTS) -> list[int]:
    ratio = (high / low) ** (1 / (n - 1))
    return sorted({max(1, round(low * ratio**i)) for i in range(n)})


def _tpot(setup: Setup, model: ModelConfig, gpu: Accelerator, *, batch: int, context: int) -> float:
    kv = kv_cache_bytes_per_token(
        n_layers=model.n_layers, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim,
        bytes_per_element=dtype_bytes(dtype=setup.kv),
    )  # fmt: skip
    return time_per_output_token(
        n_params=model.n_params, bytes_per_param=dtype_bytes(dtype=setup.weights),
        mem_bandwidth=gpu.mem_bandwidth, peak_flops=gpu.peak_flops, batch_size=batch,
        context_len=context, kv_bytes_per_token=kv, n_chips=setup.chips,
    )  # fmt: skip


def batch_sweep(
    setup: Setup, *, model: ModelConfig, gpu: Accelerator
) -> tuple[list[dict[str, float]], float]:
    """TPOT (s) and tokens/s (all chips) at the setup's context for batch 1 to 4 × the critical batch; and
    the critical batch (the knee)."""
    critical = decode_critical_batch_size(
        peak_flops=gpu.peak_flops,
        mem_bandwidth=gpu.mem_bandwidth,
        bytes_per_param=dtype_bytes(dtype=setup.weights),
    )
    rows = []
    for batch in _log_steps(low=1, high=max(4 * critical, 8)):
        tpot = _tpot(setup, model, gpu, batch=batch, context=setup.context)
        rows.append(
            {
                "batch": batch,
                "tpot_ms": tpot * 1e3,
                "tokens_per_s": tokens_per_second(step_time=tpot, batch_size=batch),
            }
        )
    return rows, critical


def context_sweep(
    setup: Setup, *, model: ModelConfig, gpu: Accelerator
) -> tuple[list[dict[str, float]], float]:
    """KV bytes of the batch, weight bytes and TPOT (s) for contexts 128 up to the model's maximum (or
    past the crossover); and the context where the KV read matches the weights (the crossover)."""
    w = weight_bytes(n_params=model.n_params, bytes_per_param=dtype_bytes(dtype=setup.weights))
    per_token = kv_cache_bytes_per_token(
        n_layers=model.n_layers, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim,
        bytes_per_element=dtype_bytes(dtype=setup.kv),
    )  # fmt: skip
    crossover = kv_weight_crossover_context(
        weight_bytes=w, kv_bytes_per_token=per_token, batch_size=setup.batch
    )
    high = max(model.max_context_tokens, min(4 * crossover, 10 * model.max_context_tokens), 256)
    rows = []
    for context in _log_steps(low=128, high=high):
        kv = kv_cache_bytes(
            n_layers=model.n_layers, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim,
            bytes_per_element=dtype_bytes(dtype=setup.kv), seq_len=context, batch_size=setup.batch,
        )  # fmt: skip
        tpot = _tpot(setup, model, gpu, batch=setup.batch, context=context)
        rows.append({"context": context, "kv_gb": kv / 1e9, "weights_gb": w / 1e9, "tpot_ms": tpot * 1e3})
    return rows, crossover


def _rule(value: float, field: str, label: str) -> dict[str, Any]:
    return {
        "data": {"values": [{field: value, "label": label}]},
        "mark": {"type": "rule", "strokeDash": [4, 4], "color": vega.GREY},
        "encoding": {"x": {"field": field, "type": "quantitative"}, "tooltip": [{"field": "label"}]},
    }


def _log_x(field: str, title: str, rows: list[dict[str, float]]) -> dict[str, Any]:
    # The axis spans the swept points exactly: a rounded-out log axis leaves an empty decade.
    domain = [rows[0][field], rows[-1][field]]
    return {
        "field": field,
        "type": "quantitative",
        "title": title,
        "scale": {"type": "log", "domain": domain, "nice": False},
    }


def batch_chart(rows: list[dict[str, float]], *, critical: float, y: str, title: str) -> dict[str, Any]:
    """``y`` (``tpot_ms`` or ``tokens_per_s``) against batch on log axes, the critical batch marked."""
    line = {
        "data": {"values": rows},
        "mark": {"type": "line", "point": True, "color": vega.BLUE},
        "encoding": {
            "x": _log_x("batch", "Batch", rows),
            "y": {"field": y, "type": "quantitative", "title": title, "scale": {"type": "log"}},
            "tooltip": [{"field": "batch"}, {"field": y, "type": "quantitative", "format": ".4g"}],
        },
    }
    return vega.chart(
        [line, _rule(critical, "batch", f"critical batch {critical:.0f}")],
        height=260,
        title=f"{title} against batch (dashed: the critical batch, {critical:.0f})",
    )


def kv_chart(rows: list[dict[str, float]], *, crossover: float) -> dict[str, Any]:
    """KV bytes of the batch and the weights (GB) against context, the crossover marked."""
    long = [
        {"context": r["context"], "GB": r[key], "what": what}
        for r in rows
        for key, what in (("kv_gb", "KV cache of the batch"), ("weights_gb", "weights"))
    ]
    line = {
        "data": {"values": long},
        "mark": {"type": "line"},
        "encoding": {
            "x": _log_x("context", "Context (tokens)", rows),
            "y": {
                "field": "GB",
                "type": "quantitative",
                "title": "GB read per step",
                "scale": {"type": "log"},
            },
            "color": {
                "field": "what",
                "type": "nominal",
                "title": None,
                "scale": {"range": [vega.ORANGE, vega.BLUE]},
                "legend": {"orient": "bottom"},
            },
            "tooltip": [
                {"field": "what"},
                {"field": "context"},
                {"field": "GB", "type": "quantitative", "format": ".4g"},
            ],
        },
    }
    layers = [line]
    if math.isfinite(crossover) and crossover <= rows[-1]["context"]:
        layers.append(_rule(crossover, "context", f"crossover at {crossover:,.0f} tokens"))
    return vega.chart(layers, height=260, title="KV cache and weights read per step (dashed: the crossover)")


def context_chart(rows: list[dict[str, float]]) -> dict[str, Any]:
    """TPOT (ms) against context."""
    line = {
        "data": {"values": rows},
        "mark": {"type": "line", "point": True, "color": vega.BLUE},
        "encoding": {
            "x": _log_x("context", "Context (tokens)", rows),
            "y": {"field": "tpot_ms", "type": "quantitative", "title": "TPOT (ms)"},
            "tooltip": [{"field": "context"}, {"field": "tpot_ms", "type": "quantitative", "format": ".4g"}],
        },
    }
    return vega.chart([line], height=260, title="TPOT against context, at the setup's batch")
