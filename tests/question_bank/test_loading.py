"""Loading banks: shipped plus user folders, the environment variable, and how mistakes are reported."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from bank_kit import BROKEN, CATALOG, GOOD

from question_bank import Bank, BankError, BankIssue, generate, load_bank
from question_bank.schema import ChoiceTemplate, NumericTemplate, RecallTemplate

ONE_TEMPLATE = """templates:
  - id: {id}
    checklist: two-p-flops
    kind: recall
    difficulty: 1
    title: Why 2P
    prompt: Why is it 2P FLOPs per token?
    key_points:
      - {{point: one multiply-add per weight, concepts: [[multiply-add]]}}
      - {{point: two FLOPs each, concepts: [[2 flops]]}}
      - {{point: attention ignored, concepts: [[attention]]}}
    misconceptions:
      - {{name: one FLOP per multiply-add, correction: two, concepts: [[one flop per multiply-add]]}}
      - {{name: 2P counts attention, correction: it does not, concepts: [[2p counts attention]]}}
    model_answer: Every weight does one multiply-add per token.
    references: [kipply]
"""


def _load(*dirs: Path) -> Bank:
    return load_bank(dirs, include_shipped=False, catalog=CATALOG)


def _write(folder: Path, name: str, template_id: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(ONE_TEMPLATE.format(id=template_id), encoding="utf-8")
    return path


def test_fixture_bank_loads_every_kind_and_resolves_pools() -> None:
    bank = _load(GOOD)
    assert bank.ids == [
        "kv-per-token",
        "decode-time",
        "regime-of-symptom",
        "inline-scenarios",
        "above-or-below-ridge",
        "why-2p",
    ]
    assert {type(t) for t in bank.templates} == {NumericTemplate, ChoiceTemplate, RecallTemplate}
    assert set(bank.pools) == {"signs"}
    symptom = bank.get("regime-of-symptom")
    assert isinstance(symptom, ChoiceTemplate)
    assert symptom.scenarios == list(bank.pools["signs"])
    file, line = bank.sources["decode-time"]
    assert file.endswith("basics.yaml") and line == 33


def test_get_and_by_checklist() -> None:
    bank = _load(GOOD)
    assert bank.get("why-2p").title == "Why 2P"
    assert [t.id for t in bank.by_checklist("three-regimes")] == ["regime-of-symptom", "inline-scenarios"]
    assert bank.by_checklist("no-such-item") == []
    with pytest.raises(KeyError, match="did you mean 'why-2p'"):
        bank.get("why-2q")


def test_bank_pickles_for_the_app_cache() -> None:
    bank = _load(GOOD)
    assert pickle.loads(pickle.dumps(bank)) == bank


def test_extra_dirs_add_to_the_shipped_bank(tmp_path: Path) -> None:
    shipped = load_bank(catalog=None)
    _write(tmp_path / "mine", "extra.yaml", "my-own-question")
    both = load_bank([tmp_path / "mine"])
    assert both.ids == [*shipped.ids, "my-own-question"]


def test_environment_variable_names_several_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "a", "one.yaml", "from-a")
    _write(tmp_path / "b" / "nested", "two.yml", "from-b")
    monkeypatch.setenv("DRILL_BANK_DIRS", os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "b")]))
    assert _load().ids == ["from-a", "from-b"]


def test_duplicate_ids_across_folders_name_both_places(tmp_path: Path) -> None:
    _write(tmp_path / "a", "one.yaml", "same-id")
    _write(tmp_path / "b", "two.yaml", "same-id")
    with pytest.raises(BankError) as caught:
        _load(tmp_path / "a", tmp_path / "b")
    [issue] = caught.value.issues
    assert issue.file.endswith("two.yaml") and issue.line == 2 and issue.field == "id"
    assert "one.yaml:2" in issue.message


def test_a_file_named_twice_loads_once(tmp_path: Path) -> None:
    path = _write(tmp_path, "one.yaml", "only-once")
    assert _load(path, tmp_path).ids == ["only-once"]


def test_missing_folder_is_an_issue(tmp_path: Path) -> None:
    with pytest.raises(BankError) as caught:
        _load(tmp_path / "nowhere")
    assert caught.value.issues[0].message == "no such file or folder"


def test_every_mistake_of_a_file_is_reported_at_once() -> None:
    with pytest.raises(BankError) as caught:
        _load(BROKEN / "several-mistakes.yaml")
    fields = [issue.field for issue in caught.value.issues]
    assert fields == ["checklist", "answer.call", "answer.tolerance.geometric"]


def test_mistakes_in_many_files_are_reported_together() -> None:
    paths = [BROKEN / "unknown-function.yaml", BROKEN / "python-tag.yaml", BROKEN / "bad-yaml-syntax.yaml"]
    with pytest.raises(BankError) as caught:
        _load(*paths)
    assert {Path(issue.file).name for issue in caught.value.issues} == {p.name for p in paths}


def test_bank_error_is_a_value_error_listing_each_issue() -> None:
    with pytest.raises(
        ValueError, match=r"unknown-checklist\.yaml:4: \[broken-one\] checklist: unknown checklist"
    ):
        _load(BROKEN / "unknown-checklist.yaml")


def test_issue_text_says_what_to_write_instead() -> None:
    issue = BankIssue("bank.yaml", 7, "kv", "answer.unit", "not a unit", "GB")
    assert str(issue) == "bank.yaml:7: [kv] answer.unit: not a unit (write instead: GB)"


def test_hints_suggest_the_nearest_name() -> None:
    with pytest.raises(BankError) as caught:
        _load(BROKEN / "unknown-function.yaml")
    assert caught.value.issues[0].hint == "did you mean 'kv_cache_bytes_per_token'?"


def test_python_tags_are_refused_before_construction(tmp_path: Path) -> None:
    marker = tmp_path / "constructed"
    path = tmp_path / "evil.yaml"
    evil = f"!!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ['{marker}']]"
    path.write_text(f"templates:\n  - {evil}\n")
    with pytest.raises(BankError, match="not allowed"):
        _load(path)
    assert not marker.exists()


def test_a_template_in_the_wrong_kind_hints_at_the_right_kind() -> None:
    with pytest.raises(BankError) as caught:
        _load(BROKEN / "wrong-kind-fields.yaml")
    assert "belongs to choice templates" in caught.value.issues[0].hint


def test_shipped_bank_validates() -> None:
    bank = load_bank()
    assert bank.templates and len(set(bank.ids)) == len(bank.ids)


def test_topics_tags_load_and_reach_the_problem(tmp_path: Path) -> None:
    path = _write(tmp_path, "tagged.yaml", "tagged-recall")
    tagged = path.read_text(encoding="utf-8") + "    topics: [tensor-parallel, latency]\n"
    path.write_text(tagged, encoding="utf-8")
    bank = _load(tmp_path)
    problem = generate(bank.get("tagged-recall"), 1, catalog=CATALOG)
    assert problem.topics == ("tensor-parallel", "latency")


def test_untagged_templates_have_no_topics() -> None:
    bank = _load(GOOD)
    assert all(generate(t, 1, catalog=CATALOG).topics == () for t in bank.templates)


def test_a_topic_that_is_not_kebab_case_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "tagged.yaml", "tagged-recall")
    path.write_text(path.read_text(encoding="utf-8") + "    topics: [Tensor Parallel]\n", encoding="utf-8")
    with pytest.raises(BankError) as caught:
        _load(tmp_path)
    assert "topics" in str(caught.value)


LIST_TEMPLATE = """templates:
  - id: paged-waste
    checklist: kv-cache
    kind: numeric
    difficulty: 2
    title: Paged KV waste
    prompt: Requests of {{len_a}} and {{len_b}} tokens and one of 300, blocks of 16. Wasted share?
    params:
      len_a: {{int: {{low: 1, high: 2000}}}}
      len_b: {{int: {{low: 1, high: 2000}}}}
    answer:
      call: paged_kv_waste_fraction
      with: {{request_lengths: [len_a, {second}, 300], block_size: 16}}
      unit: "%"
      tolerance: {{absolute: 0.5}}
    explanation: Only the last block of each request is partly empty.
    references: [Kwon et al. 2023]
"""


def test_a_list_argument_binds_each_element(tmp_path: Path) -> None:
    (tmp_path / "paged.yaml").write_text(LIST_TEMPLATE.format(second="len_b"), encoding="utf-8")
    template = _load(tmp_path).get("paged-waste")
    problem = generate(template, 4, catalog=CATALOG)
    lengths = [problem.params["len_a"], problem.params["len_b"], 300]
    reserved = sum(-(-length // 16) * 16 for length in lengths)
    assert problem.answer == pytest.approx(1 - sum(lengths) / reserved)


def test_a_list_argument_naming_an_unknown_param_is_refused(tmp_path: Path) -> None:
    (tmp_path / "paged.yaml").write_text(LIST_TEMPLATE.format(second="len_c"), encoding="utf-8")
    with pytest.raises(BankError) as caught:
        _load(tmp_path)
    assert "len_c" in str(caught.value)
    assert "request_lengths" in str(caught.value)
