"""Readiness: how ready each checklist item is and why, and the plan to the interview date.

- :mod:`.charts`: the page's pictures as Vega-Lite dicts from aggregated rows; no Streamlit;
- :mod:`.page_view`, :mod:`.plan_view`: what the page draws.
"""
