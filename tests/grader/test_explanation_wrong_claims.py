"""Wrong claims in a typed explanation: sums worked out wrong, and key points said and then denied."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader import ExplanationRecord, Rubric, check_explanation
from grader.explain.arithmetic import slips, stated_results, unit_base
from grader.explain.shape import is_garbled, is_salad
from grader.explain.text_match import Text
from question_bank import generate, load_bank
from tests.grader.test_explanation import DECODE, FULL


@pytest.mark.parametrize(
    ("text", "worked"),
    [
        ("Ridge point = peak / bandwidth = 989e12 / 3.35e12 ≈ 29.5 FLOP per byte.", 295.2),
        ("v5e: 1.97e14 / 8.2e11 ≈ 24, so a couple dozen sequences.", 240.2),
        ("H100 ridge: 989 T / 3.35 T ≈ 30 FLOP/B.", 295.2),
        ("KV per token: 2 · 40 · 40 · 128 · 2 ≈ 8.2 MB.", 819_200),
        ("26 GB / 1.5 TB/s ≈ 1.7 ms per token.", 0.01733),
        ("prefill of the prefix: 2 × 7e9 × 2,000 ≈ 2.8e10 FLOPs.", 2.8e13),
        ("the chance an expert is skipped is (6/8)^64 ≈ 0.3.", 1.0e-8),
        ("B* = 989e12 × 2 / (2 × 3.35e12) ≈ 2950.", 295.2),
        # A factor inside the sum ("(2·3.35e12)" ≈ 7 T) is no reading of it.
        ("W4A16: 989e12·0.5/(2·3.35e12) ≈ 7, compute-bound at once.", 73.8),
        ("Per token it's 19.5 / 64 ≈ 3 ms.", 0.3047),
    ],
)
def test_a_sum_worked_out_wrong_is_a_slip(text: str, worked: float) -> None:
    (slip,) = slips(text)
    assert slip.worked == pytest.approx(worked, rel=0.01)
    assert text[slip.start : slip.end].startswith(slip.expression)
    assert f"not {slip.said}" in slip.message()


@pytest.mark.parametrize(
    "text",
    [
        "Ridge = 989e12 / 3.35e12 ≈ 295 FLOP/B, or about 300.",
        "13e9 params × 2 bytes = 26 GB; 26 GB / 1.5 TB/s ≈ 17 ms per token.",
        "Compute: 2 · 13e9 / 312e12 ≈ 0.08 ms, nothing next to the read.",
        # The whole rest of a product under a "/" is its denominator, as people write it.
        "matmul: 2·4096³ / 3·4096²·2 ≈ 1365 FLOP/B.",
        "2*4096^3 ops for 3*4096^2*2 bytes = ~1365 ops per byte.",
        "2 × 40 layers × 40 heads × 128 × 2 bytes ≈ 0.82 MB for every token.",
        "137 GFLOP over 3·4096²·2 B ≈ 100 MB of traffic.",
        # "70B" is seventy billion parameters; "8x7B" is a model's name.
        "70B × 2 bytes = 140 GB, read every step.",
        "Mixtral 8x7B ≈ 12.9B active of 46.7B total.",
        # Symbols are not arithmetic; a bare figure is not a sum.
        "B* = peak × bytes / (2 × BW) ≈ peak / BW ≈ 200.",
        "The bubble is (p−1)/(m+p−1) ≈ 0.2 for these numbers.",
        "The A100's ridge is ≈ 200 FLOP/B.",
        # A letter beside a number is a variable of the sum, not a label: the sum has an unknown.
        "3n²·2 B ≈ 100 MB → AI = n/3",
        "bytes = 3n²·2 ≈ 1.0e8",
        # A factor written as a word is one the arithmetic does not read.
        "three 4096×4096 sheets × 2 bytes ≈ 100 MB",
        # A sum of bare numbers is worked in its result's unit.
        "Per token it's 19.5 / 64 ≈ 0.3 ms, because the batch shares the read.",
    ],
)
def test_right_sums_and_notation_are_no_slip(text: str) -> None:
    assert slips(text) == []


@given(st.text(alphabet=st.sampled_from(list("0123456789.e+-×*/·^²³()≈=~ GBTmsx%,")), max_size=60))
def test_slips_never_raise(text: str) -> None:
    for slip in slips(text):
        assert 0 <= slip.start < slip.end <= len(text)


def test_huge_numbers_are_no_error() -> None:
    assert slips("1e400 × 2 ≈ 3 and 1e-400 / 0 ≈ 1, 10^99999 ≈ 5") is not None
    check = check_explanation(DECODE, FULL + " Also 1e400 × 1e400 ≈ 2.")
    assert len(check.hits) == len(DECODE.key_points)


def test_a_slip_suggests_again_and_can_be_dismissed() -> None:
    text = FULL + " At batch 1 that is 26 GB / 1.5 TB/s ≈ 1.7 ms per token."
    check = check_explanation(DECODE, text)
    assert all(check.hits)
    assert check.slips == ("26 GB / 1.5 TB/s is about 17.3 ms, not 1.7 ms",)
    assert check.suggested_rating == "again"
    assert text[slice(*check.slip_spans[0])].startswith("26 GB")
    dismissed = ExplanationRecord(text=text, check=check, slip_overrides={check.slips[0]: False})
    assert dismissed.slips == () and dismissed.suggested_rating == "good"
    again = ExplanationRecord.from_dict(dismissed.to_dict())
    assert again.check.slips == check.slips and again.suggested_rating == "good"


def test_a_record_stored_before_slips_reads_without_them() -> None:
    stored = ExplanationRecord(text=FULL, check=check_explanation(DECODE, FULL)).to_dict()
    del stored["slips"], stored["slip_overrides"]  # type: ignore[misc]
    record = ExplanationRecord.from_dict(stored)
    assert record.slips == () and record.suggested_rating == "good"


def test_a_point_said_and_denied_is_a_wrong_claim() -> None:
    check = check_explanation(
        DECODE, "It is false that decode is memory-bound. Batching reuses each weight read."
    )
    assert check.hits[0] is False and check.contradicted[0] is True
    assert check.suggested_rating == "again"
    plain = check_explanation(DECODE, "Decode is not memory-bound. Batching reuses each weight read.")
    assert plain.contradicted[0] is True and plain.suggested_rating == "again"
    assert plain.denial_sentences[0] == "Decode is not memory-bound"
    # Left out is not denied: the same text without the first point is only incomplete.
    silent = check_explanation(DECODE, "Batching reuses each weight read, and the ridge is 200 FLOP/B.")
    assert not any(silent.contradicted) and silent.suggested_rating == "hard"


def test_a_negated_condition_on_the_subject_is_no_denial() -> None:
    # A negation in a clause of its own ("without batching") does not deny the claim after it.
    check = check_explanation(
        DECODE, "Without batching, decode is memory-bound: batching reuses each weight read."
    )
    assert check.hits[0] and not check.contradicted[0]


def test_ticking_a_denied_point_made_clears_its_wrong_claim() -> None:
    check = check_explanation(DECODE, "Decode is not memory-bound. " + FULL.split(": ", 1)[1])
    assert check.contradicted[0] and check.suggested_rating == "again"
    record = ExplanationRecord(text="x", check=check, overrides={0: True})
    assert record.wrong_claims == 0 and record.suggested_rating == "good"


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("two hundred and forty", 240.0),
        ("eight hundred and twenty thousand", 820_000.0),
        ("twenty-four", 24.0),
        ("ninety nine", 99.0),
        ("one million two hundred thousand", 1_200_000.0),
        ("thirteen billion", 13e9),
    ],
)
def test_a_number_written_in_words_is_one_number(written: str, value: float) -> None:
    assert [t.number for t in Text(f"It is {written} bytes.").tokens if t.number is not None] == [value]


def test_words_that_are_not_one_number_stay_apart() -> None:
    assert [
        t.number for t in Text("one and two; twenty twenty; two hundred, and forty; zero and five").tokens
    ] == [
        1.0,
        2.0,
        20.0,
        20.0,
        200.0,
        40.0,
        0.0,
        5.0,
    ]


def test_a_negation_standing_as_an_object_does_not_negate_the_reason_after_it() -> None:
    idle = {
        t.raw: t.negated for t in Text("Dequantising costs almost nothing because the ALUs sit idle.").tokens
    }
    assert not idle["idle"] and not idle["alus"]
    reason = {t.raw: t.negated for t in Text("It is slow, not because of the FLOPs.").tokens}
    assert reason["flops"]


def test_unlike_sets_aside_what_it_names_up_to_the_verb() -> None:
    words = {t.raw: t.negated for t in Text("It is exact, unlike sparse or low-rank attention.").tokens}
    assert words["sparse"] and words["low"] and not words["exact"]
    # "unlike the weights grows": the weights are set aside, the growing is said.
    grows = {t.raw: t.negated for t in Text("The cache, unlike the weights, grows with the context.").tokens}
    assert grows["weights"] and not grows["grows"] and not grows["context"]
    # "unlike" is no "not": a rubric's "does not grow" finds nothing in it.
    kv = generate(load_bank().get("kv-cache-formula-recall"), 0)
    text = "Total = per token x context x batch, which unlike the weights grows with both."
    assert "the KV cache does not grow with the context" not in check_explanation(kv, text).misconceptions


def test_instead_of_sets_aside_only_the_alternative_after_it() -> None:
    halving = Rubric(concepts=(("int8",), ("halves",)))
    problem = replace(DECODE, key_point_rubrics=(*DECODE.key_point_rubrics[:3], halving))
    check = check_explanation(problem, "Storing int8 weights in 1 byte instead of 2 halves the bytes read.")
    assert check.hits[3] and not check.contradicted[3]
    set_aside = check_explanation(
        problem, "With int8 weights the read is cut, rather than halves, by a third."
    )
    assert not set_aside.hits[3]


def test_a_double_negative_is_no_denial() -> None:
    constant = Rubric(concepts=(("ratio", "intensity"), ("no matter how big", "independent of size")))
    problem = replace(DECODE, key_point_rubrics=(*DECODE.key_point_rubrics[:3], constant))
    check = check_explanation(problem, "The add's ratio never changes, whatever the size: no matter how big.")
    assert not check.contradicted[3]
    check = check_explanation(problem, "The add's ratio never changes no matter how big the arrays get.")
    assert not check.contradicted[3]


def test_a_contrary_claim_in_other_words_denies_its_point() -> None:
    contrary = Rubric(
        concepts=(("each sequence",), ("its own read of the weights", "reads the weights again"))
    )
    sharing = replace(DECODE.key_point_rubrics[3], contrary=(contrary,))
    problem = replace(DECODE, key_point_rubrics=(*DECODE.key_point_rubrics[:3], sharing))
    base = "Decode is memory-bound at about one FLOP per byte, and the A100 ridge is near 200 FLOP/B."
    wrong = check_explanation(problem, base + " Each sequence in a batch needs its own read of the weights.")
    assert not wrong.hits[3] and wrong.contradicted[3] and wrong.suggested_rating == "again"
    assert wrong.denial_sentences[3].startswith("Each sequence in a batch")
    silent = check_explanation(problem, base)
    assert not silent.contradicted[3] and silent.suggested_rating == "hard"
    rejected = check_explanation(
        problem, base + " Don't assume each sequence needs its own read of the weights."
    )
    assert not rejected.contradicted[3]


@pytest.mark.parametrize(
    ("text", "rejected"),
    [
        ("The trap is to say decode is compute-bound.", True),
        ("A lot of people picture decode as compute-bound.", True),
        ("Saying decode is compute-bound is just wrong.", True),
        ("That's wrong: decode is compute-bound.", False),
        ("What goes wrong is that decode is compute-bound here.", False),
    ],
)
def test_rejecting_frames_and_what_goes_wrong(text: str, rejected: bool) -> None:
    check = check_explanation(DECODE, text)
    assert ("decode is compute-bound" in check.misconceptions) is not rejected


@pytest.mark.parametrize(
    ("after", "rejected"),
    [
        (" They don't.", True),
        (" That's a myth.", True),
        (" Not true.", True),
        (" That is right.", False),
        (" It is slow.", False),
    ],
)
def test_a_short_sentence_can_reject_the_one_before(after: str, rejected: bool) -> None:
    check = check_explanation(DECODE, "Many think decode is compute-bound, like prefill." + after)
    plain = check_explanation(DECODE, "Decode is compute-bound, like prefill." + after)
    assert check.misconceptions == ()  # "many think" rejects it already
    assert ("decode is compute-bound" in plain.misconceptions) is not rejected


@pytest.mark.parametrize("frame", ["A natural guess is that", "The common intuition:", "A popular take:"])
def test_more_rejecting_frames(frame: str) -> None:
    check = check_explanation(DECODE, f"{frame} decode is compute-bound. Decode is memory-bound.")
    assert check.misconceptions == () and check.hits[0]


@pytest.mark.parametrize(
    ("text", "typed", "reading", "unit"),
    [
        ("B* = 989e12 × 0.5 / 3.35e12 ≈ 148, half of bf16.", "148", 148.0, ""),
        ("2 × 40 × 40 × 128 × 2 = 819,200 B, so roughly 82 KB per token.", "82 KB", 82e3, "KB/token"),
        (
            "the matmul: 2*4096^3 ops for 3*4096^2*2 bytes = ~1365 ops per byte",
            "1365 ops",
            1365.0,
            "ops/byte",
        ),
        ("t_mem ≈ 17 ms/tok", "17 ms/tok", 0.017, "ms/tok"),
    ],
)
def test_a_result_is_read_with_its_unit(text: str, typed: str, reading: float, unit: str) -> None:
    said = stated_results(text)[-1]
    assert (said.typed, said.unit) == (typed, unit)
    assert said.readings[0] == pytest.approx(reading)


@pytest.mark.parametrize(
    "text",
    [
        "1 FLOP/B, far below the A100's ~200 FLOP/B ridge.",  # compared with, not stated
        "compute is 0.08 ms → ~200x smaller than the read",  # a ratio
        "peak / BW ≈ peak over bandwidth",  # no figure
        "prefill: AI ≈ 2T/2 = T FLOP/B",  # a term with a variable glued on
    ],
)
def test_figures_compared_with_or_ratios_are_no_results(text: str) -> None:
    assert [s for s in stated_results(text) if s.readings[0] > 1] == []


def test_units_read_to_their_base() -> None:
    assert unit_base("ms/tok") == ("s", 1e-3)
    assert unit_base("ops per byte".replace(" per ", "/")) == ("flop/byte", 1.0)
    assert unit_base("MB") == ("byte", 1e6)
    assert unit_base("sequences") == ("", 1.0)


def test_a_result_badly_off_the_points_figure_is_a_wrong_claim() -> None:
    rubric = Rubric(
        concepts=(("w4a16", "int4"), ("critical batch", "b*"), ("74", "quarter")),
        need=2,
        value=73.8,
        value_unit="sequences",
    )
    problem = replace(DECODE, key_points=("W4A16 puts B* at about 74.",), key_point_rubrics=(rubric,))
    wrong = check_explanation(problem, "W4A16 keeps the bf16 peak, so B* = 989e12 × 0.5 / 3.35e12 ≈ 148.")
    assert wrong.hits == (False,)
    assert wrong.wrong_figures[0][0] == "148 sequences"
    assert wrong.suggested_rating == "again"
    right = check_explanation(
        problem, "W4A16 keeps the bf16 peak, so B* = 989e12 × 0.5 / (2 × 3.35e12) ≈ 74."
    )
    assert right.hits == (True,)
    # Near enough is rounding, not a wrong figure.
    assert check_explanation(problem, "W4A16: the critical batch B* falls to roughly 70.").hits == (True,)


def test_terms_listed_side_by_side_make_no_point() -> None:
    rubric = Rubric(concepts=(("weights",), ("read once",)))
    problem = replace(DECODE, key_points=("The weights are read once.",), key_point_rubrics=(rubric,))
    listed = "decode: weights, HBM, B*, 200, KV cache per sequence, read once, throughput linear, latency."
    assert check_explanation(problem, listed).hits == (False,)
    said = "Each step the weights are read once from HBM, whatever the batch size."
    assert check_explanation(problem, said).hits == (True,)
    # Notes beside prose are a writer's shorthand, not a list of terms.
    notes = "The weights are read once per step, so it is shared. Fixes: int8, GQA, bigger batch, fusion."
    assert check_explanation(problem, notes).hits == (True,)


def test_an_abbreviation_ends_no_sentence() -> None:
    reading = Text("Decode is slow, e.g. a 13B model takes 17 ms per token, i.e. the read. Next one.")
    assert {t.sentence for t in reading.tokens if t.raw != "one" and t.raw != "next"} == {0}


def test_a_list_under_a_heading_is_a_claim_and_a_bare_one_is_salad() -> None:
    assert not is_salad("fixes: overhead → batch more, fewer bigger ops, graphs, compile.")
    assert is_salad(
        "tensor parallel: NVLink, all-reduce, columns rows, bandwidth N times, fits memory, node."
    )


@pytest.mark.parametrize(
    "frame",
    [
        "You'll hear that",
        "You often hear people say",
        "It's tempting to say",
        "Folks sometimes count it as if",
        "You sometimes see people claim",
        "Don't treat it as if",
        "It is easy to assume that",
        "A mix-up I hear a lot is that",
        "I used to think",
        "It is sometimes said that",
        "One explanation I've heard is that",
        "One sometimes hears that",
        "A common misreading is that",
        "Common slip in interviews:",
        "It is easy to get this upside down:",
        "I've seen people claim",
        "Sometimes people confuse it, as if",
        "A common explanation is that",
        "The common instinct is that",
        "I often hear that",
        "There's a view that",
        "People sometimes add up the times, as if",
    ],
)
def test_hearsay_frames_reject_the_claim(frame: str) -> None:
    text = f"{frame} decode is compute-bound."
    assert all(t.rejected for t in Text(text).tokens if t.raw in ("decode", "compute"))


def test_variables_and_sums_are_not_broken_prose() -> None:
    # "read a, read b", "the A·V product": letters that name variables; "fwd 2P + bwd 4P" adds up.
    assert not is_garbled(
        "Q·Kᵀ and the A·V products cost 4 · layers · ctx. The add reads a, read b, write c."
    )
    assert not is_salad("training 6P (fwd 2P + bwd 4P)")


def test_a_verb_that_looks_like_a_frame_rejects_nothing() -> None:
    text = Text("Chunking slips one piece of the prompt into each step, so decode keeps its pace.")
    assert not any(t.rejected for t in text.tokens)


def test_a_figure_said_before_the_words_that_carry_the_points_figure_is_not_its_figure() -> None:
    rubric = Rubric(concepts=(("h100", "decode"), ("ridge", "295")), value=295, value_unit="FLOP/B", need=2)
    problem = replace(
        DECODE, key_points=("The H100's ridge is about 295 FLOP/B.",), key_point_rubrics=(rubric,)
    )
    # Decode's own 1 FLOP/B stands before "ridge": it is decode's figure, not the ridge's.
    assert check_explanation(problem, "Decode at 1 FLOP/B sits far under the H100's ridge.").hits == (True,)
    wrong = check_explanation(problem, "Decode sits far under the H100's ridge of 29.5 FLOP/B.")
    assert wrong.hits == (False,) and wrong.wrong_figures[0][0] == "29.5 FLOP/B"


def test_a_figure_counting_something_else_is_no_wrong_figure() -> None:
    rubric = Rubric(
        concepts=(("decode", "per token"), ("17 ms", "time")), value=17.3, value_unit="ms", need=2
    )
    point = "Decode takes about 17 ms per token."
    problem = replace(DECODE, key_points=(point,), key_point_rubrics=(rubric,))
    assert stated_results("about 17 ms per word (~60 words per second)")[-1].counts == "words"
    counted = check_explanation(problem, "Decode time: about 17 ms per token (~60 words per second).")
    assert counted.hits == (True,) and counted.wrong_figures[0] == ("", "")
    # The same figure with no noun after it is a step time, and badly off.
    wrong = check_explanation(problem, "Decode takes a time of ≈ 60 per token.")
    assert wrong.hits == (False,) and wrong.wrong_figures[0][0] == "60 ms"


def test_the_value_stated_bare_beside_another_quantitys_figure_is_the_points_figure() -> None:
    rubric = Rubric(concepts=(("decode",), ("1 flop/b", "~1")), value=1, value_unit="FLOP/B", need=2)
    problem = replace(DECODE, key_points=("Decode is about 1 FLOP/B.",), key_point_rubrics=(rubric,))
    text = "decode: 1 tok/seq → AI ≈ B FLOP/B, ≈ 1 @ B=1; H100 ridge = 989e12/3.35e12 ≈ 295 FLOP/B"
    assert check_explanation(problem, text).hits == (True,)
    wrong = check_explanation(problem, "decode: 1 token per step, so AI ≈ 295 FLOP/B at batch 1")
    assert wrong.hits == (False,)


def test_a_divisor_before_the_points_unit_is_not_its_figure() -> None:
    rubric = Rubric(concepts=(("h100", "ridge"), ("295", "300")), value=295, value_unit="FLOP/B", need=1)
    point = "The H100's ridge is about 295 FLOP/B."
    problem = replace(DECODE, key_points=(point,), key_point_rubrics=(rubric,))
    text = "The H100's ridge: roughly 300 — 989 over 3.35 — FLOPs per byte."
    checked = check_explanation(problem, text)
    assert checked.hits == (True,) and checked.wrong_figures[0] == ("", "")


def test_a_verdict_then_because_gives_the_writers_own_reason() -> None:
    text = "It's sometimes said int8 only saves memory. For decode that's wrong, because decode is bytes."
    tokens = Text(text).tokens
    assert all(t.rejected for t in tokens if t.raw in ("int8", "memory"))
    assert not any(t.rejected for t in tokens if t.raw == "bytes")
    # Hearsay with "because" keeps the belief's reason inside the belief.
    assert all(t.rejected for t in Text("People think decode is slow because of math.").tokens)


@pytest.mark.parametrize("opening", ["No — ", "Nope, ", "No: ", "Wrong! "])
def test_a_sentence_opening_with_no_rejects_the_one_before(opening: str) -> None:
    tokens = Text(f"They say decode is compute-bound. {opening}it reads every weight.").tokens
    assert all(t.rejected for t in tokens if t.raw in ("decode", "compute"))
    assert not any(t.rejected for t in tokens if t.raw in ("reads", "weight"))


def test_its_a_misunderstanding_that_denies_the_claim() -> None:
    tokens = Text("It's a misunderstanding that TP makes a single user faster.").tokens
    assert all(t.denied for t in tokens if t.raw in ("makes", "faster"))


@pytest.mark.parametrize(
    "text",
    [
        "Decode is bandwidth-bound, contrary to what people assume.",
        "Contrary to what many think, decode is bandwidth-bound.",
        "Decode is more bandwidth-bound than people think.",
        "Decode is bandwidth-bound, whatever people expect.",
    ],
)
def test_what_people_think_set_against_the_claim_rejects_nothing(text: str) -> None:
    assert not any(t.rejected or t.denied for t in Text(text).tokens if t.raw in ("decode", "bandwidth"))


def test_a_pseudo_cleft_denies_what_it_names() -> None:
    text = "What it does not do, contrary to what is sometimes assumed, is make each decode step faster."
    assert all(t.denied for t in Text(text).tokens if t.raw in ("decode", "faster"))


def test_a_frame_ending_its_sentence_judges_the_clause_before_it() -> None:
    text = "Weights are read once per step, not once per sequence — a common misunderstanding."
    tokens = Text(text).tokens
    assert not any(t.rejected for t in tokens if t.raw in ("weights", "step"))
    assert all(t.rejected for t in tokens if t.raw == "sequence")
    said = Text("Prefill is fine, and decode is compute-bound, which is a classic mistake.").tokens
    assert [t.raw for t in said if t.rejected][:3] == ["decode", "compute", "bound"]
    assert not any(t.rejected for t in said if t.raw == "prefill")


def test_naive_names_a_method_and_frames_only_a_belief() -> None:
    assert not any(t.rejected for t in Text("Naive attention writes the N×N matrix to HBM.").tokens)
    assert all(t.rejected for t in Text("A naive answer: decode is compute-bound.").tokens)


def test_i_dont_think_is_the_writers_own_view_not_a_rejecting_frame() -> None:
    tokens = Text("I don't think decode has a compute limit.").tokens
    assert not any(t.rejected for t in tokens)
    assert all(t.negated for t in tokens if t.raw in ("decode", "compute"))
    assert all(t.rejected for t in Text("Don't assume decode is compute-bound.").tokens if t.raw == "decode")
