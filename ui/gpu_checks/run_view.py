"""Drawing a GPU-check run: what it answers, how far to trust it, the roofline, the raw figures.

The page hands over a finished (or stopped) :class:`gpu_checks.RunReport`; everything shown is
formatted with SI prefixes, and every figure the run could not measure reliably is marked with
its reason and what to do. Raw numbers appear only in the CSV downloads.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from gpu_checks import DeviceInfo, RunReport, get_plan
from gpu_checks.errors import PlanError
from gpu_checks.findings import Finding, findings
from gpu_checks.reliability import Doubt, Doubts, Reason, assess, doubts_of
from gpu_checks.table import (
    comparison_rows,
    format_si,
    roofline_points,
    sample_display_rows,
    sample_rows,
    to_csv,
)
from ui import state_keys as keys
from ui.practice_link_view import practice_button
from ui.roofline_chart import roofline_chart

_PROBE_NAMES = {
    "bandwidth": "memory bandwidth",
    "matmul": "matmul roofline",
    "overhead": "overhead floor",
    "decode": "decode batch sweep",
    "fusion": "fusion",
}
_RANGE = (Reason.BELOW_RANGE, Reason.ABOVE_RANGE)


def device_card(info: DeviceInfo, spec_name: str | None) -> None:
    """The device the checks run on: memory, cache, threads and which datasheet it matches."""
    with st.container(border=True):
        st.markdown(f"**{info.name}** · `{info.torch_device}` · torch {info.torch_version}")
        # A row that wraps, not four columns: columns stack on a phone, a screenful of four numbers
        # before the run buttons; here they sit two to a line.
        row = st.container(horizontal=True)
        row.metric("Memory", format_si(info.memory_bytes, "B"), width="content")
        row.metric("Free now", format_si(info.free_memory_bytes, "B"), width="content")
        row.metric("Last-level cache", format_si(info.llc_bytes, "B"), help=info.llc_source, width="content")
        row.metric("CPU threads", info.threads, width="content")
        st.caption(
            f"Fast matmul dtypes: {', '.join(info.fast_dtypes)}. "
            + (f"Spec roof: {spec_name}." if spec_name else "No preset matches this device: measured only.")
        )


def _finished_probes(report: RunReport) -> list[str]:
    done = {
        "bandwidth": report.bandwidth is not None,
        "matmul": report.matmul is not None,
        "overhead": report.overhead is not None,
        "decode": bool(report.decode),
        "fusion": report.fusion is not None,
    }
    return [name for name, ok in done.items() if ok]


def stopped_notice(report: RunReport) -> None:
    """What a stopped run got through, and what it did not reach."""
    finished = _finished_probes(report)
    try:
        planned = [probe.value for probe in get_plan(report.plan).probes]
    except PlanError:  # a plan this version no longer has
        planned = list(_PROBE_NAMES)
    missing = [name for name in planned if name not in finished and name not in report.errors]
    got = ", ".join(_PROBE_NAMES[n] for n in finished) or "nothing yet"
    st.warning(
        f"This {report.plan} run was stopped after {format_si(report.elapsed_s, 's')}. "
        f"It finished: {got}. Not finished: {', '.join(_PROBE_NAMES.get(n, n) for n in missing) or 'none'}. "
        "The figures below come from the probes that finished; start a new run for the rest.",
        icon=":material/stop_circle:",
    )


def _figure(value: float | None, unit: str, doubts: tuple[Doubt, ...]) -> str:
    """``value`` with its SI prefix, "⚠" when in doubt; a knee outside the sweep says so instead."""
    out_of_range = next((d for d in doubts if d.reason in _RANGE), None)
    if out_of_range is not None:
        return f"{out_of_range.reason.value} ⚠"
    text = format_si(value, unit)
    return f"{text} ⚠" if doubts else text


def _knee_metric(report: RunReport, doubts: tuple[Doubt, ...]) -> str:
    """The decode knee for a narrow metric: outside the sweep, "< smallest" or "> largest" batch swept."""
    decode = report.primary_decode
    out_of_range = next((d for d in doubts if d.reason in _RANGE), None)
    if decode is None or not decode.samples or out_of_range is None:
        return _figure(decode.knee_measured if decode else None, "", doubts)
    batches = [s.size for s in decode.samples]
    if out_of_range.reason is Reason.BELOW_RANGE:
        return f"< {min(batches)} ⚠"
    return f"> {max(batches)} ⚠"


def headline(report: RunReport, doubts: Doubts) -> None:
    """Four headline figures; an unreliable one is marked ⚠ and says why on hover."""
    summary = report.summary()
    best = report.best_dtype
    decode = report.primary_decode
    figures = [
        ("Memory bandwidth", summary["mem_bandwidth_bytes_per_s"], "B/s", ["bandwidth"]),
        ("Best matmul", report.peak_flops, "FLOP/s", [f"matmul:{best}"]),
        ("Overhead per op", summary["overhead_s_per_op"], "s", ["overhead"]),
        (
            "Decode knee (batch)",
            summary["decode_knee_batch_measured"],
            "",
            [f"decode-knee:{decode.dtype}"] if decode else [],
        ),
    ]
    cols = st.columns([1.0, 1.4, 1.0, 1.0])
    for col, (label, value, unit, figure_keys) in zip(cols, figures, strict=True):
        found = doubts_of(doubts, figure_keys)
        notes = [d.sentence() for d in found]
        if label.startswith("Decode") and decode and decode.knee_predicted:
            notes.append(f"Predicted {format_si(decode.knee_predicted, '')}.")
        shown = _knee_metric(report, found) if label.startswith("Decode") else _figure(value, unit, found)
        col.metric(label, shown, help=" ".join(notes) or None)


def _practice_button(check_id: str, titles: Mapping[str, str]) -> None:
    title = titles.get(check_id, check_id)
    practice_button(check_id, f"Practise: {title}", key=keys.GPU_PRACTICE_PREFIX + check_id)


def answers(found: list[Finding], titles: Mapping[str, str]) -> None:
    """Each finding as the answer it backs, its doubts, and a button to practise that item."""
    st.subheader("What this run answers")
    for finding in found:
        with st.container(border=True):
            st.markdown(f"**{titles.get(finding.check_id, finding.check_id)}**")
            st.markdown(finding.text)
            for doubt in finding.doubts:
                st.warning(f"Not reliable. {doubt.sentence()}", icon=":material/warning:")
            _practice_button(finding.check_id, titles)


def comparisons(report: RunReport, doubts: Doubts) -> None:
    """Predicted against measured, one short block per row (readable on a phone)."""
    st.subheader("Predicted vs measured")
    rows = report.comparisons()
    if not rows:
        st.caption("Nothing to compare: a prediction needs the bandwidth and matmul probes to have finished.")
        return
    lines = []
    for c in rows:
        found = doubts_of(doubts, c.depends)
        ratio = f"**{c.ratio:.2g}×**" if c.ratio is not None and not found else "ratio not trusted"
        if c.ratio is None:
            ratio = "no ratio"
        mark = f" · ⚠ {', '.join(dict.fromkeys(d.reason.value for d in found))}" if found else ""
        lines.append(
            f"- **{c.label}**: predicted {format_si(c.predicted, c.unit)} · measured "
            f"{_figure(c.measured, c.unit, found)} · {ratio}{mark}  \n  *{c.basis}*"
        )
    st.markdown("\n".join(lines))
    st.caption("Ratio = measured / predicted. ⚠ marks a figure this run could not measure reliably.")


def roofline(report: RunReport) -> None:
    """The measured roof, the datasheet roof when the device matches a preset, and every sample."""
    if not (report.peak_flops and report.mem_bandwidth):
        return
    st.subheader("Roofline")
    spec = report.spec
    chart = roofline_chart(
        peak_flops=report.peak_flops,
        mem_bandwidth=report.mem_bandwidth,
        points=roofline_points(report),
        spec_peak_flops=spec.peak_flops if spec else None,
        spec_mem_bandwidth=spec.mem_bandwidth if spec else None,
    )
    # Up to a dozen probe series: a legend beside the plot would leave it no room on a phone, so it
    # goes below, in small type, and the chart is tall enough to keep the plot's height.
    legend = {"orient": "bottom", "direction": "vertical", "columns": 1, "labelFontSize": 10}
    st.altair_chart(chart.properties(height=480).configure_legend(**legend), width="stretch")
    st.caption(
        "Points marked “in cache” fit in the last-level cache and may sit above the memory roof: "
        "that roof is memory's bandwidth, not the cache's."
    )


def measurements(report: RunReport) -> None:
    """Every timed sample, formatted, and the raw samples and comparisons as CSV downloads."""
    rows = sample_display_rows(report)
    noisy = sum(1 for sample in report.samples() if sample.timing.noisy)
    with st.expander(f"All {len(rows)} measurements ({noisy} noisy: spread above 10 % of the median)"):
        st.dataframe(rows, hide_index=True)
    stamp = report.started_at[:19].replace(":", "-")
    downloads = (
        ("Raw samples (CSV)", sample_rows(report), "gpu-checks", keys.GPU_CSV_SAMPLES),
        (
            "Predicted vs measured (CSV)",
            comparison_rows(report),
            "gpu-checks-comparisons",
            keys.GPU_CSV_COMPARISONS,
        ),
    )
    for col, (label, rows_, stem, key) in zip(st.columns(2), downloads, strict=True):
        col.download_button(
            label,
            to_csv(rows_),
            file_name=f"{stem}-{stamp}.csv",
            mime="text/csv",
            key=key,
            icon=":material/download:",
        )


def show_report(report: RunReport, *, titles: Mapping[str, str]) -> None:
    """The whole result section of one run."""
    doubts = assess(report)
    st.caption(
        f"{report.plan.capitalize()} run of {report.started_at[:16].replace('T', ' ')} UTC · "
        f"{format_si(report.elapsed_s, 's')} · {report.threads} threads"
    )
    if report.stopped:
        stopped_notice(report)
    for probe, error in report.errors.items():
        st.error(f"{_PROBE_NAMES.get(probe, probe)} failed: {error}")
    headline(report, doubts)
    answers(findings(report, doubts=doubts), titles)
    roofline(report)
    comparisons(report, doubts)
    measurements(report)
