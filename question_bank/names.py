"""Names: what they may refer to (Context), did-you-mean hints, and the checks run before the schema."""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grader.estimator import FUNCTIONS
from question_bank.catalog import PresetCatalog
from question_bank.choices import Scenario
from question_bank.reporter import Reporter
from question_bank.yaml_source import PathPart


@dataclass(frozen=True)
class Context:
    """What names may refer to."""

    checklist_ids: frozenset[str]
    catalog: PresetCatalog
    pools: Mapping[str, Sequence[Scenario]]


@dataclass(frozen=True)
class ParamInfo:
    """A drawn parameter: its ``kind`` (preset, dtype, value; unknown after an error) and its ``fields``."""

    kind: str
    fields: frozenset[str] = frozenset()


def suggest(word: str, choices: Iterable[str]) -> str:
    """``did you mean X?`` for the closest of ``choices``, or the list of choices when none is close."""
    choices = sorted(choices)
    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"did you mean {close[0]!r}?"
    return "one of: " + ", ".join(choices) if len(choices) <= 30 else "a known name"


@functools.cache
def signature(function_name: str) -> tuple[frozenset[str], frozenset[str]]:
    """All keyword names of an estimator function, and the ones without defaults."""
    parameters = inspect.signature(FUNCTIONS[function_name]).parameters.values()
    names = frozenset(p.name for p in parameters)
    required = frozenset(p.name for p in parameters if p.default is inspect.Parameter.empty)
    return names, required


def checklist_problem(item: Any, ids: frozenset[str]) -> tuple[str, str] | None:
    if not isinstance(item, str) or item in ids:
        return None
    return f"unknown checklist item {item!r}", suggest(item, ids)


def function_problem(name: Any) -> tuple[str, str] | None:
    if not isinstance(name, str) or name in FUNCTIONS:
        return None
    return f"unknown estimator function {name!r}", suggest(name, FUNCTIONS)


def check_names(raw: Any, context: Context, report: Reporter) -> None:
    """Report an unknown checklist item or estimator function in a template that failed the schema.

    A template with shape errors is not checked any further, but these two mistakes stand on their
    own, so the author sees them in the same pass.
    """
    if not isinstance(raw, dict):
        return
    problem = checklist_problem(raw.get("checklist"), context.checklist_ids)
    if problem:
        report(("checklist",), *problem)
    calls: list[tuple[tuple[PathPart, ...], Any]] = []
    if isinstance(raw.get("answer"), dict):
        calls.append((("answer", "call"), raw["answer"].get("call")))
    for key in ("params", "slips"):
        entries = raw.get(key)
        pairs = (
            entries.items()
            if isinstance(entries, dict)
            else enumerate(entries)
            if isinstance(entries, list)
            else ()
        )
        calls += [
            ((key, name, "call"), entry.get("call")) for name, entry in pairs if isinstance(entry, dict)
        ]
    for path, name in calls:
        problem = function_problem(name)
        if problem:
            report(path, *problem)
