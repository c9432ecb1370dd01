"""Process-wide caches of immutable data: the parsed question bank and the presets."""

from __future__ import annotations

import os

import streamlit as st

from progress import Store
from progress.aggregates import SnapshotCache
from question_bank import Bank, BankError
from question_bank.generation_checks import usable_bank
from ui.context import db_path


@st.cache_resource(show_spinner=False)
def _bank(bank_dirs: str) -> Bank:
    # A resource, not data: the bank is immutable and shared read-only, and cache_data would
    # unpickle a fresh copy of all templates on every rerun. Keyed on DRILL_BANK_DIRS so that a
    # different set of user folders is parsed anew.
    # The same checks as ``python -m question_bank validate``: what it refuses is left out, by name.
    del bank_dirs
    return usable_bank()


def bank() -> Bank:
    """The shipped bank plus the folders in ``DRILL_BANK_DIRS``, parsed once per process."""
    return _bank(os.environ.get("DRILL_BANK_DIRS", ""))


def bank_or_stop() -> Bank:
    """The usable bank, with a note naming what was left out; an error and a stop when nothing loads."""
    loaded: Bank | None  # None where the bank could not be loaded at all
    try:
        loaded = bank()
    except BankError as exc:
        loaded = None
        message = str(exc)
    else:
        message = "\n".join(f"  {issue}" for issue in loaded.refused)
    if loaded is None or not loaded.templates:
        st.error(f"The question bank could not be loaded; fix the files below and reload.\n\n{message}")
        st.stop()
        raise AssertionError("unreachable: st.stop() raises")
    if loaded.refused:
        count = len(loaded.refused)
        with st.expander(
            f"{count} bank problem{'s' * (count != 1)}: left out, the rest of the bank works",
            icon=":material/warning:",
        ):
            st.markdown("Fix these and restart the app (`python -m question_bank validate` lists the same):")
            st.code(message, language=None, wrap_lines=True)
    return loaded


@st.cache_resource(show_spinner=False, max_entries=64)
def _store(path: str) -> Store:
    # A Store holds no connection (each use opens a short-lived one); sharing it only saves the
    # check of the file and its schema on every rerun.
    return Store(path)


def store() -> Store:
    """The progress store of this session's database."""
    return _store(str(db_path()))


@st.cache_resource(show_spinner=False)
def snapshot_cache() -> SnapshotCache:
    """One cache of readiness snapshots for the whole server: a rerun on unchanged data skips the scan."""
    return SnapshotCache()
