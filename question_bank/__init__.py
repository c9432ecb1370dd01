"""Question bank: YAML presets and templates, loading with validation, seeded problem generation.

Imports neither streamlit nor torch.
"""

from question_bank.bank import Bank, load_bank
from question_bank.checklist import ChecklistItem, load_checklist
from question_bank.errors import BankError, BankIssue, GenerationError
from question_bank.generation import generate
from question_bank.presets import Accelerator, ModelConfig, load_hardware, load_models
from question_bank.templates import Template

__all__ = [
    "Accelerator",
    "Bank",
    "BankError",
    "BankIssue",
    "ChecklistItem",
    "GenerationError",
    "ModelConfig",
    "Template",
    "generate",
    "load_bank",
    "load_checklist",
    "load_hardware",
    "load_models",
]
