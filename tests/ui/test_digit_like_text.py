"""Text that looks like digits to ``str.isdigit`` but not to ``int`` (``²``) never reaches ``int``."""

from __future__ import annotations

import pytest

from ui.context import initial_seed


@pytest.mark.parametrize("text", ["²", "¹²", "-³", "x", ""])
def test_a_seed_that_is_no_integer_is_drawn_at_random(text: str) -> None:
    assert 0 <= initial_seed(text) < 2**31


def test_a_seed_that_is_an_integer_is_kept() -> None:
    assert initial_seed(" 42 ") == 42
