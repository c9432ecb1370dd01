"""Explore: every figure of one serving setup, each with the derivation the estimator recorded. No Streamlit.

A :class:`Setup` names a model and an accelerator preset, the chips (tensor parallelism), the number
formats of weights, activations and KV cache, the batch and the prompt and output lengths. Each
figure is one estimator call made inside :func:`grader.estimator.derivation.recording`, so what the page, the
command line and the Markdown export show is the estimator's own value with its own steps. Presets
are passed in: the command line (``python -m grader.estimator explore``) reads them the same way.

Warnings come from the bank's draw rules (:mod:`question_bank.draw_rules`): the setup is held to
what an interviewer would pose, rule by rule, so that every rule it breaks is named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from grader.estimator import (
    arithmetic_intensity,
    decode_arithmetic_intensity,
    decode_critical_batch_size,
    dtype_bytes,
    kv_bytes_read_per_step,
    kv_cache_bytes,
    kv_cache_bytes_per_token,
    kv_weight_crossover_context,
    max_batch_at_context,
    memory_bandwidth_utilization,
    model_flops_utilization,
    prefill_arithmetic_intensity,
    request_latency,
    ridge_point,
    roofline_time,
    tensor_parallel_kv_capacity_tokens,
    time_per_output_token,
    time_to_first_token,
    tokens_per_second,
    weight_bytes,
    weight_bytes_per_chip,
)
from grader.estimator.derivation import Step, num, recording, step
from grader.estimator.layer_ops import cost_per_million_tokens, decode_layer_ops
from question_bank.catalog import Dtype
from question_bank.draw_rules import DrawRules, draw_issue
from question_bank.presets import Accelerator, ModelConfig

#: The number formats the page offers for weights, activations and the KV cache.
DTYPES = ("bf16", "fp8", "int8", "int4")
# The first setup is one "Drill this setup" takes: the chat latency budget draws grouped-query models
# only (its KV step teaches the KV heads), so not Llama-2-13B, whose 40 KV heads are its query heads.
DEFAULT_MODEL, DEFAULT_GPU = "llama3_8b", "a100_80gb_sxm"
#: The whole-number inputs' ranges (low, high), for the page's boxes and its address alike.
LIMITS: dict[str, tuple[int, int]] = {
    "chips": (1, 64),
    "batch": (1, 4096),
    "prompt": (1, 1_000_000),
    "output": (1, 1_000_000),
}


#: The model id that stands for the user's own figures (never a preset's: preset ids name real models).
CUSTOM = "custom"


def custom_model(
    *,
    n_params: int,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
) -> ModelConfig:
    """A model from the user's own figures: a gated MLP, untied embeddings, no stated maximum context.

    Built without the presets' checks (the stated parameter count is the user's, and may round or
    leave out what the config count includes); the draw rules then skip the context limit.
    """  # fmt: skip
    return ModelConfig.model_construct(
        id=CUSTOM, name="Custom model", sources=("the figures typed on the page",), notes=(),
        n_layers=n_layers, d_model=d_model, n_heads=n_heads, n_kv_heads=n_kv_heads, head_dim=head_dim,
        d_ff=d_ff, vocab_size=vocab_size, n_params=n_params, n_active_params=None, n_experts=1,
        n_experts_active=1, gated_mlp=True, tied_embeddings=False, max_context_tokens=0,
        sliding_window_tokens=None,
    )  # fmt: skip


@dataclass(frozen=True)
class Setup:
    """One serving setup: preset ids, chips, number formats, batch, token counts, optional MFU and price."""

    model: str = DEFAULT_MODEL
    gpu: str = DEFAULT_GPU
    chips: int = 1
    weights: str = "bf16"
    activations: str = "bf16"
    kv: str = "bf16"
    batch: int = 1
    prompt: int = 1000
    output: int = 200
    #: The fraction of peak the prefill reaches (1.0: the floor).
    mfu: float = 1.0
    #: Dollars per chip-hour, or None for no cost figure.
    price_per_chip_hour: float | None = None

    @property
    def context(self) -> int:
        """The context the last token of a request is decoded at: prompt + output tokens."""
        return self.prompt + self.output


@dataclass(frozen=True)
class Figure:
    """One figure: its value in SI ``unit`` and the steps that computed it."""

    key: str
    label: str
    value: float
    unit: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class OpRow:
    """One row of the per-operation table: one layer's operation in a decode step, on one chip."""

    name: str
    flops: float
    n_bytes: float
    intensity: float
    bound: str
    time_s: float
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Figures:
    """Everything the page shows for one setup."""

    setup: Setup
    model: ModelConfig
    gpu: Accelerator
    figures: Mapping[str, Figure]
    ops: tuple[OpRow, ...]
    warnings: tuple[str, ...]
    fits: bool = field(default=True)

    def value(self, key: str) -> float:
        return self.figures[key].value


