"""The cheat sheet: the presets' tables and the formulas, each with a way to practise it.

- :mod:`.sheet_view`: what the page draws.
"""
