"""Cheat sheet: the accelerator and model numbers and the formulas worth knowing cold."""

from __future__ import annotations

import streamlit as st

from ui.cheat_sheet.sheet_view import show_cheat_sheet
from ui.shell_view import open_inside_app

open_inside_app("pages/cheat_sheet.py")
st.title("Cheat sheet")
st.caption(
    "What to know cold before the interview. Generated from the app's presets (each with its sources) "
    "and its estimator, so it always matches what Practice grades. GB = 10⁹ bytes."
)
show_cheat_sheet()
