"""GPU checks: live micro-timings on this device, beside the estimator's predictions."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from gpu_checks import (
    FULL,
    QUICK,
    DeviceInfo,
    GpuChecksError,
    Plan,
    RunHandle,
    Runner,
    RunReport,
    history_path_for,
    load_history,
    spec_roof,
)
from gpu_checks.table import comparison_rows, format_si, history_rows, roofline_points, sample_rows, to_csv
from ui import state_keys as keys
from ui.context import db_path, init_session
from ui.roofline_chart import roofline_chart
from ui.shell import open_inside_app

PRACTICE_PAGE = "pages/practice.py"


def _device_card(info: DeviceInfo, spec_name: str | None) -> None:
    with st.container(border=True):
        st.markdown(f"**{info.name}** · `{info.torch_device}` · torch {info.torch_version}")
        cols = st.columns(4)
        cols[0].metric("Memory", format_si(info.memory_bytes, "B"))
        cols[1].metric("Free now", format_si(info.free_memory_bytes, "B"))
        cols[2].metric("Last-level cache", format_si(info.llc_bytes, "B"), help=info.llc_source)
        cols[3].metric("CPU threads", info.threads)
        st.caption(
            f"Fast matmul dtypes: {', '.join(info.fast_dtypes)}. "
            + (f"Spec roof: {spec_name}." if spec_name else "No preset matches this device: measured only.")
        )


def _start(runner: Runner, plan: Plan, device: str) -> None:
    try:
        handle = runner.start(plan, device=device, history_path=history_path_for(db_path()))
    except GpuChecksError as exc:
        st.error(str(exc))
        return
    st.session_state[keys.GPU_HANDLE] = handle
    st.session_state.pop(keys.GPU_HISTORY_PICK, None)  # show the new run once it lands
    st.rerun()


@st.fragment(run_every=0.5)
def _progress(handle: RunHandle) -> None:
    st.progress(handle.progress.fraction, text=handle.progress.message)
    if handle.done:
        st.rerun()


def _practice_links(check_ids: list[str]) -> None:
    st.caption("Practise the checklist item a row backs:")
    per_row = 3
    for start in range(0, len(check_ids), per_row):
        row = check_ids[start : start + per_row]
        for col, check_id in zip(st.columns(per_row), row, strict=False):
            _practice_button(col, check_id)


def _practice_button(col: DeltaGenerator, check_id: str) -> None:
    if col.button(
        check_id, key=keys.GPU_PRACTICE_PREFIX + check_id, icon=":material/school:", width="stretch"
    ):
        st.session_state[keys.PRACTICE_FILTER_ITEM] = check_id
        st.switch_page(PRACTICE_PAGE)


def _show(report: RunReport) -> None:
    summary = report.summary()
    peaks = summary["matmul_peak_flops"]
    cols = st.columns([1.0, 1.4, 1.0, 1.0])
    cols[0].metric("Memory bandwidth", format_si(summary["mem_bandwidth_bytes_per_s"], "B/s"))
    cols[1].metric("Best matmul", format_si(max(peaks.values()) if peaks else None, "FLOP/s"))
    cols[2].metric("Overhead per op", format_si(summary["overhead_s_per_op"], "s"))
    cols[3].metric(
        "Decode knee (batch)",
        format_si(summary["decode_knee_batch_measured"], ""),
        help=f"predicted {format_si(summary['decode_knee_batch_predicted'], '')}",
    )
    for probe, error in report.errors.items():
        st.error(f"{probe}: {error}")
    if report.stopped:
        st.warning("This run was stopped: only the probes that finished are shown.")
    if report.peak_flops and report.mem_bandwidth:
        st.subheader("Roofline")
        spec = report.spec
        st.altair_chart(
            roofline_chart(
                peak_flops=report.peak_flops,
                mem_bandwidth=report.mem_bandwidth,
                points=roofline_points(report),
                spec_peak_flops=spec.peak_flops if spec else None,
                spec_mem_bandwidth=spec.mem_bandwidth if spec else None,
            ),
            width="stretch",
        )
    st.subheader("Predicted vs measured")
    comparisons = comparison_rows(report)
    st.dataframe(
        [
            {
                "checklist item": row["checklist_item"],
                "quantity": row["quantity"],
                "predicted": row["predicted_text"],
                "measured": row["measured_text"],
                "measured / predicted": None if row["ratio"] is None else round(row["ratio"], 2),
                "prediction from": row["basis"],
            }
            for row in comparisons
        ],
        hide_index=True,
    )
    _practice_links(sorted({row["checklist_item"] for row in comparisons}))
    st.subheader("Measurements")
    samples = sample_rows(report)
    noisy = sum(1 for row in samples if row["noisy"])
    if noisy:
        st.caption(f"{noisy} of {len(samples)} measurements are noisy (spread above 10 % of the median).")
    st.dataframe(samples, hide_index=True)
    stamp = report.started_at[:19].replace(":", "-")
    downloads = (
        ("Download measurements (CSV)", samples, "gpu-checks", keys.GPU_CSV_SAMPLES),
        (
            "Download predicted vs measured (CSV)",
            comparisons,
            "gpu-checks-comparisons",
            keys.GPU_CSV_COMPARISONS,
        ),
    )
    for col, (label, rows, stem, key) in zip(st.columns(2), downloads, strict=True):
        col.download_button(label, to_csv(rows), file_name=f"{stem}-{stamp}.csv", mime="text/csv", key=key)


open_inside_app("pages/gpu_checks.py")
init_session()
if keys.GPU_RUNNER not in st.session_state:
    st.session_state[keys.GPU_RUNNER] = Runner()
runner: Runner = st.session_state[keys.GPU_RUNNER]

st.title("GPU checks")
st.caption(
    "Micro-timings on this machine that back the napkin math: memory bandwidth, the matmul roofline, the "
    "per-op overhead floor, fusion and the decode batch knee. Quick takes about 20 s; Full a few minutes."
)
device = st.selectbox("Device", runner.available_devices(), key=keys.GPU_DEVICE)
try:
    info = runner.describe(device)
except GpuChecksError as exc:
    st.error(str(exc))
    st.stop()
handle: RunHandle | None = st.session_state.get(keys.GPU_HANDLE)
running = handle is not None and not handle.done
history = load_history(history_path_for(db_path()))
past = history.for_device(info.fingerprint)
spec = spec_roof(info.preset_id)
_device_card(info, spec.name if spec else None)

cols = st.columns(3)
if cols[0].button("Quick run", key=keys.GPU_QUICK, disabled=running, icon=":material/bolt:"):
    _start(runner, QUICK, device)
if cols[1].button("Full run", key=keys.GPU_FULL, disabled=running, icon=":material/speed:"):
    _start(runner, FULL, device)
cols[2].button(
    "Stop", key=keys.GPU_STOP, disabled=not running, on_click=handle.request_stop if handle else None
)
if handle is not None and running:
    _progress(handle)
if handle is not None and handle.done and handle.error:
    st.error(f"The run failed: {handle.error}")

if not past:
    if handle is not None and handle.report is not None:
        _show(handle.report)
    elif not running:
        st.info("No runs on this device yet: start a Quick run.")
    st.stop()
if history.skipped:
    st.caption(f"{history.skipped} unreadable lines in the history file were skipped.")
labels = [f"{r.started_at[:19].replace('T', ' ')} UTC · {r.plan}" for r in past]
picked = st.selectbox(
    "Run to show", range(len(past) - 1, -1, -1), format_func=labels.__getitem__, key=keys.GPU_HISTORY_PICK
)
_show(past[picked])
with st.expander(f"All runs on this device ({len(past)})"):
    st.dataframe(history_rows(reversed(past)), hide_index=True)
