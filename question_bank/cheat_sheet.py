"""The cheat sheet: the numbers and formulas worth knowing cold, generated from the presets and the estimator.

Nothing here is typed in by hand: the accelerator and model tables are the presets put through the
estimator (ridge points, KV bytes per token, weight bytes), and each formula is shown with its
worked example exactly as the estimator records it. A preset or formula that changes changes the
sheet with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from grader import estimator as est
from grader.estimator.derivation import Step, recording
from grader.markdown import markdown_table
from grader.units import format_number, readable, to_display
from question_bank.cheat_sheet_examples import EXAMPLES, Setups
from question_bank.checklist import load_checklist
from question_bank.presets import Accelerator, ModelConfig, load_hardware, load_models

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
            _n(gpu.mem_bandwidth, "TB/s"),
            _n(gpu.peak_flops, "TFLOP/s"),
            _ridge(gpu.peak_flops, gpu.mem_bandwidth),
            _n(gpu.memory_bytes, "GB"),
            _n(gpu.peak_int8_ops, "TFLOP/s"),
            _ridge(gpu.peak_int8_ops, gpu.mem_bandwidth),
            _n(gpu.peak_flops_vector, "TFLOP/s"),
            _ridge(gpu.peak_flops_vector, gpu.mem_bandwidth),
            _n(gpu.interconnect_bandwidth, "GB/s"),
            gpu.interconnect or _NONE,
        )
        for gpu in hardware.values()
    )
    return Table(
        title="Accelerators",
        columns=(
            # The figures asked most come first, each peak beside its ridge: on a phone the first
            # columns are the ones in view.
            "accelerator",
            "HBM TB/s",
            "dense 16-bit TFLOP/s",
            "ridge 16-bit FLOP/B",
            "memory GB",
            "dense int8 TOP/s",
            "ridge int8 OP/B",
            "fp32 vector TFLOP/s",
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


def _kv_bytes_per_token(model: ModelConfig, bytes_per_element: float) -> float:
    if model.kv_lora_rank is not None and model.qk_rope_head_dim is not None:
        return est.mla_kv_bytes_per_token(
            n_layers=model.n_layers,
            kv_lora_rank=model.kv_lora_rank,
            rope_head_dim=model.qk_rope_head_dim,
            bytes_per_element=bytes_per_element,
        )
    return est.kv_cache_bytes_per_token(
        n_layers=model.n_layers,
        n_kv_heads=model.n_kv_heads,
        head_dim=model.head_dim,
        bytes_per_element=bytes_per_element,
    )


def model_table(models: Mapping[str, ModelConfig]) -> Table:
    """Shape, KV bytes per token and weight bytes of every model preset."""
    rows = []
    for model in models.values():
        kv = {dtype: _kv_bytes_per_token(model, est.dtype_bytes(dtype=dtype)) for dtype in ("bf16", "fp8")}
        weights = {
            dtype: est.weight_bytes(n_params=model.n_params, bytes_per_param=est.dtype_bytes(dtype=dtype))
            for dtype in ("bf16", "int8")
        }
        rows.append(
            (
                model.name,
                str(model.n_layers),
                str(model.n_heads),
                "MLA latent" if model.latent_attention else str(model.n_kv_heads),
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
            "KV bytes per token = 2 (K and V) · layers · KV heads · head dim · bytes (with latent "
            "attention, MLA: layers · (KV latent + RoPE key) · bytes); "
            "weights = params · bytes. Params are counted from each config "
            "(every parameter, embeddings included)."
        ),
        provenance=_provenance(models),
    )


def formulas(models: Mapping[str, ModelConfig], hardware: Mapping[str, Accelerator]) -> tuple[Formula, ...]:
    """Each example formula run through the estimator with its steps recorded."""
    setups = Setups.of(models, hardware)
    out = []
    for example in EXAMPLES:
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
        parts += [f"## {table.title}", table.note, markdown_table(table.columns, table.rows)]
    parts += ["## Formulas", markdown_table(FORMULA_COLUMNS, formula_rows(sheet))]
    return "\n\n".join(parts) + "\n"
