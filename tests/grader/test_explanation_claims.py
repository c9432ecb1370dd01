"""Typed explanations read as claims: polarity, framing, shorthand, figures, salad, and what never breaks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import Problem, check_explanation
from grader.explain.check import MAX_EXPLANATION_CHARS
from grader.explain.shape import is_chained, is_garbled, is_salad, is_stacked, is_vague
from grader.grading import MAX_RESPONSE_CHARS
from grader.problem import Kind
from question_bank import generate, load_bank
from question_bank.rubric_check import OFF_TOPIC, shuffled
from question_bank.scenarios import generate_scenario

BANK = load_bank()
RIDGE = generate(BANK.get("ridge-point-recall"), 0)
FUSION = generate(BANK.get("fusion-why"), 0)
DECODE = generate(BANK.get("decode-weight-read-why"), 0)
FLASH = generate(BANK.get("flash-attention-fixes"), 0)


def _recall_problems() -> list[Problem]:
    out: list[Problem] = [generate(t, 0) for t in BANK.templates if t.kind == "recall"]
    for scenario in BANK.scenarios:
        out.extend(s for s in generate_scenario(scenario, 0).steps if s.kind is Kind.RECALL)
    return out


RECALL = _recall_problems()


def test_concepts_scattered_over_the_text_make_no_point() -> None:
    together = "Below the ridge a kernel is bandwidth-bound: its time is bytes / bandwidth."
    apart = "Below the ridge. Some words in between. A kernel is bandwidth-bound. Time is bytes / bandwidth."
    assert check_explanation(RIDGE, together).hits[1]
    assert not check_explanation(RIDGE, apart).hits[1]


def test_negation_is_scoped_to_its_clause() -> None:
    text = "Decode is not compute-bound, it is memory-bound: each step reads every weight once from HBM."
    check = check_explanation(DECODE, text)
    assert "batch-1 decode is compute-bound" not in check.misconceptions


def test_words_a_clause_sets_aside_make_no_point() -> None:
    said = (
        "Standard attention writes the N×N score matrix to HBM and reads it back, so the memory "
        "traffic dominates."
    )
    dismissed = (
        "Standard attention computes the N×N score matrix, and the memory traffic of writing it to HBM "
        "isn't really the bottleneck."
    )
    assert check_explanation(FLASH, said).hits[0]
    check = check_explanation(FLASH, dismissed)
    assert not check.hits[0]
    assert check.contradicted[0], "the text says the point's opposite: a wrong claim"


def test_a_denied_statement_makes_nothing() -> None:
    assert not any(check_explanation(RIDGE, "It is false that " + RIDGE.key_points[1].lower()).hits)


def test_a_pronoun_after_a_rejected_claim_takes_up_its_subject() -> None:
    problem = generate(BANK.get("critical-batch-recall"), 0)
    kv = "KV cache adds bytes per sequence that batching does not share"
    answered = "Don't assume the KV cache amortises like the weights: it's per sequence, so the step stays "
    assert check_explanation(problem, answered + "bandwidth-bound beyond B*.").hits[4], kv
    unanswered = "Don't assume the KV cache amortises like the weights. Weights are big, so the step stays "
    assert not check_explanation(problem, unanswered + "bandwidth-bound beyond B*.").hits[4], kv


def test_a_pronoun_led_segment_asserts_a_misconception_of_the_subject_before_it() -> None:
    problem = generate(BANK.get("three-regimes-define"), 0)
    wrong = "Overhead-bound: Python and launches; it shrinks if you use smaller tensors."
    assert "overhead shrinks with smaller tensors" in check_explanation(problem, wrong).misconceptions
    apart = "Overhead-bound: Python and launches. The GPU is fine. Memory shrinks if you use smaller tensors."
    assert "overhead shrinks with smaller tensors" not in check_explanation(problem, apart).misconceptions


def test_not_because_negates_the_reason_it_introduces() -> None:
    text = "Fusion helps not because it reduces FLOPs but because it cuts the memory round trips."
    assert check_explanation(FUSION, text).misconceptions == ()


def test_a_predicate_reads_as_said_of_the_subject_before_it() -> None:
    problem = generate(BANK.get("prefill-vs-decode-why"), 0)
    paired = "H100 ridge ≈ 295 → prefill above (compute-bound), small-batch decode far below (BW-bound)."
    assert check_explanation(problem, paired).misconceptions == ()
    wrong = "Prefill streams the prompt, so it is bandwidth-bound, and decode is compute-bound."
    assert set(check_explanation(problem, wrong).misconceptions) == {
        "decode is compute-bound",
        "prefill is bandwidth-bound",
    }


def test_a_point_said_only_inside_a_wrong_claim_is_not_made() -> None:
    problem = generate(BANK.get("prefill-vs-decode-why"), 0)
    wrong = "Decode is just one token per sequence, tiny, so it is compute-bound on the matmuls."
    check = check_explanation(problem, wrong)
    assert "decode is compute-bound" in check.misconceptions and not check.hits[2]
    right = "Decode is just one token per sequence, about 1 FLOP/B, so it is bandwidth-bound."
    assert check_explanation(problem, right).hits[2]


@pytest.mark.parametrize(
    "frame",
    [
        "A common mistake is to think that fusion reduces FLOPs.",
        "It's a myth that fusion reduces FLOPs.",
        "People often think fusion reduces FLOPs, but it does the same math.",
        "The intuitive answer is that fusion reduces FLOPs, but it does the same math.",
        "Someone might think fusion reduces FLOPs; it does the same math.",
        "Mistakes to avoid:\n- fusion reduces FLOPs\n- element-wise ops are compute-bound",
    ],
)
def test_a_misconception_named_to_reject_it_is_not_asserted(frame: str) -> None:
    assert check_explanation(FUSION, frame).misconceptions == ()
    assert "fusion reduces FLOPs" in check_explanation(FUSION, "Fusion reduces FLOPs.").misconceptions


def test_shorthand_symbols_and_transposed_letters_read() -> None:
    terse = "AI < ridge → BW-bound, t = bytes/BW, only AI × BW FLOP/s. Above → comptue-bound, t = FLOPs/peak."
    check = check_explanation(RIDGE, terse)
    assert check.hits[1] and check.hits[2]
    assert check_explanation(FUSION, "cos is elementwise so it's memroy-bound: t = bytes/BW.").hits[0]


def test_parallelism_shorthand_and_the_not_equal_sign_read() -> None:
    problem = generate(BANK.get("pipeline-vs-tensor-parallel-why"), 0)
    terse = "TP: weight read split n ways → per-tok latency ↓ ~n×. PP: stages serial → bs1 latency = 1 read."
    assert check_explanation(problem, terse).hits[0]
    wrong = "PP with p stages makes each token p times faster."
    flagged = check_explanation(problem, wrong).misconceptions
    assert "a pipeline of p stages makes each token p times faster" in flagged
    assert check_explanation(problem, "NB PP ≠ p× faster per token (stages are serial).").misconceptions == ()


def test_a_wrong_figure_voids_the_point_and_is_named() -> None:
    right = "Ridge = peak / bandwidth = 989e12 / 3.35e12 ≈ 295 FLOP/B."
    wrong = "Ridge = peak / bandwidth = 989e12 / 3.35e12 ≈ 29.5 FLOP/B."
    assert check_explanation(RIDGE, right).hits[0]
    check = check_explanation(RIDGE, wrong)
    assert not check.hits[0]
    typed, expected = check.wrong_figures[0]
    assert typed.startswith("29.5") and expected.startswith("295")


def test_a_figure_far_off_in_the_same_unit_is_another_quantity_not_a_slip() -> None:
    problem = generate(BANK.get("kv-cache-formula-recall"), 0)
    assert check_explanation(problem, "For 13B: 2*40*40*128*2 = ~820 KB per token.").hits[1]
    slip = check_explanation(RIDGE, "Ridge = peak / bandwidth = 989e12 / 3.35e12 ≈ 2.95 FLOP/B.")
    assert not slip.hits[0] and slip.wrong_figures[0][0].startswith("2.95")


def test_milliseconds_spelled_out_state_the_figure_in_ms() -> None:
    spelled = "26 GB over 1.5 TB/s is about 17 milliseconds a token. The math alone would be like 0.08 ms."
    check = check_explanation(DECODE, spelled)
    assert check.hits[2] and check.wrong_figures[2] == ("", "")


def test_keyword_salad_scores_at_most_one_point() -> None:
    salad = (
        "Ops:byte roofline H100 SXM 295 dense sparse fp8, intensity bandwidth-bound compute-bound, the ridge "
        "divides the bytes of the peak so fusion quantisation batching."
    )
    check = check_explanation(RIDGE, salad)
    assert check.points_made <= 1 and check.suggested_rating == "again"


def test_stacked_terms_with_a_linked_tail_are_salad_and_assert_nothing() -> None:
    stacked = (
        "Prefill compute-bound decode bandwidth-bound arithmetic intensity T tokens batch H100 295 KV cache "
        "tensor cores, the prompt reads the weights per FLOP of the bytes."
    )
    prose = (
        "Prefill runs every prompt token through each weight read, so it sits above the H100 ridge of 295 "
        "FLOP/B and is compute-bound; decode runs one token per sequence and is bandwidth-bound."
    )
    assert is_stacked(stacked) and not is_stacked(prose)
    problem = generate(BANK.get("prefill-vs-decode-why"), 0)
    check = check_explanation(problem, stacked)
    assert check.points_made <= 1 and check.misconceptions == () and check.suggested_rating == "again"
    assert check_explanation(problem, prose).points_made >= 2


def test_terms_linked_by_verbs_that_say_nothing_are_salad() -> None:
    linked = (
        "Pipeline and tensor parallelism relate layers and matmuls: it all comes down to the topology, "
        "the right mix depends on the interconnect, and balancing bubbles against all-reduces is the key "
        "to efficiency."
    )
    plain = (
        "Pipeline parallelism gives each GPU a block of layers; a single request still walks the stages "
        "one after another, so its latency does not fall, and how far it scales depends on the bubbles."
    )
    assert is_vague(linked) and not is_vague(plain)


def test_nouns_strung_together_with_of_the_are_salad() -> None:
    chained = (
        "The GEMV of 1 FLOP per byte is the ridge of the KV heads, so speculative decoding of bf16 at 295 "
        "batches the intensity of the int8 roofline."
    )
    assert is_chained(chained)
    assert not is_chained(DECODE.model_answer) and not is_chained(RIDGE.model_answer)
    check = check_explanation(generate(BANK.get("decode-one-flop-per-byte"), 0), chained)
    assert check.points_made <= 1 and check.suggested_rating == "again"


def test_terms_related_only_vaguely_are_salad() -> None:
    vague = (
        "Tensor parallelism is all about the interplay of NVLink, all-reduce and sharding, so latency and "
        "throughput interact at the interconnect level, and the KV cache plays into it one way or another."
    )
    prose = (
        "Tensor parallelism splits each weight matrix over n GPUs, so each reads 1/n of the weights and a "
        "batch-1 step is about n times faster; the trade-off is two all-reduces per layer over NVLink."
    )
    assert is_vague(vague) and not is_vague(prose)
    # "is about" reads as "roughly" beside a figure: no vague relation there.
    assert not is_vague("The add is about 1 FLOP per 12 bytes; the matmul is about 1,365 FLOP/B.")
    problem = generate(BANK.get("tensor-parallel-fixes"), 0)
    check = check_explanation(problem, vague)
    assert check.points_made <= 1 and check.suggested_rating == "again"
    assert check_explanation(problem, prose).points_made >= 2


def test_terse_notes_and_lists_of_fixes_are_claims_not_salad() -> None:
    assert not is_salad("short seqs finish early and their slot idles, queued reqs can't enter")
    assert not is_salad("Fixes: overhead → bigger batches, fewer/larger ops, CUDA graphs, compile")
    assert not is_salad("Fix overhead with bigger batches, fewer larger ops, CUDA graphs, compile")
    assert is_salad("roofline, ridge point, HBM bandwidth, tensor cores, fp8, batching, fusion")


def test_pronouns_and_variables_are_not_read_as_scrambled_word_order() -> None:
    prose = (
        "Adding a and b in fp32 reads 8 bytes and writes 4, one FLOP per 12 bytes. This is far below the "
        "ridge. This, and the matmul's reuse, is the whole story: each value is reused n times."
    )
    assert not is_garbled(prose)
    assert is_garbled(shuffled(prose, seed=1) + " " + shuffled(prose, seed=2))
    # Cards named by a letter are no sentence openers moved mid-sentence.
    named = "Split it over two cards: card A is reading while card B is idle, then B is busy and A is idle."
    assert not is_garbled(named)


def test_a_plain_words_answer_makes_its_points() -> None:
    plain = (
        "Each step every number in the model is fetched once from memory and used for just one multiply and "
        "one add. That is about one piece of math for every byte, far below the 200 the A100 could do, so "
        "the fetching sets the pace."
    )
    check = check_explanation(DECODE, plain)
    assert check.hits[0] and check.hits[1]


def test_each_point_made_names_its_sentence() -> None:
    text = "Some preamble. Below the ridge a kernel is bandwidth-bound: its time is bytes / bandwidth."
    check = check_explanation(RIDGE, text)
    assert check.hits[1] and "Below the ridge" in check.sentences[1] and "preamble" not in check.sentences[1]


def test_the_reading_cap_is_the_recall_answer_cap_and_says_so() -> None:
    assert MAX_RESPONSE_CHARS[Kind.RECALL] == MAX_EXPLANATION_CHARS
    text = RIDGE.model_answer + ("\n\n" + OFF_TOPIC) * (MAX_EXPLANATION_CHARS // len(OFF_TOPIC) + 1)
    check = check_explanation(RIDGE, text)
    assert check.truncated and check.checkable and all(check.hits)


@pytest.mark.parametrize("number", ["1e309", "1e400", "9" * 400, "1.7976931348623157e308", "3 × 10^999"])
def test_huge_numbers_are_read_not_raised(number: str) -> None:
    check = check_explanation(RIDGE, f"The ridge is {number} FLOP/B, peak / bandwidth, far from 295.")
    assert check.checkable


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_no_text_raises_or_loses_the_rubric(text: str) -> None:
    check = check_explanation(RIDGE, text)
    assert check.checkable and len(check.hits) == len(RIDGE.key_points)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RECALL), st.data())
def test_negating_a_point_never_makes_it(problem: Problem, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(problem.key_points) - 1))
    frames = ["It is false that ", "It's not true that ", "It is not the case that "]
    frame = data.draw(st.sampled_from(frames))
    point = problem.key_points[i]
    assert not check_explanation(problem, frame + point[:1].lower() + point[1:]).hits[i]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RECALL), st.integers(0, 3))
def test_an_unrelated_paragraph_never_changes_the_hits(problem: Problem, where: int) -> None:
    base = problem.model_answer
    paragraphs = base.split("\n\n")
    paragraphs.insert(min(where, len(paragraphs)), OFF_TOPIC)
    assert check_explanation(problem, "\n\n".join(paragraphs)).hits == check_explanation(problem, base).hits


def test_a_point_shown_on_its_follow_up_is_made_and_stored() -> None:
    from grader import ExplanationRecord

    check = check_explanation(FUSION, "Element-wise ops are memory-bound: time is bytes / bandwidth.")
    assert check.hits[0] and not check.hits[1]
    record = ExplanationRecord(text="t", check=check, probes={1: True, 2: False})
    assert record.made[1] and not record.made[2]
    stored = record.to_dict()
    assert stored["probes"] == {"1": True, "2": False}
    back = ExplanationRecord.from_dict(stored)
    assert back.probes == {1: True, 2: False} and back.made == record.made
    older = {k: v for k, v in stored.items() if k != "probes"}  # stored before follow-ups existed
    assert ExplanationRecord.from_dict(older).probes == {}


def test_a_lone_no_rejects_the_sentence_before_it() -> None:
    claim = "FlashAttention approximates attention"
    exact = " Its online softmax keeps the result exact."
    assert claim in check_explanation(FLASH, claim + "." + exact).misconceptions
    assert not check_explanation(FLASH, claim + "? No." + exact).misconceptions


def test_a_denial_ends_at_the_colon_that_gives_the_writers_own_account() -> None:
    tp = generate(BANK.get("tensor-parallel-fixes"), 0)
    text = (
        "What it doesn't buy you is per-token speed: every GPU waits for the whole layer, so the time "
        "per token is essentially the same as on one GPU."
    )
    check = check_explanation(tp, text)
    assert check.contradicted[2], "the account after the colon denies the bandwidth point"
    assert check.suggested_rating == "again"


def test_what_people_read_into_a_symptom_is_not_the_writers_claim() -> None:
    regimes = generate(BANK.get("three-regimes-define"), 0)
    name = "low GPU utilisation means compute-bound"
    idle = ", but low utilisation with the GPU idle between kernels is overhead."
    assert name in check_explanation(regimes, "Low GPU utilisation means compute-bound" + idle).misconceptions
    hearsay = "People often read low GPU utilisation as compute-bound"
    assert not check_explanation(regimes, hearsay + idle).misconceptions
