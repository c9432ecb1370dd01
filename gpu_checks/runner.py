"""Running a plan: one run at a time per process and per device, progress, a stop flag, time budgets.

:class:`Runner` runs synchronously (``run``, for the CLI) or in a background thread (``start``,
for the page, which polls the returned :class:`RunHandle`). Both take the process-wide run lock
and the device's cross-process lock (``gpu_checks.lock``) without waiting, and raise
:class:`RunInProgressError` when another run holds either. The background run in progress is
also reachable through :meth:`Runner.active`, so any session of the app (another tab, after the
starting tab closed) can follow and stop it.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gpu_checks.device import DeviceInfo, DeviceKind, discover, resolve_kind
from gpu_checks.errors import DeviceUnavailableError, RunInProgressError
from gpu_checks.lock import DeviceLock, default_lock_dir
from gpu_checks.plan import Plan, ProbeName
from gpu_checks.presets import spec_roof
from gpu_checks.report import RunReport

#: Share of the progress bar each probe fills (by its typical cost).
_WEIGHTS = {
    ProbeName.BANDWIDTH: 0.3,
    ProbeName.MATMUL: 0.15,
    ProbeName.OVERHEAD: 0.1,
    ProbeName.DECODE: 0.35,
    ProbeName.FUSION: 0.1,
}
_RUN_LOCK = threading.Lock()
#: The background run of this process, whichever session started it (guarded by ``_RUN_LOCK``).
_active: RunHandle | None = None


@dataclass(frozen=True)
class Progress:
    """How far a run is (0..1) and what it is doing."""

    fraction: float
    message: str


ProgressFn = Callable[[Progress], None]


class RunHandle:
    """A run in a background thread: its progress, a stop request, and its report or error."""

    def __init__(self) -> None:
        self._progress = Progress(0.0, "starting")
        self._stop = threading.Event()
        self._done = threading.Event()
        self._report: RunReport | None = None
        self._error: str | None = None

    @classmethod
    def finished(cls, report: RunReport) -> RunHandle:
        """A handle whose run has already ended with ``report``."""
        handle = cls()
        handle.finish(report)
        return handle

    @property
    def progress(self) -> Progress:
        return self._progress

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def stop_event(self) -> threading.Event:
        return self._stop

    @property
    def report(self) -> RunReport | None:
        """The report once done (None while running or after an error)."""
        return self._report

    @property
    def error(self) -> str | None:
        """What stopped the run from producing a report, once done."""
        return self._error

    def request_stop(self) -> None:
        """Ask the run to stop after the measurement in progress."""
        self._stop.set()

    def update(self, progress: Progress) -> None:
        self._progress = progress

    def finish(self, report: RunReport) -> None:
        self._report = report
        self._progress = Progress(1.0, "stopped" if report.stopped else "done")
        self._done.set()

    def fail(self, error: str) -> None:
        self._error = error
        self._done.set()

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until done or ``timeout_s`` passes; True when done."""
        return self._done.wait(timeout_s)


def _device_key(device: str | None) -> str:
    try:
        return resolve_kind(device).value
    except DeviceUnavailableError:
        return str(device)  # the run itself then fails with the reason


def _take_run_lock(*, lock_dir: Path, device: str | None, plan: Plan) -> DeviceLock:
    if not _RUN_LOCK.acquire(blocking=False):
        raise RunInProgressError("a run is already in progress in this process; wait for it or stop it")
    lock = DeviceLock(lock_dir=lock_dir, device_key=_device_key(device))
    try:
        lock.acquire(what=f"{plan.name} run started {_now_utc().isoformat(timespec='seconds')}")
    except BaseException:
        _RUN_LOCK.release()
        raise
    return lock


def _now_utc() -> datetime:
    return datetime.now(UTC)


