"""A large bank is loaded for what it is: its aliases counted as aliases, its size held to a stated limit."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bank_kit import CATALOG
from test_loading import ONE_TEMPLATE

from question_bank import BankError, bank_limits, load_bank
from question_bank.generation_checks import usable_bank
from question_bank.yaml_source import MAX_EXPANDED_NODES, read_yaml


def _templates(count: int, *, prefix: str = "plain") -> str:
    """``count`` recall templates, 15 lines each, whose model answer meets its own rubrics."""
    body = ONE_TEMPLATE.split("\n", 1)[1].replace(
        "model_answer: Every weight does one multiply-add per token.",
        'model_answer: "Every weight does one multiply-add per token, 2 flops each, attention ignored."',
    )
    # Phrases of several words: a model answer with its words shuffled must not still make them.
    for one, several in (("multiply-add", "one multiply-add per token"), ("2 flops", "2 flops each")):
        body = body.replace(f"concepts: [[{one}]]", f"concepts: [[{several}]]")
    body = body.replace("concepts: [[attention]]", "concepts: [[attention ignored]]")
    return "templates:\n" + "".join(body.replace("{id}", f"{prefix}-{i}") for i in range(count))


def _nodes(node: yaml.Node) -> int:
    if isinstance(node, yaml.SequenceNode):
        return 1 + sum(_nodes(item) for item in node.value)
    if isinstance(node, yaml.MappingNode):
        return 1 + sum(_nodes(key) + _nodes(value) for key, value in node.value)
    return 1


def test_five_hundred_plain_templates_are_no_alias_bomb(tmp_path: Path) -> None:
    path = tmp_path / "large.yaml"
    path.write_text(_templates(500).replace("{{", "{").replace("}}", "}"), encoding="utf-8")
    source, flaws = read_yaml(path)
    assert flaws == [] and source is not None and source.node is not None
    # The file's own nodes are past the alias limit: only what aliases add may count against it.
    assert _nodes(source.node) > MAX_EXPANDED_NODES
    bank = load_bank([path], include_shipped=False, catalog=CATALOG)
    assert len(bank.ids) == 500


def test_aliases_in_a_large_file_count_what_they_add(tmp_path: Path) -> None:
    text = _templates(500).replace("{{", "{").replace("}}", "}")
    text = text.replace("references: [kipply]", "references: &refs [kipply]", 1)
    small = tmp_path / "small-aliases.yaml"
    small.write_text(text.replace("references: [kipply]", "references: *refs"), encoding="utf-8")
    assert read_yaml(small)[1] == []
    bomb = tmp_path / "bomb.yaml"
    # 500 aliases of a 60-node list add 30,000 nodes: a bomb, however it is spread.
    anchor = "references: &refs [" + ", ".join(["kipply"] * 59) + "]"
    bomb.write_text(
        text.replace("references: &refs [kipply]", anchor).replace(
            "references: [kipply]", "references: *refs"
        ),
        encoding="utf-8",
    )
    [flaw] = read_yaml(bomb)[1]
    assert f"expand to over {MAX_EXPANDED_NODES:,} YAML nodes" in flaw.message


def _folder(tmp_path: Path, counts: list[int]) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    for index, count in enumerate(counts):
        text = _templates(count, prefix=f"file{index}").replace("{{", "{").replace("}}", "}")
        (folder / f"bank{index}.yaml").write_text(text, encoding="utf-8")
    return folder


def test_templates_past_the_limit_are_left_out_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bank_limits, "MAX_USER_TEMPLATES", 3)
    folder = _folder(tmp_path, [2, 3])
    with pytest.raises(BankError) as caught:
        load_bank([folder], include_shipped=False, catalog=CATALOG)
    [issue] = caught.value.issues
    assert issue.template_id == "file1-1" and issue.file.endswith("bank1.yaml") and issue.line == 2 + 15
    assert "your bank holds 5 templates and at most 3 are loaded" in issue.message
    assert "the 1 after it are left out" in issue.message and "DRILL_BANK_DIRS" in issue.hint
    assert caught.value.partial.ids == ["file0-0", "file0-1", "file1-0"]


def test_the_app_keeps_the_shipped_bank_and_the_first_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bank_limits, "MAX_USER_TEMPLATES", 2)
    bank = usable_bank([_folder(tmp_path, [3])])
    assert [tid for tid in bank.ids if tid.startswith("file")] == ["file0-0", "file0-1"]
    assert len(bank.ids) > 50  # the shipped templates do not count against a user's limit
    assert [issue.template_id for issue in bank.refused] == ["file0-2"]


def test_files_past_the_byte_limit_are_left_out_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path, [2, 2, 2])
    size = (folder / "bank0.yaml").stat().st_size
    monkeypatch.setattr(bank_limits, "MAX_USER_BANK_BYTES", 2 * size + 1)
    with pytest.raises(BankError) as caught:
        load_bank([folder], include_shipped=False, catalog=CATALOG)
    [issue] = caught.value.issues
    assert issue.file.endswith("bank2.yaml") and issue.line == 0
    assert f"over {2 * size + 1:,} bytes in all ({3 * size:,} with this one)" in issue.message
    assert caught.value.partial.ids == ["file0-0", "file0-1", "file1-0", "file1-1"]


def test_the_stated_limits_are_what_the_readme_says() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"{bank_limits.MAX_USER_TEMPLATES:,} templates" in readme
    assert f"{bank_limits.MAX_USER_BANK_BYTES // 1_000_000} MB" in readme
