"""Per-session context: which database, which clock. Computed inside init, never at import."""

from __future__ import annotations

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
        st.session_state[keys.RNG_SEED] = random.SystemRandom().randrange(2**31)


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
    rng = random.Random(st.session_state[keys.RNG_SEED])
    seed = rng.randrange(2**31)
    st.session_state[keys.RNG_SEED] = seed
    return seed
