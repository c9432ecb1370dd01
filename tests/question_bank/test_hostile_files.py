"""Hostile bank files: each is refused with its file (and line) at once, never a hang or a silent skip."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from bank_kit import CATALOG
from test_loading import ONE_TEMPLATE as BASE_TEMPLATE

from question_bank import BankError, BankIssue, load_bank
from question_bank.schema import MAX_PROMPT_CHARS
from question_bank.yaml_source import MAX_EXPANDED_NODES, MAX_FILE_BYTES, read_yaml

# A valid recall template, with its prompt replaced by ``{prompt}``.
ONE_TEMPLATE = BASE_TEMPLATE.replace("prompt: Why is it 2P FLOPs per token?", "prompt: {prompt}")


def _issues(*paths: Path) -> list[BankIssue]:
    with pytest.raises(BankError) as caught:
        load_bank(paths, include_shipped=False, catalog=CATALOG)
    return caught.value.issues


def _bomb(levels: int = 9) -> str:
    """About 700 bytes whose aliases expand to 9**(levels + 1) strings."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "templates:\n  - id: bomb\n    junk:\n" + "".join(f"      {line}\n" for line in lines)


def test_an_alias_bomb_is_refused_with_its_line_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(), encoding="utf-8")
    assert path.stat().st_size < 1000
    done: list[list[BankIssue]] = []
    # Run aside so that a regression (minutes of expansion) fails the test instead of hanging it.
    worker = threading.Thread(target=lambda: done.append(_issues(path)), daemon=True)
    started = time.perf_counter()
    worker.start()
    worker.join(timeout=60)
    assert done, "the alias bomb was not refused within a minute"
    print(f"alias bomb refused in {(time.perf_counter() - started) * 1000:.1f} ms")
    [issue] = done[0]
    assert issue.file.endswith("bomb.yaml")
    assert f"expand to over {MAX_EXPANDED_NODES:,} YAML nodes" in issue.message
    # a3 expands to 9**4 = 6,561 strings and a4 to 59,049: a4 (line 8) is the first past the limit.
    assert issue.line == 8


def test_an_alias_inside_its_own_anchor_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("templates: &t\n  - *t\n", encoding="utf-8")
    [issue] = _issues(path)
    assert issue.line == 1 and "refers to the anchor that contains it" in issue.message


def test_a_few_aliases_are_still_fine(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("refs: &r [kipply]\nagain: *r\n", encoding="utf-8")
    source, flaws = read_yaml(path)
    assert not flaws and source is not None and source.data == {"refs": ["kipply"], "again": ["kipply"]}


def test_a_byte_that_is_not_utf8_is_named_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    text = ONE_TEMPLATE.format(id="latin", prompt="Why is it 2P FLOPs per token, caf\u00e9?")
    path.write_bytes(text.replace("caf\u00e9", "caf\u00e9 na\u00efve").encode("latin-1"))
    [issue] = _issues(path)
    assert issue.line == 7
    prompt_line = text.splitlines()[6]
    assert f"column {prompt_line.index('caf') + 4}: byte 0xe9 is not UTF-8 text" in issue.message


def test_a_bank_file_that_is_too_large_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    [issue] = _issues(path)
    assert f"at most {MAX_FILE_BYTES:,}" in issue.message


def test_a_markdown_image_in_a_prompt_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "image.yaml"
    prompt = '"Why 2P? ![chart](http://example.com/pixel.png)"'
    path.write_text(ONE_TEMPLATE.format(id="with-image", prompt=prompt), encoding="utf-8")
    [issue] = _issues(path)
    assert (issue.line, issue.template_id) == (7, "with-image")
    assert "Markdown image is not allowed" in issue.message


def test_a_plain_link_in_a_prompt_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "link.yaml"
    prompt = '"Why 2P? See [the post](https://kipp.ly/transformer-inference-arithmetic/)."'
    path.write_text(ONE_TEMPLATE.format(id="with-link", prompt=prompt), encoding="utf-8")
    bank = load_bank([path], include_shipped=False, catalog=CATALOG)
    assert bank.ids == ["with-link"]


def test_unusable_entries_in_a_bank_folder_are_each_reported(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "good.yaml").write_text(ONE_TEMPLATE.format(id="good-one", prompt="Why 2P?"), encoding="utf-8")
    os.mkfifo(folder / "pipe.yaml")
    (folder / "zeros.yaml").symlink_to("/dev/zero")
    (folder / "dangling.yml").symlink_to(folder / "nowhere.yaml")
    os.mkfifo(tmp_path / "given-directly.yaml")
    issues = _issues(folder, tmp_path / "given-directly.yaml")
    refused = sorted(Path(issue.file).name for issue in issues if "not a regular file" in issue.message)
    assert refused == ["dangling.yml", "given-directly.yaml", "pipe.yaml", "zeros.yaml"]


def test_a_folder_that_cannot_be_listed_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root lists any folder whatever its mode, so the refusal the kernel gives a user is simulated.
    folder = tmp_path / "mine"
    locked = folder / "locked"
    locked.mkdir(parents=True)
    (folder / "good.yaml").write_text(ONE_TEMPLATE.format(id="good-one", prompt="Why 2P?"), encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if Path(str(path)) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    issues = _issues(folder)
    unreadable = [i.file for i in issues if "cannot read this folder (Permission denied)" in i.message]
    assert unreadable == [str(locked)]


def test_a_file_that_cannot_be_read_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root reads any file whatever its mode, so the refusal the kernel gives a user is simulated.
    folder = tmp_path / "mine"
    folder.mkdir()
    locked = folder / "locked.yaml"
    locked.write_text(ONE_TEMPLATE.format(id="locked-one", prompt="Why 2P?"), encoding="utf-8")
    real_read_bytes = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    [issue] = _issues(folder)
    assert issue.file.endswith("locked.yaml") and "cannot read the file: Permission denied" in issue.message


def test_a_prompt_over_the_limit_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    prompt = '"' + "Why 2P? " * (MAX_PROMPT_CHARS // 8 + 1) + '"'
    path.write_text(ONE_TEMPLATE.format(id="long-prompt", prompt=prompt), encoding="utf-8")
    [issue] = _issues(path)
    assert (issue.line, issue.template_id, issue.field) == (7, "long-prompt", "prompt")
    assert f"at most {MAX_PROMPT_CHARS:,} characters" in issue.hint
