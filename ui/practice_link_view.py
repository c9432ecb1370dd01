"""A button that opens Practice on one checklist item: how the other pages send a user to practise."""

from __future__ import annotations

import streamlit as st

from ui import state_keys as keys

PRACTICE_PAGE = "pages/practice.py"


def practice_button(item_id: str | None, label: str, *, key: str) -> None:
    """Open Practice filtered on ``item_id`` (all items when None) when clicked."""
    if st.button(label, key=key, icon=":material/school:"):
        st.session_state[keys.PRACTICE_FILTER_ITEM] = item_id
        st.switch_page(PRACTICE_PAGE)
