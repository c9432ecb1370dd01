"""Settings shared by the whole suite."""

import functools
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from question_bank.sweep_cache import ENV_VAR as SWEEP_CACHE

# No per-example deadline: this suite runs on small shared machines where a slow example says
# nothing about the code. Properties still run their full number of examples.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# CI runs the same examples every time (``--hypothesis-profile=ci``, set in .ci/run): a change lands or
# not on its own merits, never on a new random draw. A developer's runs keep drawing new examples, so
# the properties still go on finding what nobody thought to test.
settings.register_profile("ci", parent=settings.get_profile("suite"), derandomize=True)
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    """One folder of sweep outcomes (DRILL_SWEEP_CACHE) for the whole run: the bank that each parallel
    worker and each app server the browser tests start would check again is checked once. Set before
    the workers start, so they and the servers inherit it; a folder the environment names is used as is.
    A test that changes what a sweep finds (by replacing a function) unsets it for itself."""
    if hasattr(config, "workerinput") or os.environ.get(SWEEP_CACHE):
        return
    folder = tempfile.mkdtemp(prefix="drill-sweeps-")
    os.environ[SWEEP_CACHE] = folder
    config.stash[_SWEEP_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_SWEEP_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SWEEP_CACHE, None)


_SWEEP_FOLDER = pytest.StashKey[str]()


@pytest.fixture(scope="session", autouse=True)
def _components_scanned_once() -> Iterator[None]:
    """Each AppTest run has Streamlit scan every installed distribution's metadata for custom components
    (about a fifth of a page test's time); the installed packages do not change during a run, so the scan
    runs once per process and each run gets its result. Without that scanner, nothing is changed."""
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:
        yield
        return
    scan = manifest_scanner.scan_component_manifests
    found = functools.cache(lambda: tuple(scan()))
    manifest_scanner.scan_component_manifests = lambda max_workers=None: list(found())
    try:
        yield
    finally:
        manifest_scanner.scan_component_manifests = scan
