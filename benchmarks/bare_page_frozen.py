"""The bare page of benchmarks/answer_browser.py with Streamlit's heap frozen once, as the app freezes its
long-lived objects: without it, each rerun of a bare page spends most of its server time in the
full collection Streamlit runs after every script."""

import gc
import sys

import streamlit as st

if not getattr(sys, "_bare_heap_frozen", False):
    sys._bare_heap_frozen = True  # type: ignore[attr-defined]
    gc.collect()
    gc.freeze()
answer = st.text_input("Your answer", key="bare_answer")
st.markdown(f"You typed: {answer}")
