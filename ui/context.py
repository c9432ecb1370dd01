"""Per-session context: which database, which clock. Computed inside init, never at import."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import streamlit as st

from ui import state_keys as keys


def _utc_now() -> datetime:
    return datetime.now(UTC)


def init_session() -> None:
    """Fill the context keys that a test or an earlier run has not set already."""
    if keys.DB_PATH not in st.session_state:
        from progress import default_db_path

        st.session_state[keys.DB_PATH] = str(default_db_path())
    if keys.CLOCK not in st.session_state:
        st.session_state[keys.CLOCK] = _utc_now
    if keys.RNG_SEED not in st.session_state:
        st.session_state[keys.RNG_SEED] = initial_seed(os.environ.get("DRILL_SEED"))


def initial_seed(text: str | None) -> int:
    """The session's first seed: ``DRILL_SEED`` when it is an integer (repeatable sessions), else random."""
    if text is not None and text.strip().lstrip("-").isdigit():
        return int(text)
    return random.SystemRandom().randrange(2**31)


def next_seed(seed: int) -> int:
    """The seed that follows ``seed``: the chain of problem seeds is a pure function of the first."""
    return random.Random(seed).randrange(2**31)


def db_path() -> Path:
    """The progress database of this session."""
    init_session()
    return Path(st.session_state[keys.DB_PATH])


def now() -> datetime:
    """The current time from this session's clock (aware, UTC)."""
    init_session()
    clock: Callable[[], datetime] = st.session_state[keys.CLOCK]
    return clock()


def new_seed() -> int:
    """A fresh problem seed; repeatable when a test seeds ``RNG_SEED``."""
    init_session()
    seed = next_seed(st.session_state[keys.RNG_SEED])
    st.session_state[keys.RNG_SEED] = seed
    return seed
