"""Every derivation and prompt the shipped bank renders reads as a person would write it.

One sweep over every template and every scenario step (with follow-through on wrong earlier values,
whose derivations are built by the grader) at a few seeds, looking for each kind of fault once:
internal names, rounded figures written as exact, awkward prefixes, fractions not in per cent, zero
terms, results said twice, e-notation, and the grammar of drawn words (articles, a count of one,
a name's parenthesis beside another).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import pytest

from grader.derivation_text import derivation_lines, derivation_markdown
from grader.follow_through import carried_problem
from grader.problem import Kind, Problem
from question_bank import generate, load_bank
from question_bank.scenarios import generate_scenario

BANK = load_bank(include_shipped=True)
SEEDS = range(4)
#: Names the field itself writes with an underscore (the transformer papers' d_model).
TERMS_OF_ART = frozenset({"d_model"})

_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
_ONE_PLURAL = re.compile(
    r"(?<![−+\-\d.,] )(?<![\d.,])1\**\s+"
    r"(bytes|sequences|tokens|users|layers|GPUs|chips|requests|heads|elements)\b"
)
_WRONG_A = re.compile(r"\ba \**(NVIDIA|AMD|Intel|A\d|H\d|L\d|MI\d|int\d|fp\d|8|11\b|18\b)")
_WRONG_AN = re.compile(r"\ban \**(Google|TPU|Llama|Mixtral|Qwen|Gemma|Mistral|GPT|Falcon|bf16|[1-79])")
_EXACT_LOOKING = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*,000(?![\d.,])")
_E_NOTATION = re.compile(r"\d[eE][+-]?\d")
_ZERO_TERM = re.compile(r"· 0 ·|· 0 B\b|\*\*0 B\*\*")
_PREFIXED = r"(?:[KMGTP]i?B(?:/s)?|[mµn]s|[GTP]FLOP(?:/s)?)"
_AWKWARD = re.compile(rf"(?<![\d.,])(?:\d{{1,3}},\d{{3}}(?:\.\d+)?|0\.0\d*) {_PREFIXED}(?![\w/])")
_FRACTION = re.compile(r"utili[sz]ation\b[^\n]*= \*\*0\.\d+\*\*")
_TWO_PARENTHESES = re.compile(r"\)\**\s+\(")


#: One test item per template and per scenario (each sweeps its own draws), not one per draw: the same
#: cases, without thousands of items to collect and report in every worker.
DEFINITIONS = [("template", t.id) for t in BANK.templates] + [("scenario", s.id) for s in BANK.scenarios]
DEFINITION_IDS = [definition_id for _, definition_id in DEFINITIONS]


@functools.cache
def _cases(kind: str, definition_id: str) -> tuple[tuple[str, Problem, str], ...]:
    """(where, problem, the setup shown with it) for a template or every step of a scenario, each seed."""
    return tuple(_problems(kind, definition_id))


def _problems(kind: str, definition_id: str) -> Iterator[tuple[str, Problem, str]]:
    for seed in SEEDS:
        if kind == "template":
            yield f"{definition_id}@{seed}", generate(BANK.get(definition_id), seed), ""
            continue
        drawn = generate_scenario(BANK.scenario(definition_id), seed)
        earlier: dict[int, float] = {}
        for step in drawn.steps:
            where = f"{definition_id} step {step.step}@{seed}"
            yield where, step, drawn.setup
            carried, used = carried_problem(step, earlier)
            if used:
                yield f"{where} carried", carried, ""
            if step.kind is Kind.NUMERIC and step.answer:
                earlier[step.step] = step.answer * 1.3  # a wrong earlier answer the next steps build on


def _derivation_lines(problem: Problem) -> list[str]:
    return derivation_lines(problem.derivation, answer_unit=problem.unit).splitlines()


def _faults(text: str) -> list[str]:
    """The faults any shown text may not have."""
    faults = [f"internal name {m.group(0)!r}" for m in _IDENTIFIER.finditer(text)]
    faults = [f for f in faults if not any(f"'{term}'" in f for term in TERMS_OF_ART)]
    faults += [f"count of one with a plural: {m.group(0)!r}" for m in _ONE_PLURAL.finditer(text)]
    faults += [f"article: {m.group(0)!r}" for m in (*_WRONG_A.finditer(text), *_WRONG_AN.finditer(text))]
    faults += [f"two parentheses: {m.group(0)!r}" for m in _TWO_PARENTHESES.finditer(text)]
    return faults


@pytest.mark.parametrize("kind,definition_id", DEFINITIONS, ids=DEFINITION_IDS)
def test_a_prompt_reads_as_written_for_its_draws(kind: str, definition_id: str) -> None:
    found = []
    for where, problem, setup in _cases(kind, definition_id):
        for text in (setup, problem.prompt):
            faults = _faults(text) + [f"awkward figure: {m.group(0)!r}" for m in _AWKWARD.finditer(text)]
            if faults:
                found.append((where, faults, text))
    assert not found, found


@pytest.mark.parametrize("kind,definition_id", DEFINITIONS, ids=DEFINITION_IDS)
def test_a_derivation_reads_as_a_person_writes_it(kind: str, definition_id: str) -> None:
    found = []
    for where, problem, _ in _cases(kind, definition_id):
        found += _derivation_faults(where, problem)
    assert not found, found


def _derivation_faults(where: str, problem: Problem) -> list[tuple[str, list[str], str]]:
    found = []
    lines = _derivation_lines(problem)
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        faults = _faults(line)
        # Prompts may quote a figure in e-notation on purpose (an interviewer's 1.97e14); the estimator never.
        faults += [f"e-notation: {m.group(0)!r}" for m in _E_NOTATION.finditer(line)]
        faults += [f"zero term: {m.group(0)!r}" for m in _ZERO_TERM.finditer(line)]
        faults += [f"fraction not in per cent: {m.group(0)!r}" for m in _FRACTION.finditer(line)]
        # A rounded figure of a million or more written out in full reads as exact.
        faults += [
            f"rounded figure written as exact: {m.group(0)!r}"
            for m in _EXACT_LOOKING.finditer(line)
            if len(m.group(0).replace(",", "")) >= 7
        ]
        result = line.rsplit("**", 2)[-2] if line.count("**") >= 4 else ""
        # The answer may be in the question's awkward unit only with the usual figure beside it.
        if _AWKWARD.search(result) and not (last and "(" in result):
            faults.append(f"awkward figure: {result!r}")
        # The result is not said twice: the part before it is not the same text.
        before = line.rsplit(" = ", 1)[0].rsplit(" = ", 1)[-1].strip("* ")
        if result and before == result.strip("* "):
            faults.append(f"said twice: {result!r}")
        if faults:
            found.append((where, faults, line))
    return found


@pytest.mark.parametrize("kind,definition_id", DEFINITIONS[:: max(1, len(DEFINITIONS) // 40)])
def test_the_table_form_shows_the_same_steps(kind: str, definition_id: str) -> None:
    """The table form of every draw of about 40 templates and scenarios spread over the bank."""
    for where, problem, _ in _cases(kind, definition_id):
        table = derivation_markdown(problem.derivation, answer_unit=problem.unit)
        rows = table.splitlines()[2:]
        assert len(rows) == len(_derivation_lines(problem)), where
        for row in rows:
            assert not _faults(row), (where, row)
