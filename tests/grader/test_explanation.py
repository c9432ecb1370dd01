"""Typed explanations checked against key-point rubrics: the matcher, the checks, the suggested rating."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader import (
    ExplanationRecord,
    Kind,
    Misconception,
    Problem,
    Rubric,
    check_explanation,
)
from grader.explain.check import suggest_rating
from grader.explain.text_match import Text, phrase_tokens

DECODE = Problem(
    "decode-why",
    "prefill-vs-decode",
    Kind.RECALL,
    "Why is decode bandwidth-bound?",
    1,
    key_points=(
        "Decode is bandwidth-bound.",
        "About 1 FLOP per byte at batch 1.",
        "The A100 ridge point is about 200 FLOP/B.",
        "Batching shares each weight read.",
    ),
    key_point_rubrics=(
        Rubric(concepts=(("decode",), ("bandwidth-bound", "memory-bound", "limited by hbm"))),
        Rubric(concepts=(("1 flop per byte", "1 flop/b"),)),
        Rubric(concepts=(("ridge", "ops:byte", "threshold"), ("200",))),
        Rubric(concepts=(("batching", "bigger batch"), ("shares", "reuse", "amortise"))),
    ),
    misconceptions=(
        Misconception(
            "decode is compute-bound",
            "It reads every weight for one multiply-add.",
            Rubric(concepts=(("decode is compute-bound", "decode is limited by flops"),)),
        ),
        Misconception(
            "int8 weights halve the compute time at batch 1",
            "They halve the bytes.",
            Rubric(concepts=(("int8",), ("halve the compute", "halves the compute", "fewer flops"))),
        ),
    ),
)
FULL = (
    "Decoding is memory-bound: at batch 1 it does about one FLOP per byte, while the A100's ridge point "
    "is near 200 FLOP/B. Batching reuses each weight read across sequences."
)


def _found(text: str, phrase: str) -> list[str]:
    prepared = Text(text)
    return [text[m.start : m.end] for m in prepared.find(phrase_tokens(phrase))]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("decoding is slow", "decode"),  # stems
        ("it is bandwidth bound", "bandwidth-bound"),  # hyphen or space
        ("limited by the HBM", "limited by hbm"),  # filler words
        ("the HBM bandwith limits it", "hbm bandwidth"),  # a typo in a long word
        ("utilisation is low", "utilization"),  # British spelling
        ("two FLOPs per parameter", "2 flops per param"),  # number words, plural, abbreviation
        ("2·P per token", "2p"),
        ("1,365 FLOP/B", "1365 flop per byte"),  # thousands separator, slash
        ("about 1.37e3", "1365"),  # scientific notation, within 10 %
        ("3 × 10^12 B/s", "3e12"),
        ("13 billion weights", "13e9 weights"),
        ("fusion is therefore free", "fusion is free"),  # one extra word between
        ("it caches K and V per head", "k and v"),  # a clause break the phrase has itself
    ],
)
def test_phrase_matches_other_ways_of_saying_it(text: str, phrase: str) -> None:
    assert _found(text, phrase)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("decode is not memory-bound", "memory-bound"),
        ("it isn't bandwidth bound", "bandwidth-bound"),
        ("never compute-bound at batch 1", "compute-bound"),
        ("encode the input", "decode"),  # near but different word
        ("about 240 sequences", "200"),  # 20 % off is another number
        ("memory. Bound to happen", "memory bound"),  # across sentences
        ("fusion is, in the end, usually free", "fusion is free"),  # too far apart
        ("weights in fp16 on an A100", "16"),  # a name with digits is not a number
        ("prefill is compute-bound and decode memory-bound", "compute-bound decode"),  # across "and"
        ("prefill is compute-bound, decode memory-bound", "compute-bound decode"),  # across a comma
    ],
)
def test_phrase_does_not_match_negations_or_other_things(text: str, phrase: str) -> None:
    assert not _found(text, phrase)


def test_a_negation_inside_the_phrase_is_part_of_it() -> None:
    assert _found("faster math does not help here", "does not help")


def test_full_explanation_hits_every_point_in_its_own_words() -> None:
    check = check_explanation(DECODE, FULL)
    assert check.hits == (True, True, True, True)
    assert check.misconceptions == ()
    assert check.suggested_rating == "good"
    assert "memory-bound" in check.evidence[0] and "Decoding" in check.evidence[0]
    assert check.evidence[2] == ("ridge", "200")
    assert all(FULL[a:b] for spans in check.spans for a, b in spans)


def test_partial_explanation_hits_some_points_and_suggests_hard_or_again() -> None:
    half = check_explanation(DECODE, "Decode is limited by HBM; batching amortises the weight reads.")
    assert half.hits == (True, False, False, True) and half.suggested_rating == "hard"
    few = check_explanation(DECODE, "Decode is limited by HBM.")
    assert few.hits == (True, False, False, False) and few.suggested_rating == "again"


def test_negated_point_is_missed() -> None:
    check = check_explanation(DECODE, "Decode is not memory-bound at all.")
    assert not check.hits[0]


def test_misconception_is_found_and_suggests_again() -> None:
    text = FULL + " Also, int8 weights halve the compute time."
    check = check_explanation(DECODE, text)
    assert all(check.hits)
    assert check.misconceptions == ("int8 weights halve the compute time at batch 1",)
    assert check.suggested_rating == "again"
    assert text[slice(*check.misconception_spans[0][0])] == "int8"


def test_misconception_concepts_must_share_a_sentence() -> None:
    apart = "We store int8 weights. Speculative decoding halves the compute per accepted token."
    assert check_explanation(DECODE, apart).misconceptions == ()
    together = "We store int8 weights, which halves the compute per accepted token."
    assert check_explanation(DECODE, together).misconceptions == (
        "int8 weights halve the compute time at batch 1",
    )


def test_a_denied_misconception_is_not_one() -> None:
    check = check_explanation(DECODE, "Decode is not compute-bound; it is memory-bound.")
    assert check.misconceptions == () and check.hits[0]


def test_forbidden_phrase_voids_a_point() -> None:
    strict = Problem(
        "p",
        "fusion",
        Kind.RECALL,
        "?",
        1,
        key_points=("Fusion saves memory traffic.",),
        key_point_rubrics=(
            Rubric(concepts=(("fusion",), ("memory traffic", "bytes")), forbid=("fewer flops",)),
        ),
    )
    assert check_explanation(strict, "Fusion saves memory traffic.").hits == (True,)
    assert check_explanation(strict, "Fusion saves memory traffic and needs fewer FLOPs.").hits == (False,)


def test_need_lets_some_concepts_be_left_out() -> None:
    lenient = Problem(
        "p",
        "fusion",
        Kind.RECALL,
        "?",
        1,
        key_points=("Any two of three.",),
        key_point_rubrics=(Rubric(concepts=(("registers",), ("one read",), ("one write",)), need=2),),
    )
    assert check_explanation(lenient, "It stays in registers with one read.").hits == (True,)
    assert check_explanation(lenient, "It stays in registers.").hits == (False,)


def test_empty_explanation_is_marked_empty() -> None:
    for text in ("", "   \n "):
        check = check_explanation(DECODE, text)
        assert check.empty and check.hits == (False,) * 4 and check.misconceptions == ()


def test_problem_without_rubrics_is_not_checkable() -> None:
    bare = Problem("p", "fusion", Kind.RECALL, "?", 1, key_points=("a", "b", "c"))
    check = check_explanation(bare, "anything at all")
    assert not check.checkable and check.hits == (False, False, False)


@given(st.text(max_size=400))
def test_check_never_raises_and_stays_aligned(text: str) -> None:
    check = check_explanation(DECODE, text)
    assert len(check.hits) == len(check.evidence) == len(DECODE.key_points)
    assert check.suggested_rating in {"again", "hard", "good", "easy"}


def test_check_survives_a_non_string() -> None:
    check = check_explanation(DECODE, None)  # type: ignore[arg-type]
    assert check.empty


@pytest.mark.parametrize(
    ("made", "total", "wrong", "rating"),
    [
        (4, 4, 0, "good"),
        (3, 4, 0, "hard"),
        (2, 4, 0, "hard"),
        (1, 4, 0, "again"),
        (0, 4, 0, "again"),
        (4, 4, 1, "again"),
        (2, 5, 0, "again"),
        (3, 5, 0, "hard"),
    ],
)
def test_suggested_rating(made: int, total: int, wrong: int, rating: str) -> None:
    assert suggest_rating(points_made=made, points_total=total, misconceptions=wrong) == rating


def test_record_applies_overrules_and_round_trips() -> None:
    check = check_explanation(DECODE, "Decode is limited by HBM; int8 weights halve the compute time.")
    assert check.suggested_rating == "again"
    record = ExplanationRecord(
        text="x",
        check=check,
        overrides={1: True, 2: True},
        misconception_overrides={check.misconceptions[0]: False},
        rating="hard",
        seconds=42.0,
        time_limit_s=60.0,
    )
    assert record.made == (True, True, True, False)
    assert record.misconceptions == () and record.points_made == 3
    assert record.score == pytest.approx(0.75) and record.suggested_rating == "hard"
    again = ExplanationRecord.from_dict(record.to_dict())
    assert again.made == record.made and again.misconceptions == record.misconceptions
    assert again.rating == "hard" and again.seconds == 42.0 and again.time_limit_s == 60.0


def test_a_standing_misconception_halves_the_score() -> None:
    check = check_explanation(DECODE, FULL + " Int8 weights halve the compute time.")
    record = ExplanationRecord(text="x", check=check)
    assert record.points_made == 4 and record.score == pytest.approx(0.5)
