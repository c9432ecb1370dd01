"""A decode step's KV read is hidden under the matmuls' FLOPs only where the prompt says so.

The refused case is ``broken/kv-read-under-compute.yaml``; here the same question, its prompt stating the
overlap, loads, and the shipped bank holds no key that hides the read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bank_kit import BROKEN

from grader.estimator import KV_READ_OVERLAPPED
from question_bank import BankError, load_bank

BROKEN_FILE = BROKEN / "kv-read-under-compute.yaml"


def test_the_same_question_loads_when_its_prompt_says_the_kv_read_overlaps(tmp_path: Path) -> None:
    text = BROKEN_FILE.read_text(encoding="utf-8").replace(
        'with 8 GB of cache on {gpu.name}?"',
        'with 8 GB of cache on {gpu.name}, taking the KV read as overlapped with the FLOPs?"',
    )
    assert "overlapped" in text
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    assert load_bank([tmp_path], include_shipped=False).get("broken-kv-overlap")


def test_without_the_statement_it_is_refused_at_the_call() -> None:
    with pytest.raises(BankError) as caught:
        load_bank([BROKEN_FILE], include_shipped=False)
    (issue,) = caught.value.issues
    assert issue.field == "answer.call" and "hides the KV read" in issue.message
    assert "decode_step_time_general" in issue.hint


def test_no_shipped_key_hides_the_kv_read() -> None:
    bank = load_bank()
    for template in bank.templates:
        spec = getattr(template, "answer", None)
        keyword = KV_READ_OVERLAPPED.get(getattr(spec, "call", ""))
        if keyword and spec.with_.get(keyword) not in (None, 0):
            assert "overlap" in template.prompt, template.id


def test_overlap_said_of_the_weights_only_does_not_count(tmp_path: Path) -> None:
    text = BROKEN_FILE.read_text(encoding="utf-8").replace(
        'with 8 GB of cache on {gpu.name}?"',
        'with 8 GB of cache on {gpu.name} (cache read once; the weight matmuls overlap their read)?"',
    )
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(BankError) as caught:
        load_bank([tmp_path], include_shipped=False)
    assert [issue.field for issue in caught.value.issues] == ["answer.call"]
