"""The bank on a page: what was left out of it, or an error and a stop when nothing of it loads."""

from __future__ import annotations

import streamlit as st

from question_bank import Bank, BankError
from ui.cached import bank


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