def _recorded(key: str, label: str, unit: str, compute: Callable[[], float]) -> Figure:
    with recording() as steps:
        value = compute()
    return Figure(key, label, float(value), unit, tuple(steps))


def compute_figures(
    setup: Setup, *, models: Mapping[str, ModelConfig], hardware: Mapping[str, Accelerator]
) -> Figures:
    """Every figure of ``setup`` from the estimator; raises ``KeyError`` for an unknown preset id."""
    model, gpu = models[setup.model], hardware[setup.gpu]
    w, kv = dtype_bytes(dtype=setup.weights), dtype_bytes(dtype=setup.kv)
    chips, batch, context = setup.chips, setup.batch, setup.context
    base = {"n_params": model.n_params, "bytes_per_param": w}
    roofs = {"mem_bandwidth": gpu.mem_bandwidth, "peak_flops": gpu.peak_flops}
    kv_shape = {"n_layers": model.n_layers, "n_kv_heads": model.n_kv_heads, "head_dim": model.head_dim}
    per_token = kv_cache_bytes_per_token(**kv_shape, bytes_per_element=kv)

    def decode_step() -> float:
        return time_per_output_token(
            **base,
            **roofs,
            batch_size=batch,
            context_len=context,
            kv_bytes_per_token=per_token,
            n_chips=chips,
        )

    tpot = decode_step()
    total_tps = tokens_per_second(step_time=tpot, batch_size=batch)
    out = [
        _recorded("weights_per_chip", "Weights per chip", "B",
                  lambda: weight_bytes_per_chip(**base, n_chips=chips)),
        _recorded("kv_per_token", "KV cache per token", "B",
                  lambda: kv_cache_bytes_per_token(**kv_shape, bytes_per_element=kv)),
        _recorded("kv_per_sequence", "KV cache per sequence (prompt + output)", "B",
                  lambda: kv_cache_bytes(**kv_shape, bytes_per_element=kv, seq_len=context)),
        _recorded("kv_capacity_tokens", "KV capacity per group (tokens)", "tokens",
                  lambda: tensor_parallel_kv_capacity_tokens(
                      memory_bytes=gpu.memory_bytes, **base, kv_bytes_per_token=per_token,
                      n_kv_heads=model.n_kv_heads, n_chips=chips)),
        _recorded("kv_capacity_sequences", "Sequences that fit (prompt + output each)", "",
                  lambda: max_batch_at_context(
                      memory_bytes=gpu.memory_bytes, **base, kv_bytes_per_token=per_token,
                      context_len=context, n_chips=chips)),
        _recorded("ttft", "Time to first token (TTFT)", "s",
                  lambda: time_to_first_token(**base, **roofs, prompt_tokens=setup.prompt,
                                              batch_size=batch, n_chips=chips, mfu=setup.mfu)),
        _recorded("tpot", "Time per output token at prompt + output", "s",
                  decode_step),
        _recorded("request_latency", "Request latency", "s",
                  lambda: request_latency(**base, **roofs, prompt_tokens=setup.prompt,
                                          output_tokens=setup.output, kv_bytes_per_token=per_token,
                                          batch_size=batch, n_chips=chips, mfu=setup.mfu)),
        _recorded("tokens_per_s", "Tokens per second, all chips", "tokens/s",
                  lambda: tokens_per_second(step_time=tpot, batch_size=batch)),
        _recorded("tokens_per_s_per_chip", "Tokens per second per chip", "tokens/s",
                  lambda: step("Tokens per second per chip", "tokens per second / chips",
                               f"{num(total_tps)} / {num(chips)}", total_tps / chips, "tokens/s")),
        _recorded("mbu", "MBU of a decode step at the floor", "",
                  lambda: memory_bandwidth_utilization(
                      bytes_per_step=weight_bytes(**base) + kv_bytes_read_per_step(
                          batch_size=batch, context_len=context, kv_bytes_per_token=per_token),
                      steps_per_second=1 / tpot,
                      mem_bandwidth=gpu.mem_bandwidth * chips)),
        _recorded("mfu", "MFU of decode", "",
                  lambda: model_flops_utilization(n_params=model.n_params, tokens_per_second=total_tps,
                                                  peak_flops=gpu.peak_flops, n_chips=chips)),
        _recorded("critical_batch", "Critical decode batch", "",
                  lambda: decode_critical_batch_size(**roofs, bytes_per_param=w)),
        _recorded("ridge", "Ridge point", "FLOP/B", lambda: ridge_point(**roofs)),
        _recorded("decode_intensity", "Decode arithmetic intensity", "FLOP/B",
                  lambda: decode_arithmetic_intensity(batch_size=batch, bytes_per_param=w)),
        _recorded("prefill_intensity", "Prefill arithmetic intensity", "FLOP/B",
                  lambda: prefill_arithmetic_intensity(n_tokens=setup.prompt * batch, bytes_per_param=w)),
        _recorded("crossover_context", "Context where KV reads match weight reads", "tokens",
                  lambda: kv_weight_crossover_context(weight_bytes=weight_bytes(**base),
                                                      kv_bytes_per_token=per_token, batch_size=batch)),
    ]  # fmt: skip
    if setup.price_per_chip_hour is not None:
        price = setup.price_per_chip_hour
        out.append(
            _recorded(
                "cost_per_million", "Cost per million tokens ($)", "",
                lambda: cost_per_million_tokens(price_per_chip_hour=price, n_chips=chips,
                                                tokens_per_second=total_tps),
            )
        )  # fmt: skip
    figures = {f.key: f for f in out}
    return Figures(
        setup=setup,
        model=model,
        gpu=gpu,
        figures=figures,
        ops=layer_table(setup, model=model, gpu=gpu),
        warnings=setup_warnings(setup, model=model, gpu=gpu),
        fits=figures["kv_capacity_sequences"].value >= batch,
    )


