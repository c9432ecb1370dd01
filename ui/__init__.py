"""Shared pieces of the Streamlit pages: session-state keys, per-session context, charts."""
