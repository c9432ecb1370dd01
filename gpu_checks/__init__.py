"""Micro-benchmarks on the user's own device (CUDA, MPS or CPU), compared with ``grader.estimator``.

Importing this package does not import torch: discovery and the probes import it when they run.
Run ``python -m gpu_checks --help`` for the command line.
"""

from gpu_checks.device import DeviceInfo, DeviceKind
from gpu_checks.errors import (
    DeviceUnavailableError,
    GpuChecksError,
    MemoryCapError,
    PlanError,
    RunInProgressError,
)
from gpu_checks.history import History, append_report, history_path_for, load_history
from gpu_checks.plan import FULL, PLANS, QUICK, SMOKE, Plan, ProbeName, get_plan
from gpu_checks.presets import SpecRoof, spec_roof
from gpu_checks.report import Comparison, RunReport
from gpu_checks.runner import Progress, RunHandle, Runner

__all__ = [
    "FULL",
    "PLANS",
    "QUICK",
    "SMOKE",
    "Comparison",
    "DeviceInfo",
    "DeviceKind",
    "DeviceUnavailableError",
    "GpuChecksError",
    "History",
    "MemoryCapError",
    "Plan",
    "PlanError",
    "ProbeName",
    "Progress",
    "RunHandle",
    "RunInProgressError",
    "RunReport",
    "Runner",
    "SpecRoof",
    "append_report",
    "get_plan",
    "history_path_for",
    "load_history",
    "spec_roof",
]
