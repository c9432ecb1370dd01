"""The cheat sheet: the numbers and formulas worth knowing cold, generated from the presets and the estimator.

Nothing here is typed in by hand: the accelerator and model tables are the presets put through the
estimator (ridge points, KV bytes per token, weight bytes), and each formula is shown with its
worked example exactly as the estimator records it. A preset or formula that changes changes the
sheet with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grader import estimator as est
from grader.derivation import Step, recording
from grader.units import format_number, readable, to_display
from question_bank.checklist import load_checklist
from question_bank.presets import Accelerator, ModelConfig, load_hardware, load_models

#: Presets the worked examples use: the topic's canonical setup (kipply's 13B on an A100).
EXAMPLE_MODEL = "llama2_13b"
EXAMPLE_GPU = "a100_40gb_sxm"
EXAMPLE_GPU_80GB = "a100_80gb_sxm"

_NONE = "–"


@dataclass(frozen=True)
class Table:
    """A table of the sheet: its columns, its rows as display strings and the checklist items it serves."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    checklist: tuple[str, ...]
    note: str
    #: Per row: its name, then the preset's notes (where sources disagree) and its sources.
    provenance: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _provenance(
    presets: Mapping[str, Accelerator] | Mapping[str, ModelConfig],
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(
        (p.name, (*p.notes, *(f"Source: {source}" for source in p.sources))) for p in presets.values()
    )


@dataclass(frozen=True)
class Formula:
    """One estimator formula with a worked example, and the checklist item it serves."""

    name: str
    label: str
    formula: str
    setup: str
    steps: tuple[Step, ...]
    checklist: str

    @property
    def example(self) -> str:
        """The worked example on one line: setup, the last step with its numbers, the result."""
        last = self.steps[-1]
        return f"{self.setup}: {last.substituted} = {readable(last.value, last.unit)}"


@dataclass(frozen=True)
class CheatSheet:
    accelerators: Table
    models: Table
    formulas: tuple[Formula, ...]


def _n(value: float | None, unit: str) -> str:
    """A cell: the number in the column's unit (the unit stands in the header), or a dash."""
    return _NONE if value is None else format_number(to_display(value, unit))


def _ridge(peak: float | None, bandwidth: float) -> str:
    if peak is None:
        return _NONE
    return _n(est.ridge_point(peak_flops=peak, mem_bandwidth=bandwidth), "FLOP/B")


def accelerator_table(hardware: Mapping[str, Accelerator]) -> Table:
    """Peaks, bandwidth, memory, ridge points and interconnect of every accelerator preset."""
    rows = tuple(
        (
            gpu.name,
            _n(gpu.peak_flops, "TFLOP/s"),
            _n(gpu.peak_int8_ops, "TFLOP/s"),
            _n(gpu.peak_flops_vector, "TFLOP/s"),
            _n(gpu.mem_bandwidth, "TB/s"),
            _n(gpu.memory_bytes, "GB"),
            _ridge(gpu.peak_flops, gpu.mem_bandwidth),
            _ridge(gpu.peak_int8_ops, gpu.mem_bandwidth),
            _ridge(gpu.peak_flops_vector, gpu.mem_bandwidth),
            _n(gpu.interconnect_bandwidth, "GB/s"),
            gpu.interconnect or _NONE,
        )
        for gpu in hardware.values()
    )
    return Table(
        title="Accelerators",
        columns=(
            "accelerator",
            "dense 16-bit TFLOP/s",
            "dense int8 TOP/s",
            "fp32 vector TFLOP/s",
            "HBM TB/s",
            "memory GB",
            "ridge 16-bit FLOP/B",
            "ridge int8 OP/B",
            "ridge fp32 vector FLOP/B",
            "link GB/s (per direction)",
            "link",
        ),
        rows=rows,
        checklist=("ops-byte-threshold", "decode-weight-read", "decode-batch-threshold"),
        note=(
            "Dense tensor-core peaks (sparse figures are twice these and never what a dense model gets). "
            "Ridge = peak / bandwidth: an op below it is bandwidth-bound, above it compute-bound. "
            "Element-wise ops run on the vector units, so judge them against the fp32 vector ridge."
        ),
        provenance=_provenance(hardware),
    )


def model_table(models: Mapping[str, ModelConfig]) -> Table:
    """Shape, KV bytes per token and weight bytes of every model preset."""
    rows = []
    for model in models.values():
        kv = {
            dtype: est.kv_cache_bytes_per_token(
                n_layers=model.n_layers,
                n_kv_heads=model.n_kv_heads,
                head_dim=model.head_dim,
                bytes_per_element=est.dtype_bytes(dtype=dtype),
            )
            for dtype in ("bf16", "fp8")
        }
        weights = {
            dtype: est.weight_bytes(n_params=model.n_params, bytes_per_param=est.dtype_bytes(dtype=dtype))
            for dtype in ("bf16", "int8")
        }
        rows.append(
            (
                model.name,
                str(model.n_layers),
                str(model.n_heads),
                str(model.n_kv_heads),
                str(model.head_dim),
                format_number(model.n_params / 1e9),
                _n(kv["bf16"], "KB"),
                _n(kv["fp8"], "KB"),
                _n(weights["bf16"], "GB"),
                _n(weights["int8"], "GB"),
            )
        )
    return Table(
        title="Models",
        columns=(
            "model",
            "layers",
            "heads",
            "KV heads",
            "head dim",
            "params (billions)",
            "KV KB/token bf16",
            "KV KB/token fp8",
            "weights GB bf16",
            "weights GB int8",
        ),
        rows=tuple(rows),
        checklist=("kv-cache", "decode-weight-read"),
        note=(
            "KV bytes per token = 2 (K and V) · layers · KV heads · head dim · bytes; "
            "weights = params · bytes. Params are counted from each config "
            "(every parameter, embeddings included)."
        ),
        provenance=_provenance(models),
    )


@dataclass(frozen=True)
class _Setups:
    """The presets the worked examples draw on."""

    model: ModelConfig
    gpu: Accelerator
    gpu80: Accelerator
    big: ModelConfig
    h100: Accelerator
    moe: ModelConfig

    @staticmethod
    def of(models: Mapping[str, ModelConfig], hardware: Mapping[str, Accelerator]) -> _Setups:
        return _Setups(
            model=models[EXAMPLE_MODEL],
            gpu=hardware[EXAMPLE_GPU],
            gpu80=hardware[EXAMPLE_GPU_80GB],
            big=models["llama3_70b"],
            h100=hardware["h100_sxm"],
            moe=models["mixtral_8x7b"],
        )

    def names(self) -> dict[str, str]:
        return {
            "model": self.model.name,
            "gpu": self.gpu.name,
            "gpu80": self.gpu80.name,
            "big": self.big.name,
            "h100": self.h100.name,
            "moe": self.moe.name,
        }


@dataclass(frozen=True)
class _Example:
    name: str
    checklist: str
    setup: str
    kwargs: Callable[[_Setups], dict[str, Any]]


def _kv_per_token(m: ModelConfig) -> float:
    return est.kv_cache_bytes_per_token(
        n_layers=m.n_layers, n_kv_heads=m.n_kv_heads, head_dim=m.head_dim, bytes_per_element=2
    )


# The worked examples: which formula, on which setup, for which checklist item. The numbers are
# the presets'; the steps and the result are the estimator's own.
_EXAMPLES: tuple[_Example, ...] = (
    _Example(
        "roofline_time",
        "three-regimes",
        "copying a 1 GB tensor (1 GB read + 1 GB written, 0 FLOP) on an {gpu}, 10 µs launch overhead",
        lambda s: dict(
            flops=0.0,
            n_bytes=2e9,
            peak_flops=s.gpu.peak_flops,
            mem_bandwidth=s.gpu.mem_bandwidth,
            overhead_s=10e-6,
        ),
    ),
    _Example(
        "arithmetic_intensity_elementwise",
        "arithmetic-intensity",
        "an fp32 add of two tensors (1 FLOP per element)",
        lambda s: dict(flops_per_element=1, bytes_per_element=4, n_inputs=2),
    ),
    _Example(
        "arithmetic_intensity_matmul",
        "arithmetic-intensity",
        "a 4096³ bf16 matmul",
        lambda s: dict(m=4096, k=4096, n=4096, bytes_per_element=2),
    ),
    _Example(
        "elementwise_chain_bytes",
        "fusion",
        "two unary ops over 2²⁸ bf16 elements, fused",
        lambda s: dict(n_elements=2**28, bytes_per_element=2, n_ops=2, fused=True),
    ),
    _Example(
        "overhead_knee_bytes",
        "overhead-vs-bandwidth",
        "10 µs of per-op overhead on an {gpu}",
        lambda s: dict(overhead_s=10e-6, mem_bandwidth=s.gpu.mem_bandwidth),
    ),
    _Example(
        "kv_cache_bytes_per_token",
        "kv-cache",
        "{model}, bf16",
        lambda s: dict(
            n_layers=s.model.n_layers,
            n_kv_heads=s.model.n_kv_heads,
            head_dim=s.model.head_dim,
            bytes_per_element=2,
        ),
    ),
    _Example(
        "kv_capacity_tokens",
        "kv-cache",
        "{model} in bf16 on an {gpu80}",
        lambda s: dict(
            memory_bytes=s.gpu80.memory_bytes,
            weight_bytes=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    _Example(
        "decode_step_time",
        "decode-weight-read",
        "{model} in bf16 on an {gpu}, batch 1",
        lambda s: dict(
            n_params=s.model.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.gpu.mem_bandwidth,
            peak_flops=s.gpu.peak_flops,
        ),
    ),
    _Example(
        "ridge_point",
        "ops-byte-threshold",
        "{gpu}, dense bf16",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth),
    ),
    _Example(
        "flops_per_token",
        "two-p-flops",
        "{model}",
        lambda s: dict(n_params=s.model.n_params),
    ),
    _Example(
        "attention_flops_per_token",
        "two-p-flops",
        "{model} at 4,096 tokens of context (what 2P leaves out)",
        lambda s: dict(
            n_layers=s.model.n_layers, n_heads=s.model.n_heads, head_dim=s.model.head_dim, context_len=4096
        ),
    ),
    _Example(
        "prefill_time",
        "prefill-vs-decode",
        "{model}, a 2,048-token prompt on an {gpu}",
        lambda s: dict(n_params=s.model.n_params, n_tokens=2048, peak_flops=s.gpu.peak_flops),
    ),
    _Example(
        "decode_arithmetic_intensity",
        "prefill-vs-decode",
        "decode at batch 1, bf16 weights",
        lambda s: dict(batch_size=1, bytes_per_param=2),
    ),
    _Example(
        "decode_critical_batch_size",
        "decode-batch-threshold",
        "{gpu}, bf16 weights",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth, bytes_per_param=2),
    ),
    _Example(
        "decode_critical_batch_size",
        "decode-batch-threshold",
        "{gpu}, int8 weights computed in bf16 (half the bytes, same peak)",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth, bytes_per_param=1),
    ),
    _Example(
        "time_to_first_token",
        "prefill-vs-decode",
        "{model} in bf16 on an {gpu}, a 2,048-token prompt",
        lambda s: dict(
            n_params=s.model.n_params,
            prompt_tokens=2048,
            peak_flops=s.gpu.peak_flops,
            mem_bandwidth=s.gpu.mem_bandwidth,
            bytes_per_param=2,
        ),
    ),
    _Example(
        "time_per_output_token",
        "decode-weight-read",
        "{model} in bf16 on an {gpu80}, batch 8 at 4,096 tokens of context",
        lambda s: dict(
            n_params=s.model.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.gpu80.mem_bandwidth,
            peak_flops=s.gpu80.peak_flops,
            batch_size=8,
            context_len=4096,
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    _Example(
        "kv_weight_crossover_context",
        "kv-cache",
        "{model} in bf16, batch 1: the context where the KV read equals the weight read",
        lambda s: dict(
            weight_bytes=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    _Example(
        "memory_bandwidth_utilization",
        "decode-weight-read",
        "{model} in bf16 measured at 45 tokens/s (batch 1) on an {gpu}",
        lambda s: dict(
            bytes_per_step=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            steps_per_second=45,
            mem_bandwidth=s.gpu.mem_bandwidth,
        ),
    ),
    _Example(
        "tensor_parallel_decode_step_time",
        "decode-weight-read",
        "{big} in bf16 on 8 × {h100} with tensor parallelism, batch 1",
        lambda s: dict(
            n_params=s.big.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.h100.mem_bandwidth,
            peak_flops=s.h100.peak_flops,
            n_layers=s.big.n_layers,
            d_model=s.big.d_model,
            n_kv_heads=s.big.n_kv_heads,
            n_chips=8,
            link_bandwidth=s.h100.interconnect_bandwidth,
        ),
    ),
    _Example(
        "experts_touched",
        "decode-weight-read",
        "{moe} (8 experts, 2 active) at batch 16",
        lambda s: dict(n_experts=s.moe.n_experts, n_experts_active=s.moe.n_experts_active, batch_size=16),
    ),
    _Example(
        "speculative_tokens_per_step",
        "decode-weight-read",
        "4 draft tokens accepted with probability 0.8 each",
        lambda s: dict(acceptance_rate=0.8, n_draft=4),
    ),
    _Example(
        "attention_hbm_bytes",
        "fusion",
        "standard attention, one {model} layer at 8,192 tokens, bf16",
        lambda s: dict(seq_len=8192, n_heads=s.model.n_heads, head_dim=s.model.head_dim, bytes_per_element=2),
    ),
    _Example(
        "attention_hbm_bytes",
        "fusion",
        "FlashAttention (fused: the scores stay on chip), the same layer",
        lambda s: dict(
            seq_len=8192, n_heads=s.model.n_heads, head_dim=s.model.head_dim, bytes_per_element=2, flash=True
        ),
    ),
    _Example(
        "paged_kv_waste_fraction",
        "kv-cache",
        "requests of 300, 1,200, 2,500 and 700 tokens in 16-token blocks",
        lambda s: dict(request_lengths=[300, 1200, 2500, 700], block_size=16),
    ),
    _Example(
        "contiguous_kv_waste_fraction",
        "kv-cache",
        "the same requests each given a contiguous 4,096-token slot",
        lambda s: dict(request_lengths=[300, 1200, 2500, 700], max_seq_len=4096),
    ),
    _Example(
        "quantization_decode_speedup",
        "decode-batch-threshold",
        "{model} on an {gpu}, batch 1: bf16 weights to int8",
        lambda s: dict(
            n_params=s.model.n_params,
            mem_bandwidth=s.gpu.mem_bandwidth,
            peak_flops=s.gpu.peak_flops,
            bytes_per_param=2,
            quantized_bytes_per_param=1,
        ),
    ),
)


def formulas(models: Mapping[str, ModelConfig], hardware: Mapping[str, Accelerator]) -> tuple[Formula, ...]:
    """Each example formula run through the estimator with its steps recorded."""
    setups = _Setups.of(models, hardware)
    out = []
    for example in _EXAMPLES:
        with recording() as steps:
            est.FUNCTIONS[example.name](**example.kwargs(setups))
        last = steps[-1]
        setup = example.setup.format(**setups.names())
        out.append(Formula(example.name, last.label, last.formula, setup, tuple(steps), example.checklist))
    return tuple(out)


def build_cheat_sheet() -> CheatSheet:
    """The whole sheet from the shipped presets."""
    hardware, models = load_hardware(), load_models()
    return CheatSheet(accelerator_table(hardware), model_table(models), formulas(models, hardware))


def _markdown_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(columns), line(["---"] * len(columns)), *(line(row) for row in rows)])


def formula_rows(sheet: CheatSheet) -> tuple[tuple[str, ...], ...]:
    """The formulas as table rows: what, formula, worked example, checklist item title."""
    titles = {item.id: item.title for item in load_checklist()}
    return tuple((f.label, f.formula, f.example, titles[f.checklist]) for f in sheet.formulas)


FORMULA_COLUMNS = ("what", "formula", "worked example", "checklist item")


def cheat_sheet_markdown(sheet: CheatSheet) -> str:
    """The sheet as one Markdown document, for a download or a printout."""
    parts = [
        "# Roofline Drill: the numbers worth knowing cold",
        "SI units: GB = 10⁹ B, TB/s = 10¹² B/s; a multiply-add is 2 FLOP. "
        "Every figure comes from the app's presets (with their sources) and its estimator.",
    ]
    for table in (sheet.accelerators, sheet.models):
        parts += [f"## {table.title}", table.note, _markdown_table(table.columns, table.rows)]
    parts += ["## Formulas", _markdown_table(FORMULA_COLUMNS, formula_rows(sheet))]
    return "\n\n".join(parts) + "\n"
