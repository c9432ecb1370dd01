"""The question bank: every template from the shipped folder and any user folders, validated.

``load_bank()`` reads ``question_bank/data/questions/*.yaml`` and ``question_bank/data/pools/*.yaml``,
then each folder in ``extra_dirs`` and in the ``DRILL_BANK_DIRS`` environment variable
(``os.pathsep``-separated). In a user folder, every ``*.yaml`` / ``*.yml`` file below it is a bank
file, except files inside a folder named ``pools``, which are scenario pools named by their stem.
Any mistake anywhere raises one :class:`BankError` listing them all; the error also carries the part
of the bank that loaded, which the app uses (see :mod:`question_bank.generation_checks`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from question_bank.bank_limits import within_size_limit, within_template_limit
from question_bank.catalog import PresetCatalog, shipped_catalog
from question_bank.checklist import checklist_ids
from question_bank.choices import Scenario
from question_bank.errors import BankError, BankIssue, display_path
from question_bank.loading import load_files
from question_bank.names import suggest
from question_bank.templates import ScenarioTemplate, Template

DATA_DIR = Path(__file__).parent / "data"
QUESTIONS_DIR = DATA_DIR / "questions"
POOLS_DIR = DATA_DIR / "pools"
ENV_VAR = "DRILL_BANK_DIRS"
POOLS_FOLDER = "pools"


@dataclass(frozen=True)
class Bank:
    """Validated templates (in load order), scenario pools by name, and each template's file and line.

    ``templates`` are the single problems; ``scenarios`` the chains of steps on one setup (kind
    ``scenario``), kept apart because a scenario generates several problems, not one.
    ``shipped`` holds the ids of the templates that come with the app; ``refused`` lists what was
    left out of a bank loaded leniently (a broken file, a template that fails to generate).
    """

    templates: list[Template]
    pools: dict[str, tuple[Scenario, ...]] = field(default_factory=dict)
    sources: dict[str, tuple[str, int]] = field(default_factory=dict)
    scenarios: list[ScenarioTemplate] = field(default_factory=list)
    shipped: frozenset[str] = frozenset()
    refused: tuple[BankIssue, ...] = ()

    def get(self, template_id: str) -> Template:
        """The template with ``template_id``; ``KeyError`` naming the closest id otherwise."""
        for template in self.templates:
            if template.id == template_id:
                return template
        raise KeyError(f"no template {template_id!r} in the bank; {suggest(template_id, self.ids)}")

    def scenario(self, template_id: str) -> ScenarioTemplate:
        """The scenario with ``template_id``; ``KeyError`` naming the closest id otherwise."""
        for scenario in self.scenarios:
            if scenario.id == template_id:
                return scenario
        raise KeyError(f"no scenario {template_id!r} in the bank; {suggest(template_id, self.scenario_ids)}")

    def is_scenario(self, template_id: str) -> bool:
        return any(scenario.id == template_id for scenario in self.scenarios)

    @property
    def scenario_ids(self) -> list[str]:
        return [scenario.id for scenario in self.scenarios]

    @property
    def ids(self) -> list[str]:
        return [template.id for template in self.templates]

    def by_checklist(self, item: str) -> list[Template]:
        """The templates that drill checklist item ``item`` (empty for an unknown item)."""
        return [template for template in self.templates if template.checklist == item]


def env_dirs() -> list[Path]:
    """The folders named in ``DRILL_BANK_DIRS`` (empty entries ignored)."""
    raw = os.environ.get(ENV_VAR, "")
    return [Path(part).expanduser() for part in raw.split(os.pathsep) if part.strip()]


def bank_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path], list[BankIssue]]:
    """Template files and pool files found in ``paths`` (files or folders), plus what cannot be used.

    A file counts once even when named twice (the shipped folder given again, say). A path that does
    not exist, a folder that cannot be listed, and a ``.yaml`` entry that is no regular file (a FIFO,
    a link to a device or to nothing) are each an issue, never skipped in silence.
    """
    templates: list[Path] = []
    pools: list[Path] = []
    missing: list[BankIssue] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found, unusable = _folder_files(path)
            missing += unusable
        elif path.is_file():
            found = [path]
        elif path.exists() or path.is_symlink():
            missing.append(BankIssue(str(path), 0, "", "", _NOT_REGULAR, "a bank folder or a .yaml file"))
            continue
        else:
            missing.append(
                BankIssue(str(path), 0, "", "", "no such file or folder", "an existing bank folder")
            )
            continue
        for file in found:
            key = file.resolve()
            if key in seen or _shipped_data_file(key):
                continue
            seen.add(key)
            (pools if file.parent.name == POOLS_FOLDER else templates).append(file)
    return templates, pools, missing


_NOT_REGULAR = "not a regular file (a FIFO, a device, or a link to one or to nothing)"
_SUFFIXES = (".yaml", ".yml")


def _folder_files(folder: Path) -> tuple[list[Path], list[BankIssue]]:
    """The bank files below ``folder`` (links followed, each folder once) and what could not be used."""
    files: list[Path] = []
    issues: list[BankIssue] = []
    visited: set[Path] = set()

    def unreadable(error: OSError) -> None:
        where = error.filename or str(folder)
        reason = error.strerror or str(error)
        issues.append(
            BankIssue(str(where), 0, "", "", f"cannot read this folder ({reason})", "make it readable")
        )

    for root, dirs, names in os.walk(folder, onerror=unreadable, followlinks=True):
        here = Path(root)
        real = here.resolve()
        if real in visited:  # a link back up the tree: walked once already
            dirs.clear()
            continue
        visited.add(real)
        dirs.sort()
        for name in sorted(names):
            if not name.endswith(_SUFFIXES):
                continue
            path = here / name
            try:
                regular = stat.S_ISREG(path.stat().st_mode)
            except OSError:
                regular = False
            if regular:
                files.append(path)
            else:
                issues.append(BankIssue(str(path), 0, "", "", _NOT_REGULAR, "a plain .yaml text file"))
    return sorted(files), issues


def _shipped_data_file(path: Path) -> bool:
    """A preset or checklist file of the shipped data folder, which is not a bank file."""
    return path.is_relative_to(DATA_DIR.resolve()) and not any(
        path.is_relative_to(folder.resolve()) for folder in (QUESTIONS_DIR, POOLS_DIR)
    )


def load_bank(
    extra_dirs: Iterable[str | os.PathLike[str]] = (),
    *,
    include_shipped: bool = True,
    catalog: PresetCatalog | None = None,
) -> Bank:
    """Load and validate the bank; raise :class:`BankError` with every issue found.

    ``include_shipped=False`` loads only ``extra_dirs`` (and ``DRILL_BANK_DIRS``); ``catalog``
    replaces the shipped presets (tests use small ones).
    """
    shipped = [QUESTIONS_DIR, POOLS_DIR] if include_shipped else []
    paths = [*shipped, *(Path(p) for p in extra_dirs), *env_dirs()]
    templates, pools, issues = bank_files(paths)
    templates, pools, oversized = within_size_limit(templates, pools, shipped_roots=shipped)
    result = load_files(
        templates,
        pools,
        checklist_ids=checklist_ids(),
        catalog=catalog or shipped_catalog(),
    )
    issues += oversized + result.issues
    shipped_root = QUESTIONS_DIR.resolve()
    shipped_files = {display_path(p) for p in templates if p.resolve().is_relative_to(shipped_root)}
    issues += within_template_limit(result, shipped_files)
    bank = Bank(
        templates=result.templates,
        pools=result.pools,
        sources=result.sources,
        scenarios=result.scenarios,
        shipped=frozenset(tid for tid, (file, _) in result.sources.items() if file in shipped_files),
    )
    if issues:
        raise BankError(issues, partial=bank)
    return bank
