"""The shipped rubrics against their own model answers and against an off-topic paragraph."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from grader import Kind, Problem, Rubric, check_explanation
from question_bank import generate, load_bank
from question_bank.rubric_check import OFF_TOPIC, explanation_issue, negated, rejected, shuffled
from question_bank.schema import KeyPoint, RecallAnswer

BANK = load_bank(include_shipped=True)
RECALL = [t for t in BANK.templates if t.kind == "recall"]


def test_every_recall_template_has_rubrics_and_misconceptions() -> None:
    assert len(RECALL) >= 12
    for template in RECALL:
        problem = generate(template, 0)
        assert len(problem.key_point_rubrics) == len(problem.key_points)
        assert len(problem.misconceptions) >= 2


@pytest.mark.parametrize("template", RECALL, ids=lambda t: t.id)
def test_model_answer_makes_every_point_and_off_topic_none(template: object) -> None:
    problem = generate(template, 3)  # type: ignore[arg-type]
    assert problem.kind is Kind.RECALL
    assert explanation_issue(problem) is None
    own = check_explanation(problem, problem.model_answer)
    assert all(own.hits) and own.misconceptions == () and own.suggested_rating == "good"
    stray = check_explanation(problem, OFF_TOPIC)
    assert not any(stray.hits) and stray.misconceptions == ()


def test_a_misconception_in_a_model_answer_is_reported() -> None:
    problem = generate(BANK.get("fusion-why"), 0)
    broken = replace(problem, model_answer=problem.model_answer + " Fusion reduces FLOPs.")
    issue = explanation_issue(broken)
    assert issue is not None and "fusion reduces FLOPs" in issue[0]


def test_a_sum_worked_out_wrong_in_a_model_answer_is_reported() -> None:
    problem = generate(BANK.get("ridge-point-recall"), 0)
    broken = replace(problem, model_answer=problem.model_answer + " Check: 989e12 / 3.35e12 ≈ 29.5.")
    issue = explanation_issue(broken)
    assert issue is not None and "29.5" in issue[0] and "295" in issue[0]


def test_a_contrary_claim_the_model_answer_makes_is_reported() -> None:
    problem = generate(BANK.get("fusion-why"), 0)
    claim = Rubric(concepts=(("fused",), ("registers",)))
    first = replace(problem.key_point_rubrics[2], contrary=(claim,))
    broken = replace(
        problem, key_point_rubrics=(*problem.key_point_rubrics[:2], first, *problem.key_point_rubrics[3:])
    )
    issue = explanation_issue(broken)
    assert issue is not None and "key point 2's contrary claim" in issue[0]


def test_a_rubric_missing_its_own_answer_is_reported() -> None:
    problem = generate(BANK.get("fusion-why"), 0)
    broken = replace(problem, model_answer="Fused kernels are faster.")
    issue = explanation_issue(broken)
    assert issue is not None and "misses key point" in issue[0]


def test_a_bare_number_in_yaml_is_a_phrase_matched_by_value() -> None:
    spec = KeyPoint.model_validate({"point": "about 200", "concepts": [[200, "ridge"]], "need": 1})
    assert spec.concepts == [["200", "ridge"]]
    rubric = spec.to_rubric()
    assert rubric.required == 1 and rubric.concepts == (("200", "ridge"),)


def test_a_key_points_contrary_claims_are_read_from_yaml() -> None:
    spec = KeyPoint.model_validate(
        {
            "point": "Decode is bandwidth-bound.",
            "concepts": [["decode"], ["@memory-bound"]],
            "contrary": [{"concepts": [["decode"], ["@compute-bound"]], "contrast": ["prefill"]}],
        }
    )
    (claim,) = spec.to_rubric().contrary
    assert claim.concepts == (("decode",), ("@compute-bound",)) and claim.contrast == ("prefill",)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"point": "p", "concepts": [["a"]], "need": 2}, "need (2) is more than the 1 concepts"),
        ({"point": "p", "concepts": [["a"]], "contrary": [{"concepts": []}]}, "at least 1 item"),
        ({"point": "p", "concepts": []}, "at least 1 item"),
        ({"point": "p", "concepts": [[]]}, "at least 1 item"),
        ({"point": "p", "concepts": [[True]]}, "expected a phrase"),
        ({"point": "p", "concepts": [["a"]], "colour": "red"}, "Extra inputs are not permitted"),
    ],
)
def test_rubric_schema_refuses_bad_shapes(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        KeyPoint.model_validate(raw)
    assert message in str(caught.value)


def _with_rubric(point: int, rubric: Rubric) -> Problem:
    problem = generate(BANK.get("ridge-point-recall"), 0)
    rubrics = list(problem.key_point_rubrics)
    rubrics[point] = rubric
    return replace(problem, key_point_rubrics=tuple(rubrics))


def test_a_point_its_own_negation_still_makes_is_reported() -> None:
    # A point written as two sentences: "It is false that ..." denies only the first.
    problem = generate(BANK.get("ridge-point-recall"), 0)
    broken = _with_rubric(4, Rubric(concepts=(("fewer bytes", "cut bytes"),)))
    broken = replace(broken, key_points=(*problem.key_points[:4], "Faster math is no fix. Fewer bytes are."))
    issue = explanation_issue(broken)
    assert issue is not None and "own negation" in issue[0]


def test_a_point_made_by_one_common_word_is_reported_by_the_shuffle() -> None:
    terse = "below ridge → bandwidth-bound; above → compute-bound; ridge = peak / bandwidth ≈ 295 FLOP/B."
    broken = replace(
        generate(BANK.get("ridge-point-recall"), 0),
        key_point_rubrics=(Rubric(concepts=(("bandwidth",),)),) * 5,
        model_answer=terse,
        misconceptions=(),
    )
    issue = explanation_issue(broken)
    assert issue is not None and "shuffled" in issue[0]


def test_a_misconception_its_statement_does_not_show_is_reported() -> None:
    problem = generate(BANK.get("ridge-point-recall"), 0)
    first = problem.misconceptions[0]
    blind = replace(first, rubric=Rubric(concepts=(("bytes per flop",),)))
    broken = replace(problem, misconceptions=(blind, *problem.misconceptions[1:]))
    issue = explanation_issue(broken)
    assert issue is not None and "not found in its own statement" in issue[0]


@pytest.mark.parametrize("template", RECALL, ids=lambda t: t.id)
def test_every_point_survives_neither_negation_nor_shuffling(template: object) -> None:
    problem = generate(template, 0)  # type: ignore[arg-type]
    for i, point in enumerate(problem.key_points):
        assert not check_explanation(problem, negated(point)).hits[i], point
    answer = problem.model_answer
    scrambled = [check_explanation(problem, shuffled(answer, seed=s)).points_made for s in range(3)]
    assert sum(scrambled) / 3 <= len(problem.key_points) / 2
    for m in problem.misconceptions:
        assert m.name in check_explanation(problem, m.name + ".").misconceptions
        assert m.name not in check_explanation(problem, rejected(m.name)).misconceptions


def _recall_spec(**extra: object) -> dict[str, object]:
    points = [{"point": f"p{i}", "concepts": [["@old", "static"], ["waits"]]} for i in range(3)]
    misconceptions = [
        {"name": f"m{i}", "correction": "c", "concepts": [["@old"], ["faster math"]]} for i in range(2)
    ]
    answer = {"kind": "recall", "model_answer": "a"}
    return {**answer, "key_points": points, "misconceptions": misconceptions, **extra}


def test_an_item_s_own_subjects_stand_for_their_forms_in_its_rubrics() -> None:
    spec = RecallAnswer.model_validate(_recall_spec(subjects={"old": ["the old way", "static batching"]}))
    assert spec.key_points[0].concepts[0] == ["the old way", "static batching", "static"]
    assert spec.misconceptions[1].concepts[0] == ["the old way", "static batching"]


def test_a_reference_to_no_subject_nor_lexicon_concept_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        RecallAnswer.model_validate(_recall_spec())
    assert "@old names no concept of the lexicon nor a subject of this item" in str(caught.value)