class Runner:
    """Runs plans on a device. ``clock`` stamps reports; ``compiler`` replaces torch.compile (tests);
    ``lock_dir`` holds the cross-process device locks (default: a folder in the temporary folder).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = _now_utc,
        compiler: Callable[[Any], Any] | None = None,
        lock_dir: Path | None = None,
    ) -> None:
        self._clock = clock
        self._compiler = compiler
        self._lock_dir = lock_dir or default_lock_dir()

    def active(self) -> RunHandle | None:
        """The background run in progress in this process, whoever started it; None when idle."""
        handle = _active
        return handle if handle is not None and not handle.done else None

    def available_devices(self) -> tuple[str, ...]:
        """Device kinds this torch build and machine offer, best first."""
        import torch

        kinds = [DeviceKind.CUDA] if torch.cuda.is_available() else []
        kinds += [DeviceKind.MPS] if torch.backends.mps.is_available() else []
        return (*(kind.value for kind in kinds), DeviceKind.CPU.value)

    def describe(self, device: str | None = None, *, threads: int | None = None) -> DeviceInfo:
        """Discover ``device`` (default: the best available) without measuring anything."""
        return discover(device, threads=threads)

    def run(
        self,
        plan: Plan,
        *,
        device: str | None = None,
        threads: int | None = None,
        progress: ProgressFn | None = None,
        stop: threading.Event | None = None,
    ) -> RunReport:
        """Run ``plan`` now, in this thread."""
        lock = _take_run_lock(lock_dir=self._lock_dir, device=device, plan=plan)
        try:
            return self._run(plan, device=device, threads=threads, progress=progress, stop=stop)
        finally:
            lock.release()
            _RUN_LOCK.release()

    def start(
        self,
        plan: Plan,
        *,
        device: str | None = None,
        threads: int | None = None,
        history_path: Path | None = None,
    ) -> RunHandle:
        """Run ``plan`` in a background thread; the report is appended to ``history_path`` when given."""
        global _active
        lock = _take_run_lock(lock_dir=self._lock_dir, device=device, plan=plan)
        handle = RunHandle()
        _active = handle

        def work() -> None:
            report: RunReport | None = None
            failure = "the run ended without a report"
            try:
                report = self._run(
                    plan, device=device, threads=threads, progress=handle.update, stop=handle.stop_event
                )
                if history_path is not None:
                    from gpu_checks.history import append_report

                    append_report(history_path, report)
            except Exception as error:  # shown on the page instead of vanishing with the thread
                report, failure = None, f"{type(error).__name__}: {error}"
            finally:
                # Free the device before saying "done", so a new run started at once is accepted.
                lock.release()
                _RUN_LOCK.release()
            if report is not None:
                handle.finish(report)
            else:
                handle.fail(failure)

        threading.Thread(target=work, name="gpu-checks-run", daemon=True).start()
        return handle

    def _run(
        self,
        plan: Plan,
        *,
        device: str | None,
        threads: int | None,
        progress: ProgressFn | None,
        stop: threading.Event | None,
    ) -> RunReport:
        import torch

        from gpu_checks.session import Session

        info = discover(device, threads=threads)
        # Sizes are checked against the memory cap here, before anything is allocated or changed.
        session = Session(info=info, plan=plan, stop=stop, compiler=self._compiler)
        started_at = self._clock().isoformat()
        started = time.monotonic()
        previous_threads = torch.get_num_threads()
        torch.set_num_threads(info.threads)
        torch.manual_seed(0)
        weights = {name: _WEIGHTS[name] for name in plan.probes}
        scale = sum(weights.values()) or 1.0
        done = 0.0

        def report_progress(name: ProbeName) -> Callable[[float, str], None]:
            base, share = done, weights[name] / scale

            def on_progress(fraction: float, message: str) -> None:
                if progress is not None:
                    progress(Progress(base + share * fraction, message))

            return on_progress

        try:
            if progress is not None:
                progress(Progress(0.0, "filling buffers with random data"))
            session.open()
            for name in plan.probes:
                if not session.run_probe(name, on_progress=report_progress(name)):
                    break
                done += weights[name] / scale
        finally:
            session.close()
            torch.set_num_threads(previous_threads)
            gc.collect()
            if info.kind is DeviceKind.CUDA:
                torch.cuda.empty_cache()
        return session.report(
            started_at=started_at, elapsed_s=time.monotonic() - started, spec=spec_roof(info.preset_id)
        )
