"""The runner: a whole smoke run on the CPU, one run at a time, stopping, background runs."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gpu_checks.errors import RunInProgressError
from gpu_checks.history import load_history
from gpu_checks.plan import SMOKE, ProbeName
from gpu_checks.runner import Progress, RunHandle, Runner
from tests.gpu_checks import synthetic

T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
#: A run of one probe (the cheapest), for tests that only ask whether a run may start: it takes the
#: same process and device locks as a whole plan.
ONE_PROBE = replace(SMOKE, probes=(ProbeName.OVERHEAD,))


ROOT = Path(__file__).resolve().parents[2]
HOLD_LOCK = """
import sys, time
from pathlib import Path
from gpu_checks.lock import DeviceLock
lock = DeviceLock(lock_dir=Path(sys.argv[1]), device_key="cpu")
lock.acquire(what="quick run started earlier")
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture(scope="module")
def lock_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("locks")


@pytest.fixture(scope="module")
def runner(lock_dir: Path) -> Runner:
    return Runner(clock=lambda: T0, lock_dir=lock_dir)


@pytest.fixture
def other_process_holds_the_cpu(lock_dir: Path) -> Iterator[int]:
    """Another process holding the cpu lock, as a second terminal running the checks would."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock_dir)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        yield child.pid
    finally:
        child.kill()
        child.wait(30)
        if child.stdout is not None:
            child.stdout.close()


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
    assert runner.run(ONE_PROBE, device="cpu", threads=1).errors == {}  # the lock was released


def test_a_finished_handle() -> None:
    report = synthetic.report()
    handle = RunHandle.finished(report)
    assert handle.done and handle.report is report and handle.progress.fraction == 1.0


def test_available_devices_end_with_the_cpu(runner: Runner) -> None:
    assert runner.available_devices()[-1] == "cpu"


def test_a_run_is_refused_while_another_process_runs_on_the_device(
    runner: Runner, other_process_holds_the_cpu: int
) -> None:
    with pytest.raises(RunInProgressError, match=f"process {other_process_holds_the_cpu}"):
        runner.run(SMOKE, device="cpu", threads=1)
    with pytest.raises(RunInProgressError, match="another GPU-check run is using cpu"):
        runner.start(SMOKE, device="cpu", threads=1)
    assert runner.active() is None


def test_the_device_is_free_again_once_the_other_process_ends(runner: Runner, lock_dir: Path) -> None:
    child = subprocess.run(
        [sys.executable, "-c", HOLD_LOCK.replace("time.sleep(120)", ""), str(lock_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert child.stdout.strip() == "held"
    assert runner.run(ONE_PROBE, device="cpu", threads=1).errors == {}


def test_a_background_run_is_visible_and_stoppable_from_another_session(
    runner: Runner, lock_dir: Path
) -> None:
    handle = runner.start(SMOKE, device="cpu", threads=1)
    other_tab = Runner(lock_dir=lock_dir)  # another session's runner knows nothing of the handle
    seen = other_tab.active()
    assert seen is handle
    seen.request_stop()
    assert handle.wait(60)
    assert handle.report is not None and handle.report.stopped
    assert other_tab.active() is None
