"""Question bank: YAML presets and templates, loading with validation, seeded problem generation.

Imports neither streamlit nor torch.
"""
