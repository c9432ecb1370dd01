"""Question bank: YAML presets and templates, loading with validation, seeded problem generation.

Imports neither streamlit nor torch.
"""

from question_bank.presets import Accelerator, ModelConfig, load_hardware, load_models

__all__ = ["Accelerator", "ModelConfig", "load_hardware", "load_models"]
