"""Explore's figures as text: each figure as a person reads it, the terminal's report, the JSON form and
the Markdown export with every derivation. No Streamlit.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from grader.derivation_text import derivation_lines
from grader.markdown import markdown_table
from grader.units import format_number, readable
from ui.explore.figures import Figure, Figures

#: Figures that are fractions, shown as percents.
_FRACTIONS = frozenset({"mbu", "mfu"})
#: Figures that are whole counts.
_COUNTS = frozenset({"kv_capacity_tokens", "kv_capacity_sequences"})

#: The page's and the export's sections: (title, figure keys).
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Memory", ("weights_per_chip", "kv_per_token", "kv_per_sequence", "kv_capacity_tokens",
                "kv_capacity_sequences")),
    ("Latency and throughput", ("ttft", "tpot", "request_latency", "tokens_per_s", "tokens_per_s_per_chip",
                                "mbu", "mfu", "cost_per_million")),
    ("Regimes", ("critical_batch", "ridge", "decode_intensity", "prefill_intensity", "crossover_context")),
)  # fmt: skip


def figure_text(figure: Figure) -> str:
    """The figure as a person writes it: ``26.03 GB (24.24 GiB)``, ``13.25 ms``, ``0.63 %``."""
    if figure.key in _FRACTIONS:
        return f"{figure.value * 100:.3g} %"
    if figure.key == "cost_per_million":
        return f"${figure.value:,.3g}"
    if figure.key in _COUNTS:
        return f"{figure.value:,.0f} {figure.unit}".strip()
    if figure.unit == "B":
        return f"{readable(figure.value, 'B')} ({readable(figure.value, 'B', binary=True)})"
    if figure.unit in ("", "tokens", "tokens/s"):
        return f"{format_number(figure.value)} {figure.unit}".strip()
    return readable(figure.value, figure.unit)


def model_note(figures: Figures) -> str | None:
    """What the figures leave out for this model, or None: a mixture-of-experts model is counted whole."""
    model = figures.model
    if model.n_experts <= 1 or model.n_active_params is None:
        return None
    return (
        f"{model.name} is a mixture of experts: these figures read and multiply all "
        f"{model.n_params / 1e9:.1f} B parameters, where one token uses {model.n_active_params / 1e9:.1f} B. "
        "They are an upper bound on time and FLOPs; at batch 1 a step reads only the experts it routes to."
    )


def setup_line(figures: Figures) -> str:
    """The setup in one line: model, chips × part, number formats, batch and token counts."""
    s = figures.setup
    line = (
        f"{figures.model.name} on {s.chips} × {figures.gpu.name}; weights {s.weights}, activations "
        f"{s.activations}, KV {s.kv}; batch {s.batch}, prompt {s.prompt:,}, output {s.output:,} tokens"
    )
    return line + (f"; prefill MFU {s.mfu:g}" if s.mfu != 1.0 else "")


def op_rows(figures: Figures) -> list[list[str]]:
    return [
        [r.name, readable(r.flops, "FLOP"), readable(r.n_bytes, "B"), f"{r.intensity:.3g}", r.bound,
         readable(r.time_s, "s")]
        for r in figures.ops
    ]  # fmt: skip


OP_HEADERS = ("operation", "FLOPs", "bytes", "FLOP/B", "bound", "time")
#: The table split in two, each half keeping the operation: side by side on a wide screen, one above
#: the other on a phone, where six columns do not fit (indexes into OP_HEADERS and a row).
OP_HALVES = ((0, 1, 2), (0, 3, 4, 5))


def op_half(rows: list[list[str]], half: tuple[int, ...]) -> tuple[tuple[str, ...], list[list[str]]]:
    """One half of the per-operation table: its headers and its rows."""
    return tuple(OP_HEADERS[i] for i in half), [[row[i] for i in half] for row in rows]


def report_text(figures: Figures) -> str:
    """The terminal's report: the setup, each section's figures, the warnings and the layer table."""
    note = model_note(figures)
    lines = [setup_line(figures), *([f"Note: {note}"] if note else []), ""]
    for title, keys in SECTIONS:
        lines.append(title)
        lines += [
            f"  {figures.figures[k].label}: {figure_text(figures.figures[k])}"
            for k in keys
            if k in figures.figures
        ]
        lines.append("")
    lines.append("Fits in memory: " + ("yes" if figures.fits else "no"))
    lines += [f"Warning: {w}" for w in figures.warnings]
    lines += ["", "One layer in a decode step, per chip"]
    widths = [max(len(h), *(len(r[i]) for r in op_rows(figures))) for i, h in enumerate(OP_HEADERS)]
    for row in [list(OP_HEADERS), *op_rows(figures)]:
        lines.append("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return "\n".join(lines)


def report_json(figures: Figures) -> dict[str, Any]:
    """The JSON form: the setup, each figure's SI value, unit and steps, the table and the warnings."""
    return {
        "setup": asdict(figures.setup),
        "fits": figures.fits,
        "warnings": list(figures.warnings),
        "figures": {
            f.key: {"label": f.label, "value": f.value, "unit": f.unit,
                    "steps": [s.to_dict() for s in f.steps]}
            for f in figures.figures.values()
        },
        "layer_ops": [
            {"name": r.name, "flops": r.flops, "bytes": r.n_bytes, "intensity": r.intensity, "bound": r.bound,
             "time_s": r.time_s}
            for r in figures.ops
        ],
    }  # fmt: skip


def report_markdown(figures: Figures) -> str:
    """The Markdown export: the setup, each figure with its derivation, the warnings and the layer table."""
    parts = ["# Explore: one serving setup", "", setup_line(figures), ""]
    parts += [f"> Warning: {w}" for w in figures.warnings]
    note = model_note(figures)
    parts += [f"> Note: {note}", ""] if note else []
    for title, keys in SECTIONS:
        parts += [f"## {title}", ""]
        for key in keys:
            if key not in figures.figures:
                continue
            figure = figures.figures[key]
            parts += [f"### {figure.label}: {figure_text(figure)}", "", derivation_lines(figure.steps), ""]
    parts += [
        "## One layer in a decode step, per chip",
        "",
        markdown_table(OP_HEADERS, op_rows(figures)),
        "",
    ]
    return "\n".join(parts)
