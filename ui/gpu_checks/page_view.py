"""The GPU checks page: the device, a run of the probes, its findings, and past runs.

``pages/gpu_checks.py`` only calls :func:`show_gpu_checks_page`: what the page draws and its callbacks
live here, so that ``pages/`` holds routing alone."""

from __future__ import annotations

import streamlit as st

from gpu_checks import (
    FULL,
    QUICK,
    GpuChecksError,
    Plan,
    RunHandle,
    Runner,
    history_path_for,
    load_history,
    spec_roof,
)
from gpu_checks.table import history_rows
from question_bank import load_checklist
from ui import state_keys as keys
from ui.context import db_path, init_session
from ui.gpu_checks.run_view import device_card, show_report
from ui.shell_view import open_inside_app


def show_gpu_checks_page() -> None:
    """Draw the page, top to bottom, as one Streamlit run."""

    def _start(runner: Runner, plan: Plan, device: str) -> None:
        try:
            handle = runner.start(plan, device=device, history_path=history_path_for(db_path()))
        except GpuChecksError as exc:
            st.error(str(exc))
            return
        st.session_state[keys.GPU_HANDLE] = handle
        st.rerun()

    @st.fragment(run_every=0.5)
    def _progress(handle: RunHandle) -> None:
        st.progress(handle.progress.fraction, text=handle.progress.message)
        if handle.done:
            st.rerun()

    open_inside_app("pages/gpu_checks.py")
    init_session()
    if keys.GPU_RUNNER not in st.session_state:
        st.session_state[keys.GPU_RUNNER] = Runner()
    runner: Runner = st.session_state[keys.GPU_RUNNER]
    titles = {item.id: item.title for item in load_checklist()}

    st.title("GPU checks")
    st.caption(
        "Micro-timings on this machine that back the napkin math: memory bandwidth, the matmul roofline, the "
        "per-op overhead floor, fusion and the decode batch knee. Quick takes about 20 s on two CPU cores "
        "(longer on a busy machine); Full a few minutes."
    )
    device = st.selectbox("Device", runner.available_devices(), key=keys.GPU_DEVICE)
    try:
        info = runner.describe(device)
    except GpuChecksError as exc:
        st.error(str(exc))
        st.stop()
    mine: RunHandle | None = st.session_state.get(keys.GPU_HANDLE)
    # A run started in another tab (even one since closed) shows here too, and can be stopped here.
    current = mine if mine is not None and not mine.done else runner.active()
    running = current is not None
    history_path = history_path_for(db_path())
    history = load_history(history_path)
    past = history.for_device(info.fingerprint)
    spec = spec_roof(info.preset_id)
    device_card(info, spec.name if spec else None)
    if history.skipped:
        st.caption(history.skipped_note(history_path))

    buttons = st.container(horizontal=True)  # one row, on a phone too (columns stack there)
    if buttons.button("Quick run", key=keys.GPU_QUICK, disabled=running, icon=":material/bolt:"):
        _start(runner, QUICK, device)
    if buttons.button("Full run", key=keys.GPU_FULL, disabled=running, icon=":material/speed:"):
        _start(runner, FULL, device)
    buttons.button(
        "Stop",
        key=keys.GPU_STOP,
        disabled=not running,
        on_click=current.request_stop if current else None,
        icon=":material/stop:",
    )
    if current is not None:
        if current is not mine:
            st.info("A run started in another tab is in progress on this server; you can stop it here.")
        _progress(current)
    if mine is not None and mine.done and mine.error:
        st.error(f"The run failed: {mine.error}")

    landed = mine.report if mine is not None and mine.done else None
    if not past:
        if landed is not None:
            show_report(landed, titles=titles)
        elif not running:
            st.info("No runs on this device yet: start a Quick run.")
        st.stop()
    by_start = {report.started_at: report for report in past}
    complete = [report.started_at for report in past if not report.stopped]
    if st.session_state.get(keys.GPU_HISTORY_PICK) not in by_start:
        # Nothing picked yet: the newest complete run, since a stopped one lacks what it did not reach.
        st.session_state[keys.GPU_HISTORY_PICK] = complete[-1] if complete else past[-1].started_at
    if (
        landed is not None
        and landed.started_at in by_start
        and st.session_state.get(keys.GPU_LANDED) != landed.started_at
    ):
        st.session_state[keys.GPU_LANDED] = landed.started_at
        if not landed.stopped or not complete:
            # A run of this session has just finished: show it, whichever run was picked before.
            st.session_state[keys.GPU_HISTORY_PICK] = landed.started_at
    if landed is not None and landed.stopped and st.session_state[keys.GPU_HISTORY_PICK] != landed.started_at:
        st.info(
            "The stopped run was saved with what it got through; the last complete run stays shown. "
            "Pick the stopped one under *Run to show* to see it.",
            icon=":material/stop_circle:",
        )
    picked = st.selectbox(
        "Run to show",
        list(reversed(by_start)),
        format_func=lambda started: (
            f"{started[:19].replace('T', ' ')} UTC · {by_start[started].plan}"
            + (" · stopped" if by_start[started].stopped else "")
        ),
        key=keys.GPU_HISTORY_PICK,
    )
    show_report(by_start[picked], titles=titles)
    with st.expander(f"All runs on this device ({len(past)})"):
        st.dataframe(history_rows(reversed(past)), hide_index=True)
