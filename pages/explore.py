"""Explore: what-if for one serving setup, each figure with its derivation; the setup is in the address."""

from __future__ import annotations

import streamlit as st

from ui.explore import page_view as view
from ui.query_params import read_address
from ui.shell_view import open_inside_app

open_inside_app("pages/explore.py")
st.title("Explore")
st.caption(
    "Pick a model, an accelerator and a setup: every figure comes from the estimator Practice grades "
    "with, and opens the derivation a question would show. The address holds the setup, so a link "
    "reproduces it. GB = 10⁹ bytes, GiB = 2³⁰."
)
view.read_address_once(read_address("explore", st.query_params))
setup, models = view.setup_inputs()
view.keep_address(setup)
figures = view.figures_of(setup, models)
view.offer_drill(figures)
view.show_figures(figures)
view.show_roofline(figures)
view.show_layer_table(figures)
view.show_sweeps(figures)
view.show_comparison(figures, models)
view.offer_export(figures)
