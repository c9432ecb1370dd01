"""The runner: a whole smoke run on the CPU, one run at a time, stopping, background runs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gpu_checks.errors import RunInProgressError
from gpu_checks.history import load_history
from gpu_checks.plan import SMOKE, ProbeName
from gpu_checks.runner import Progress, RunHandle, Runner

T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def runner() -> Runner:
    return Runner(clock=lambda: T0)


def test_a_smoke_run_measures_every_probe(runner: Runner) -> None:
    import torch

    threads_before = torch.get_num_threads()
    updates: list[Progress] = []
    report = runner.run(SMOKE, device="cpu", threads=1, progress=updates.append)
    assert report.errors == {}
    assert not report.stopped
    assert report.started_at == T0.isoformat()
    assert report.threads == 1
    assert torch.get_num_threads() == threads_before  # restored
    assert report.bandwidth and report.matmul and report.overhead and report.fusion and report.decode
    fractions = [u.fraction for u in updates]
    assert fractions == sorted(fractions)
    assert fractions[0] >= 0.0 and fractions[-1] <= 1.0
    assert any(u.message.startswith(ProbeName.DECODE.value) for u in updates)


def test_one_run_at_a_time_and_a_background_run_can_be_stopped(runner: Runner, tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    handle = runner.start(SMOKE, device="cpu", threads=1, history_path=history)
    with pytest.raises(RunInProgressError):
        runner.run(SMOKE, device="cpu")
    with pytest.raises(RunInProgressError):
        runner.start(SMOKE, device="cpu")
    handle.request_stop()
    assert handle.wait(60)
    assert handle.error is None
    assert handle.report is not None
    assert handle.report.stopped
    assert handle.progress.message == "stopped"
    assert load_history(history).reports == (handle.report,)


def test_a_failed_start_reports_its_error(runner: Runner) -> None:
    handle = runner.start(SMOKE, device="tpu")
    assert handle.wait(60)
    assert handle.report is None
    assert handle.error is not None and "cpu, cuda or mps" in handle.error
    runner.run(SMOKE, device="cpu", threads=1)  # the lock was released


def test_a_finished_handle(runner: Runner) -> None:
    report = runner.run(SMOKE, device="cpu", threads=1)
    handle = RunHandle.finished(report)
    assert handle.done and handle.report is report and handle.progress.fraction == 1.0


def test_available_devices_end_with_the_cpu(runner: Runner) -> None:
    assert runner.available_devices()[-1] == "cpu"
