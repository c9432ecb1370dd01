"""Fixtures for whole-journey tests: a real Streamlit server and Debian's Chromium through Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    reason = f"browser test: Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class AppServer:
    """A running ``streamlit run app.py`` on 127.0.0.1 with its own progress database."""

    url: str
    db_path: Path
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_server(
    *,
    db_path: Path,
    log_path: Path,
    port: int | None = None,
    env: dict[str, str] | None = None,
    script: str = "app.py",
    root: Path = ROOT,
    launcher: tuple[str, ...] = ("-m", "streamlit", "run"),
) -> AppServer:
    """Start the app (or another ``script`` under ``root``) and wait until it answers (up to 60 s).

    ``launcher`` is what runs the script: ``streamlit run``, or ``("-m", "ui.serve")`` as ``make run`` does.
    """
    port = port or _free_port()
    # The run's DRILL_SWEEP_CACHE (tests/conftest.py) comes with the environment: the bank is checked once.
    env = {**os.environ, **(env or {}), "DRILL_DB": str(db_path), "PYTHONUNBUFFERED": "1"}
    # The child keeps its own copy of the descriptor, so ours is closed right away.
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [
                sys.executable, *launcher, script,
                "--server.address", "127.0.0.1", "--server.port", str(port),
                "--server.headless", "true", "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none",
            ],
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    server = AppServer(f"http://127.0.0.1:{port}", db_path, port, process, log_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited early:\n{log_path.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.stop()
    raise RuntimeError(f"streamlit did not become healthy:\n{log_path.read_text(errors='replace')}")


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[AppServer]:
    server = start_server(db_path=tmp_path / "progress.db", log_path=tmp_path / "server.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def shared_app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One server for the tests of a file that neither write progress nor read it, nor need the server's
    first visit: each still opens its own pages, so each has its own session."""
    folder = tmp_path_factory.mktemp("shared-server")
    server = start_server(db_path=folder / "progress.db", log_path=folder / "server.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def start_app(tmp_path: Path) -> Iterator[Callable[..., AppServer]]:
    """A factory of app servers (``start_app(db_path=..., env=...)``); all are stopped at teardown."""
    servers: list[AppServer] = []

    def start(*, db_path: Path, env: dict[str, str] | None = None) -> AppServer:
        log_path = tmp_path / f"server-{len(servers)}.log"
        servers.append(start_server(db_path=db_path, log_path=log_path, env=env))
        return servers[-1]

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[object]:
    """One Chromium for the session (one per worker when tests run in parallel)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The session's Chromium; each test opens its own pages or contexts (which share no cookies or
    storage), and whatever a test leaves open, a failed one included, is closed after it."""
    yield _chromium
    for context in _chromium.contexts:
        context.close()
