"""Process-wide caches of immutable data: the parsed question bank and the presets."""

from __future__ import annotations

import os

import streamlit as st

from progress import Store
from progress.aggregates import SnapshotCache
from question_bank import Bank
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
