"""Importing gpu_checks (every module) and the roofline chart does not import torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
import gpu_checks
names = ["gpu_checks", "ui.roofline_chart"]
names += [m.name for m in pkgutil.walk_packages(gpu_checks.__path__, prefix="gpu_checks.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "torch": "torch" in sys.modules}))
"""


def test_no_module_of_gpu_checks_imports_torch() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"gpu_checks.probes.decode", "gpu_checks.runner", "gpu_checks.__main__"} <= set(report["imported"])
    assert report["torch"] is False
