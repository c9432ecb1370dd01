"""Importing the domain packages, and every module in them, loads neither torch nor streamlit.

Runs in a fresh interpreter: in this process pytest or another test may have imported either.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import importlib, json, pkgutil, sys
imported = []
for name in ("grader", "question_bank", "progress"):
    package = importlib.import_module(name)
    imported.append(name)
    for module in pkgutil.walk_packages(package.__path__, prefix=name + "."):
        if module.name.rsplit(".", 1)[-1] == "__main__":
            continue  # a command-line entry point runs when imported
        importlib.import_module(module.name)
        imported.append(module.name)
heavy = sorted(m for m in ("torch", "streamlit") if m in sys.modules)
print(json.dumps({"imported": imported, "heavy": heavy}))
"""


def test_domain_packages_import_neither_torch_nor_streamlit() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"grader.estimator", "question_bank.presets"} <= set(report["imported"])
    assert report["heavy"] == [], f"imported by the domain packages: {report['heavy']}"


def test_grader_imports_neither_the_bank_nor_the_app_but_for_the_estimators_command() -> None:
    """``grader`` never imports ``question_bank`` or ``ui``. The one exception: run as a script,
    ``grader/estimator/__main__.py`` hands ``python -m grader.estimator explore`` to ``ui.explore_cli``,
    which reads the bank's presets; that entry point runs only as a command."""
    outward = re.compile(r"^\s*(from|import)\s+(question_bank|ui|progress|pages)\b", re.MULTILINE)
    found = {}
    for path in sorted((ROOT / "grader").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.relative_to(ROOT).as_posix() == "grader/estimator/__main__.py":
            assert outward.findall(text) == [("from", "ui")], "the command's one import"
            continue
        if outward.search(text):
            found[str(path.relative_to(ROOT))] = outward.findall(text)
    assert found == {}
