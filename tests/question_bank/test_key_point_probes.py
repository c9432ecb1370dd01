"""Key points' follow-up questions: how they are written, checked when the bank loads, and carried."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from grader import Kind, grade
from question_bank import BankError, generate, load_bank
from question_bank.recall_specs import KeyPoint

BANK = load_bank()
TEMPLATE = """templates:
  - id: with-probe
    checklist: two-p-flops
    kind: recall
    difficulty: 1
    title: Why 2P
    prompt: Why is it 2P FLOPs per token?
    key_points:
      - {{point: one multiply-add per weight, concepts: [[one multiply-add per token]], probe: {probe}}}
      - {{point: two FLOPs each, concepts: [[2 flops each]]}}
      - {{point: attention ignored, concepts: [[attention ignored]]}}
    misconceptions:
      - {{name: one FLOP per multiply-add, correction: two, concepts: [[one flop per multiply-add]]}}
      - {{name: 2P counts attention, correction: it does not, concepts: [[2p counts attention]]}}
    model_answer: "Every weight does one multiply-add per token, 2 flops each, attention ignored."
    references: [kipply]
"""


def _load(tmp_path: Path, probe: str) -> list[str]:
    path = tmp_path / "probe.yaml"
    path.write_text(TEMPLATE.format(probe=probe), encoding="utf-8")
    try:
        load_bank([path], include_shipped=True)
    except BankError as exc:
        return [str(issue) for issue in exc.issues]
    return []


def test_a_probe_naming_a_numeric_template_loads(tmp_path: Path) -> None:
    assert _load(tmp_path, "{template: flops-per-token}") == []


@pytest.mark.parametrize(
    ("probe", "message"),
    [("{template: no-such-id}", "is no template of the bank"), ("{template: two-p-justify}", "is a recall")],
)
def test_a_probe_must_name_a_figure_or_choice_template(tmp_path: Path, probe: str, message: str) -> None:
    [issue] = _load(tmp_path, probe)
    assert message in issue and "probe.yaml:2" in issue and "key_points.0.probe" in issue


@pytest.mark.parametrize(
    "probe",
    [
        {},
        {"template": "x", "prompt": "both?", "options": ["a", "b"], "answer": 0},
        {"prompt": "one option?", "options": ["a"], "answer": 0},
        {"prompt": "no answer?", "options": ["a", "b"]},
        {"prompt": "answer out of range?", "options": ["a", "b"], "answer": 2},
    ],
)
def test_an_ill_formed_probe_is_refused(probe: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        KeyPoint.model_validate({"point": "p", "concepts": [["x y"]], "probe": probe})


def test_an_inline_probe_is_a_choice_the_grader_grades() -> None:
    problem = generate(BANK.get("flash-attention-fixes"), 0)
    probe = problem.key_point_probes[2]
    assert probe is not None and not probe.template_id
    asked = probe.as_problem(problem)
    assert asked.kind is Kind.CHOICE and asked.checklist_item == problem.checklist_item
    right = next(i for i, c in enumerate(asked.choices) if c.correct)
    assert grade(asked, str(right)).correct and not grade(asked, str((right + 1) % 3)).correct


def test_every_shipped_probe_resolves_to_a_figure_or_a_choice() -> None:
    found = 0
    for template in BANK.templates:
        if template.kind != "recall":
            continue
        for probe in generate(template, 0).key_point_probes:
            if probe is not None and probe.template_id:
                found += 1
                assert BANK.get(probe.template_id).kind in ("numeric", "choice")
    assert found >= 20
