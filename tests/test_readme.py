"""The README stays true: its Python examples run and the commands it names exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_the_readme_gives_both_commands() -> None:
    assert "make run" in README and "make test" in README
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, flags=re.MULTILINE)
    assert re.search(r"^test:", makefile, flags=re.MULTILINE)


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[f"block{i}" for i in range(len(PYTHON_BLOCKS))])
def test_python_examples_run(block: str, tmp_path: Path) -> None:
    # In a child interpreter with a throwaway database, exactly as a reader would paste it.
    env = {"PATH": "/usr/bin:/bin", "DRILL_DB": str(tmp_path / "p.db"), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-"], input=block, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("module", ["question_bank", "progress", "gpu_checks"])
def test_named_command_lines_answer_help(module: str) -> None:
    assert f"python -m {module}" in README
    result = subprocess.run(
        [sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and "usage" in result.stdout.lower(), result.stderr
