"""The article before a drawn name and the noun after a count agree with how the words are said."""

from __future__ import annotations

import pytest

from grader.wording import counted, indefinite_article, with_article


@pytest.mark.parametrize(
    "words,article",
    [
        ("NVIDIA L4", "an"),
        ("**A100 40GB", "an"),
        ("H100 SXM", "an"),
        ("L4", "an"),
        ("AMD Instinct MI300X", "an"),
        ("MI300X", "an"),
        ("int8 cache", "an"),
        ("fp16 tensor", "an"),
        ("8-minute mock", "an"),
        ("11-layer model", "an"),
        ("18,000-token prompt", "an"),
        ("800 GB/s link", "an"),
        ("Google TPU v5e", "a"),
        ("TPU", "a"),
        ("Llama-2-7B", "a"),
        ("Mixtral-8x7B", "a"),
        ("bf16 cache", "a"),
        ("15-minute mock", "a"),
        ("118-layer model", "a"),
        ("user", "a"),
        ("one-minute mock", "a"),
        ("hour", "an"),
    ],
)
def test_the_article_follows_the_first_sound(words: str, article: str) -> None:
    assert indefinite_article(words) == article


def test_with_article_puts_it_before_the_words() -> None:
    assert with_article("8-minute mock") == "an 8-minute mock"


def test_a_count_of_one_takes_the_singular() -> None:
    assert counted(1, "sequences") == "1 sequence"
    assert counted(1, "bytes") == "1 byte"
    assert counted(4, "sequences") == "4 sequences"
    assert counted(1, "single problems") == "1 single problem"
    assert counted(1.5, "bytes") == "1.5 bytes"
    assert counted(1, "tokens/s") == "1 tokens/s"  # not a noun it knows: left as written
