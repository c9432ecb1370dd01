"""The baseline of benchmarks/answer_browser.py: one text input and its echo, nothing else."""

import streamlit as st

answer = st.text_input("Your answer", key="bare_answer")
st.markdown(f"You typed: {answer}")
