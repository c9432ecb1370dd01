"""A store error on a page: its message, and for a database that vanished, the way to start afresh."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from progress import Store, StoreError, VanishedDatabaseError


def _start_afresh(path: str) -> None:
    Store(Path(path)).start_afresh()
    st.toast(f"A new, empty progress file was created at {path}.")


def show_store_error(exc: StoreError, *, key: str) -> None:
    """Show the store's message; a deleted or emptied database gets a button to start a new one.

    Nothing re-creates the file unless that button is pressed: restoring the old file and reloading
    keeps every answer it held.
    """
    st.error(str(exc), icon=":material/database:")
    if isinstance(exc, VanishedDatabaseError):
        st.button(
            "Start a new, empty progress file",
            key=key,
            on_click=_start_afresh,
            args=(str(exc.path),),
            help="Only if the old file is gone for good: its history cannot come back from here.",
        )
