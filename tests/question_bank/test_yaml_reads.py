"""A bank file read again in one process is parsed once per text: an edit is read anew, and each reader's
data is its own."""

from __future__ import annotations

from pathlib import Path

from question_bank import yaml_source
from question_bank.yaml_source import read_yaml


def test_the_same_text_is_parsed_once_and_each_reader_gets_its_own_data(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("templates:\n  - id: a\n", encoding="utf-8")
    first, flaws = read_yaml(path)
    assert first is not None and not flaws
    first.data["templates"].append("changed by its reader")
    again, _ = read_yaml(path)
    assert again is not None and again.data == {"templates": [{"id": "a"}]}
    assert again.node is first.node  # the tree was not parsed again


def test_an_edited_file_is_read_anew(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("templates:\n  - id: a\n", encoding="utf-8")
    read_yaml(path)
    path.write_text("templates:\n  - id: b\n", encoding="utf-8")
    source, _ = read_yaml(path)
    assert source is not None and source.data == {"templates": [{"id": "b"}]}
    path.write_text("templates: [\n", encoding="utf-8")
    assert read_yaml(path)[0] is None, "a flaw is found again, never hidden by an earlier read"


def test_forget_parsed_parses_again(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("templates: []\n", encoding="utf-8")
    first, _ = read_yaml(path)
    yaml_source.forget_parsed()
    again, _ = read_yaml(path)
    assert first is not None and again is not None and again.node is not first.node