def layer_table(setup: Setup, *, model: ModelConfig, gpu: Accelerator) -> tuple[OpRow, ...]:
    """One layer's operations in a decode step at the setup's batch and context, on one chip."""
    with recording() as counted:
        ops = decode_layer_ops(
            batch_size=setup.batch, context_len=setup.context, d_model=model.d_model,
            n_heads=model.n_heads, n_kv_heads=model.n_kv_heads, head_dim=model.head_dim,
            d_ff=model.d_ff, weight_bytes=dtype_bytes(dtype=setup.weights),
            activation_bytes=dtype_bytes(dtype=setup.activations), kv_bytes=dtype_bytes(dtype=setup.kv),
            gated_mlp=model.gated_mlp, n_chips=setup.chips,
        )  # fmt: skip
    rows = []
    for op in ops:
        # A norm runs on the vector units, under their lower roof; a matmul under the tensor roof.
        peak = gpu.peak_flops if op.tensor or gpu.peak_flops_vector is None else gpu.peak_flops_vector
        with recording() as steps:
            intensity = arithmetic_intensity(flops=op.flops, n_bytes=op.n_bytes)
            ridge = ridge_point(peak_flops=peak, mem_bandwidth=gpu.mem_bandwidth)
            time_s = roofline_time(
                flops=op.flops, n_bytes=op.n_bytes, peak_flops=peak, mem_bandwidth=gpu.mem_bandwidth
            )
        own = tuple(s for s in counted if s.label.startswith(op.name + " "))
        bound = "bandwidth" if intensity < ridge else "compute"
        rows.append(OpRow(op.name, op.flops, op.n_bytes, intensity, bound, time_s, own + tuple(steps)))
    return tuple(rows)


def _rules(**given: object) -> DrawRules:
    empty: dict[str, object] = {
        "models": (), "hardware": (), "contexts": (), "chips": (), "says_pcie": False, "says_bf16": False,
        "dtypes": (), "uses_peak": (), "weight_bytes": {}, "serves": (), "compute_dtypes": (),
    }  # fmt: skip
    return DrawRules(**{**empty, **given})  # type: ignore[arg-type]


def setup_warnings(setup: Setup, *, model: ModelConfig, gpu: Accelerator) -> tuple[str, ...]:
    """Each of the bank's draw rules the setup breaks, as a phrase (none for a realistic setup).

    The rules are applied one family at a time: :func:`question_bank.draw_rules.draw_issue` names the
    first rule broken, and a setup may break several.
    """
    values = {
        "model": model, "gpu": gpu, "chips": setup.chips, "prompt": setup.prompt, "output": setup.output,
        "weights": Dtype.named(setup.weights), "activations": Dtype.named(setup.activations),
        "kv": Dtype.named(setup.kv),
    }  # fmt: skip
    context = (("prompt", "output"),)
    families = (
        _rules(models=("model",), contexts=context),  # the maximum context and the window
        _rules(models=("model",), chips=("chips",)),  # heads split evenly over the chips
        _rules(hardware=("gpu",), chips=("chips",)),  # the link tensor parallelism runs over
        # bf16 on the part, one family a format so that each is named; fp8 and int8 only where the
        # matmuls compute in them: weights and KV cache are only stored (converted before the matmul)
        *(_rules(hardware=("gpu",), dtypes=(part,)) for part in ("weights", "kv")),
        _rules(hardware=("gpu",), dtypes=("activations",), compute_dtypes=("activations",)),
        _rules(hardware=("gpu",), uses_peak=("gpu",)),  # a peak no datasheet gives
        _rules(
            hardware=("gpu",), models=(), contexts=context, chips=("chips",),
            weight_bytes={"model": "weights.bytes"}, serves=("model",),
        ),  # the model fits
    )  # fmt: skip
    found = (draw_issue(rules, values) for rules in families)
    return tuple(dict.fromkeys(issue for issue in found if issue))


def with_changes(setup: Setup, **changes: object) -> Setup:
    """``setup`` with some fields changed (the side-by-side setup, a sweep's point)."""
    return replace(setup, **changes)  # type: ignore[arg-type]
