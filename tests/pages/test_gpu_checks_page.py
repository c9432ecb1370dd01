"""AppTest of the GPU checks page with a fast fake runner passed in through session state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gpu_checks import (
    DeviceInfo,
    DeviceKind,
    Plan,
    Progress,
    RunHandle,
    RunInProgressError,
    RunReport,
    append_report,
    spec_roof,
)
from gpu_checks.history import history_path_for, load_history
from tests.gpu_checks import synthetic
from ui import state_keys as keys

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


@dataclass
class FakeRunner:
    """Answers at once with a synthetic report (a minute later each run), or leaves the run in progress.

    ``report_of`` turns the synthetic report into another (stopped, noisy...); ``elsewhere`` is a
    run in progress that another tab started.
    """

    finish: bool = True
    busy: bool = False
    info: DeviceInfo = field(default_factory=synthetic.device)
    report_of: Callable[[RunReport], RunReport] = lambda report: report
    elsewhere: RunHandle | None = None
    plans: list[str] = field(default_factory=list)
    handles: list[RunHandle] = field(default_factory=list)

    def available_devices(self) -> tuple[str, ...]:
        return ("cpu",)

    def active(self) -> RunHandle | None:
        running = [h for h in (*self.handles, self.elsewhere) if h is not None and not h.done]
        return running[0] if running else None

    def describe(self, device: str | None = None, *, threads: int | None = None) -> DeviceInfo:
        return self.info

    def start(
        self,
        plan: Plan,
        *,
        device: str | None = None,
        threads: int | None = None,
        history_path: Path | None = None,
    ) -> RunHandle:
        if self.busy:
            raise RunInProgressError("a run is already in progress in this process; wait for it or stop it")
        self.plans.append(plan.name)
        if not self.finish:
            handle = RunHandle()
            handle.update(Progress(0.4, "decode bfloat16: batch 64"))
        else:
            started = NOW + timedelta(minutes=len(self.plans))
            report = self.report_of(
                synthetic.report(
                    started_at=started.isoformat(), info=self.info, spec=spec_roof(self.info.preset_id)
                )
            )
            if history_path is not None:
                append_report(history_path, report)
            handle = RunHandle.finished(report)
        self.handles.append(handle)
        return handle


def page(db: Path, runner: FakeRunner) -> AppTest:
    at = AppTest.from_file("../../pages/gpu_checks.py", default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.GPU_RUNNER] = runner
    return at.run()


def test_an_empty_history_invites_a_quick_run(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner())
    assert not at.exception
    assert "Test CPU" in at.markdown[0].value
    assert any("No runs on this device yet" in info.value for info in at.info)
    assert at.button(key=keys.GPU_STOP).disabled


def test_a_quick_run_shows_results_and_is_stored(tmp_path: Path) -> None:
    runner = FakeRunner()
    at = page(tmp_path / "p.db", runner)
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    assert runner.plans == ["quick"]
    assert len(load_history(history_path_for(tmp_path / "p.db")).reports) == 1
    assert at.metric[4].label == "Memory bandwidth"
    assert at.metric[4].value == "10 GB/s"
    text = " ".join(block.value for block in at.markdown)
    assert "This device moves 10 GB/s" in text
    assert "bandwidth-bound" in text
    assert "The decode batch knee was measured at 40.2 (predicted 40" in text
    assert "15262054690" not in text and "10000000000" not in text  # no raw figures on show
    assert at.button(key=keys.GPU_PRACTICE_PREFIX + "fusion").label == "Practise: Operator fusion"
    assert at.button(key=keys.GPU_PRACTICE_PREFIX + "decode-batch-threshold").label == (
        "Practise: Decode batch threshold"
    )
    assert not at.warning  # a clean run has nothing to doubt
    assert at.download_button(key=keys.GPU_CSV_SAMPLES)
    assert at.download_button(key=keys.GPU_CSV_COMPARISONS)
    assert len(at.get("vega_lite_chart")) == 1


def test_past_runs_are_shown_from_history(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    path = history_path_for(db)
    append_report(path, synthetic.report(started_at="2026-11-28T09:00:00+00:00"))
    append_report(path, synthetic.report(started_at="2026-11-29T09:00:00+00:00"))
    append_report(path, synthetic.report(info=synthetic.device(name="Another machine")))
    at = page(db, FakeRunner())
    assert not at.exception
    picker = at.selectbox(key=keys.GPU_HISTORY_PICK)
    assert len(picker.options) == 2  # only this device's runs
    assert picker.value == "2026-11-29T09:00:00+00:00"  # the newest first
    picker.set_value("2026-11-28T09:00:00+00:00").run()
    assert not at.exception
    assert at.metric[4].value == "10 GB/s"


def test_a_running_run_shows_progress_and_can_be_stopped(tmp_path: Path) -> None:
    runner = FakeRunner(finish=False)
    at = page(tmp_path / "p.db", runner)
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    assert at.button(key=keys.GPU_QUICK).disabled
    assert at.get("progress")[0].value == pytest.approx(40)
    at.button(key=keys.GPU_STOP).click().run()
    assert runner.handles[0].stop_event.is_set()


def test_a_busy_runner_says_so(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner(busy=True))
    at.button(key=keys.GPU_FULL).click().run()
    assert not at.exception
    assert any("already in progress" in error.value for error in at.error)


def test_a_finished_report_without_history_is_still_shown(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner())
    at.session_state[keys.GPU_HANDLE] = RunHandle.finished(synthetic.report())
    at.run()
    assert not at.exception
    assert isinstance(at.session_state[keys.GPU_HANDLE].report, RunReport)
    assert at.metric[4].value == "10 GB/s"


def test_a_known_gpu_shows_its_datasheet_roof(tmp_path: Path) -> None:
    h200 = DeviceInfo(
        kind=DeviceKind.CUDA,
        torch_device="cuda:0",
        name="NVIDIA H200",
        memory_bytes=150 * 10**9,
        free_memory_bytes=140 * 10**9,
        llc_bytes=60 * 2**20,
        llc_source="CUDA L2",
        threads=16,
        torch_version="0.0",
        fast_dtypes=("float32", "bfloat16", "float16"),
        preset_id="h200_sxm",
    )
    at = page(tmp_path / "p.db", FakeRunner(info=h200))
    assert any("Spec roof: NVIDIA H200" in caption.value for caption in at.caption)
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    text = " ".join(block.value for block in at.markdown)
    for quantity in ("Memory bandwidth", "Dense matmul peak (bfloat16)", "Element-wise op FLOP/s against"):
        assert f"**{quantity}" in text
    assert "The NVIDIA H200 SXM 141GB datasheet gives 4.8 TB/s" in text
    assert "fp32 vector peak 67 TFLOP/s" in text


def test_the_newest_run_is_shown_when_it_lands(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    append_report(history_path_for(db), synthetic.report(started_at="2026-11-28T09:00:00+00:00"))
    runner = FakeRunner()
    at = page(db, runner)
    for n in range(2):
        at.button(key=keys.GPU_QUICK).click().run()
        assert not at.exception
        assert at.selectbox(key=keys.GPU_HISTORY_PICK).value == runner.handles[n].report.started_at
        at.selectbox(key=keys.GPU_HISTORY_PICK).set_value("2026-11-28T09:00:00+00:00").run()  # look back
    assert "2026-11-28 09:00" in " ".join(c.value for c in at.caption)


def test_a_stopped_run_says_what_it_got_through(tmp_path: Path) -> None:
    def stopped(report: RunReport) -> RunReport:
        return replace(
            report, stopped=True, matmul=None, overhead=None, decode=(), fusion=None, elapsed_s=4.2
        )

    at = page(tmp_path / "p.db", FakeRunner(report_of=stopped))
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    notice = " ".join(w.value for w in at.warning)
    assert "was stopped after 4.2 s" in notice
    assert "It finished: memory bandwidth." in notice
    assert "Not finished: matmul roofline, overhead floor, decode batch sweep, fusion" in notice
    assert at.metric[4].value == "10 GB/s"  # what it did measure is still shown
    assert any("Nothing to compare" in caption.value for caption in at.caption)


def test_a_knee_below_the_swept_range_is_not_shown_as_a_number(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner(report_of=synthetic.knee_below_range))
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    knee = next(m for m in at.metric if m.label == "Decode knee (batch)")
    assert knee.value == "< 1 ⚠"  # below the smallest batch swept
    warnings = " ".join(w.value for w in at.warning)
    assert "Knee below the swept range" in warnings
    assert "rerun on an idle machine" in warnings.lower()
    text = " ".join(block.value for block in at.markdown)
    assert "The decode batch knee was not measured (knee below the swept range" in text


def test_a_noisy_figure_is_marked_unreliable_with_its_reason(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner(report_of=synthetic.noisy_bandwidth))
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    assert at.metric[4].value == "10 GB/s ⚠"
    warnings = " ".join(w.value for w in at.warning)
    assert "Too noisy" in warnings and "spread by more than 10%" in warnings
    text = " ".join(block.value for block in at.markdown)
    assert "This device moves 10 GB/s ⚠." in text


def test_a_run_started_in_another_tab_can_be_stopped_here(tmp_path: Path) -> None:
    elsewhere = RunHandle()
    elsewhere.update(Progress(0.3, "matmul: float32 1024×1024"))
    at = page(tmp_path / "p.db", FakeRunner(elsewhere=elsewhere))
    assert not at.exception
    assert any("another tab" in info.value for info in at.info)
    assert at.button(key=keys.GPU_QUICK).disabled
    at.button(key=keys.GPU_STOP).click().run()
    assert elsewhere.stop_event.is_set()


def test_a_deeply_nested_history_line_is_skipped_and_named(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    path = history_path_for(db)
    append_report(path, synthetic.report(started_at="2026-11-28T09:00:00+00:00"))
    with path.open("a", encoding="utf-8") as handle:
        handle.write("[" * 100_000 + "]" * 100_000 + "\n")
    at = page(db, FakeRunner())
    assert not at.exception
    assert any("Line 2 of the GPU history" in caption.value for caption in at.caption)
    assert at.selectbox(key=keys.GPU_HISTORY_PICK).value == "2026-11-28T09:00:00+00:00"


def _stopped(report: RunReport) -> RunReport:
    return replace(report, stopped=True, matmul=None, overhead=None, decode=(), fusion=None, elapsed_s=4.2)


def test_a_stopped_run_leaves_the_last_complete_run_on_screen(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    append_report(history_path_for(db), synthetic.report(started_at="2026-11-28T09:00:00+00:00"))
    runner = FakeRunner(report_of=_stopped)
    at = page(db, runner)
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    assert len(load_history(history_path_for(db)).reports) == 2  # the stopped run is kept
    assert at.selectbox(key=keys.GPU_HISTORY_PICK).value == "2026-11-28T09:00:00+00:00"
    assert not any("was stopped after" in w.value for w in at.warning)
    assert any("last complete run stays shown" in info.value for info in at.info)
    assert at.metric[5].value == "400 GFLOP/s"  # the complete run's matmul, which the stopped one lacks
    stopped_at = runner.handles[0].report.started_at
    at.selectbox(key=keys.GPU_HISTORY_PICK).set_value(stopped_at).run()  # the user picks it
    assert not at.exception
    assert any("was stopped after 4.2 s" in w.value for w in at.warning)
    at.run()  # and it stays picked on the next rerun
    assert at.selectbox(key=keys.GPU_HISTORY_PICK).value == stopped_at


def test_a_fresh_visit_shows_the_newest_complete_run_before_a_newer_stopped_one(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    path = history_path_for(db)
    append_report(path, synthetic.report(started_at="2026-11-28T09:00:00+00:00"))
    append_report(path, _stopped(synthetic.report(started_at="2026-11-29T09:00:00+00:00")))
    at = page(db, FakeRunner())
    assert not at.exception
    picker = at.selectbox(key=keys.GPU_HISTORY_PICK)
    assert picker.options[0].startswith("2026-11-29 09:00:00 UTC · quick · stopped")  # still offered first
    assert picker.value == "2026-11-28T09:00:00+00:00"


def test_a_bandwidth_measured_on_a_busy_machine_is_shown_as_a_lower_bound(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", FakeRunner(report_of=synthetic.busy_bandwidth))
    at.button(key=keys.GPU_QUICK).click().run()
    assert not at.exception
    assert at.metric[4].value == "10 GB/s ⚠"
    warnings = " ".join(w.value for w in at.warning)
    assert "The machine was busy; this is a lower bound" in warnings
    text = " ".join(block.value for block in at.markdown)
    assert "This device moves 10 GB/s ⚠." in text
    assert "ratio not trusted" in text  # the ridge's comparison rests on the bandwidth
