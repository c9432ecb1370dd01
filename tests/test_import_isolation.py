"""Importing the domain packages, and every module in them, loads neither torch nor streamlit.

Runs in a fresh interpreter: in this process pytest or another test may have imported either.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

from benchmarks.import_picture import Arrow, circles, is_entry, package_arrows, part_of
from benchmarks.import_picture import arrows as read_arrows

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def arrows(root: Path) -> tuple[Arrow, ...]:
    """The project's imports, read from the source once for the tests below (each reads all of them)."""
    return tuple(read_arrows(root))


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
    ``grader/estimator/__main__.py`` hands ``python -m grader.estimator explore`` to ``ui.explore.cli``,
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


#: The house's arrows between packages (DESIGN.md, README's Layout), and why each is there. Entry
#: points (``app.py``, the page scripts, each ``__main__``) sit above all of them and are not listed.
ALLOWED = {
    ("pages", "ui"): "a page reads its widgets and hands them to its ui package",
    ("ui", "progress"): "the store, scheduling, readiness and the plan",
    ("ui", "progress.mock"): "the mock interview's domain",
    ("ui", "question_bank"): "the bank: templates, generation, presets",
    ("ui", "grader"): "grading answers and checking explanations",
    ("ui", "grader.estimator"): "figures for Explore, the cheat sheet and the roofline picture",
    ("ui", "grader.explain"): "the explanation checks shown on the page",
    ("ui", "gpu_checks"): "the GPU checks page runs and shows the probes",
    ("progress", "grader"): "labels (slips, units, wording) for readiness and exports",
    ("progress.mock", "progress"): "the store, attempts and scheduling a mock settles into",
    ("progress.mock", "grader"): "grading a finished mock, its labels and units",
    ("progress.mock", "grader.estimator"): "numbers printed in the scorecard",
    ("question_bank", "grader"): "a generated Problem and the grader's rules it must satisfy",
    ("question_bank", "grader.estimator"): "a template's answer is an estimator function",
    ("question_bank", "grader.explain"): "a recall item's rubric types",
    ("grader", "grader.estimator"): "follow-through recomputes a step; derivations are the estimator's",
    ("grader", "grader.explain"): "grader's face offers check_explanation",
    ("grader.explain", "grader"): "a Problem and its key points",
    ("gpu_checks", "grader.estimator"): "predictions the measurements are compared with",
    ("gpu_checks", "question_bank"): "a device's spec roof from the bank's hardware presets",
    ("gpu_checks", "progress"): "the CSV cell escaping the attempts export uses too",
}


def test_every_arrow_between_packages_is_one_the_house_allows() -> None:
    found = arrows(ROOT)
    inner = [a for a in found if not is_entry(a.source)]
    unexpected = sorted(set(package_arrows(inner)) - set(ALLOWED))
    assert unexpected == [], "arrows the house does not show (README's Layout, DESIGN.md)"


def test_no_module_imports_an_entry_point_and_no_imports_form_a_circle() -> None:
    found = arrows(ROOT)
    assert [a for a in found if is_entry(a.target)] == []
    assert circles(found) == []


def test_the_estimator_imports_nothing_of_the_project_but_itself() -> None:
    """gpu_checks relies on grader.estimator alone: the estimator must not pull in the rest of grader."""
    outside = {
        a.target
        for a in arrows(ROOT)
        if part_of(a.source) == "grader.estimator"
        and not is_entry(a.source)
        and part_of(a.target) != "grader.estimator"
    }
    assert outside == set()


def test_pages_only_route_to_their_ui_package() -> None:
    """A page script reads its widgets and calls ui; it imports nothing from the domain packages."""
    found = arrows(ROOT)
    elsewhere = sorted({(a.source, a.target) for a in found if a.source.startswith("pages.")
                        and part_of(a.target) != "ui"})  # fmt: skip
    assert elsewhere == []


#: ui modules that use Streamlit without drawing: caches, the session's context, the server's start.
STREAMLIT_WITHOUT_DRAWING = {"ui.cached", "ui.context", "ui.serve"}


def test_in_ui_only_view_modules_draw_with_streamlit() -> None:
    """One naming rule: a ``*_view`` module draws with Streamlit, and nothing else in ui does."""
    uses_streamlit = re.compile(r"^\s*(import streamlit|from streamlit\b)", re.MULTILINE)
    wrong = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        draws = bool(uses_streamlit.search(path.read_text(encoding="utf-8")))
        is_view = module.endswith("_view")
        if is_view != draws and module not in STREAMLIT_WITHOUT_DRAWING:
            wrong.append(module)
    assert wrong == []
