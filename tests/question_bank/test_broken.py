"""Every file under broken/ is refused, and each mistake is reported on the line marked ``# ERROR``.

A marked line reads ``...  # ERROR field.path`` (the field is optional). Loading the file alone
must report exactly the marked lines, each with a hint, and the marked field where one is given.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bank_kit import BROKEN, CATALOG

from question_bank import BankError, load_bank

_MARK = re.compile(r"#\s*ERROR\b\s*(?P<field>[\w.]*)")
BROKEN_FILES = sorted(BROKEN.rglob("*.yaml"))


def _expected(path: Path) -> dict[int, str]:
    marks: dict[int, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _MARK.search(line)
        if match:
            marks[number] = match.group("field")
    return marks


def test_there_are_many_kinds_of_broken_file() -> None:
    assert len(BROKEN_FILES) >= 15
    assert all(_expected(path) for path in BROKEN_FILES), "every broken file marks its mistake"


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.relative_to(BROKEN).as_posix())
def test_broken_file_is_refused_with_file_line_and_field(path: Path) -> None:
    with pytest.raises(BankError) as caught:
        load_bank([path], include_shipped=False, catalog=CATALOG)
    issues = caught.value.issues
    expected = _expected(path)
    assert all(issue.file.endswith(path.name) for issue in issues)
    assert {issue.line for issue in issues} == set(expected), [str(i) for i in issues]
    for line, field in expected.items():
        here = [issue for issue in issues if issue.line == line]
        assert all(issue.message and issue.hint for issue in here)
        if field:
            assert field in {issue.field for issue in here}, [str(i) for i in here]
    assert str(path.name) in str(caught.value)
