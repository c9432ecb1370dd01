"""Explore: the what-if calculator that shows its work, and turns a setup into a drill.

- :mod:`.figures`: every figure of one setup with its recorded derivation; no Streamlit;
- :mod:`.sweeps`, :mod:`.text`, :mod:`.address`, :mod:`.drill`: sweeps, text, the address, the drill;
- :mod:`.cli`: ``python -m grader.estimator explore``;
- :mod:`.page_view`: what the page draws.
"""
