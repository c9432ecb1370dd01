"""Napkin-math estimator, answer parsing, grading and slip diagnosis. Imports neither streamlit nor torch."""
