"""grader.grade and grader.check_numeric: verdicts for each kind, tolerance bands and slip diagnosis."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest

from grader import (
    Choice,
    Kind,
    Problem,
    SlipValue,
    Step,
    Tolerance,
    ToleranceKind,
    Verdict,
    VerdictStatus,
    check_numeric,
    grade,
)
from grader.diagnosis import DECIMAL_SLIPS, binary_slips
from grader.grading import RECALL_SCORES
from question_bank import generate, load_bank

KV_BYTES = 2 * 40 * 40 * 128 * 2  # Llama-2-13B, bf16: 819,200 B per token
THREE_PERCENT = Tolerance(ToleranceKind.RELATIVE, 0.03)
STEPS = (Step("KV-cache bytes per token", "2 · L · h · d · b", "2 · 40 · 40 · 128 · 2 B", KV_BYTES, "B"),)


def problem(kind: Kind, **fields: object) -> Problem:
    return Problem(template_id="t", checklist_item="kv-cache", kind=kind, prompt="?", seed=7, **fields)  # type: ignore[arg-type]


def numeric(
    answer: float = KV_BYTES,
    unit: str = "KiB",
    tolerance: Tolerance = THREE_PERCENT,
    slips: tuple[SlipValue, ...] = (),
) -> Problem:
    return problem(Kind.NUMERIC, answer=answer, unit=unit, tolerance=tolerance, slips=slips, derivation=STEPS)


CHOICES = (
    Choice("compute-bound", False, "The tensor cores would be busy."),
    Choice("bandwidth-bound", True, "Each weight is read once per token and used for 2 FLOPs."),
    Choice("overhead-bound", False, "Launch overhead matters only for tiny kernels."),
)
CHOICE = problem(Kind.CHOICE, choices=CHOICES)
RECALL = problem(
    Kind.RECALL, key_points=("One multiply and one add per weight", "Ignores attention over the context")
)


# --- numeric -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "value_si"),
    [
        ("800 KiB", 800 * 1024),
        ("800", 800 * 1024),
        ("819,200 B", 819_200),
        ("0.78125 MiB", 819_200),
        ("~790 KiB", 790 * 1024),
        ("812 KiB", 812 * 1024),
    ],
)
def test_numeric_correct(response: str, value_si: float) -> None:
    verdict = grade(numeric(), response)
    assert verdict.status is VerdictStatus.CORRECT
    assert verdict.score == 1.0
    assert verdict.is_attempt
    assert verdict.value == pytest.approx(value_si)
    assert verdict.derivation == STEPS


def test_numeric_verdict_reports_exact_answer_and_band_in_display_unit() -> None:
    verdict = grade(numeric(), "800 KiB")
    assert verdict.exact == 800
    assert verdict.unit == "KiB"
    assert verdict.accepted_range == (776, 824)
    assert "**800 KiB**" in verdict.message
    assert "776 to 824 KiB" in grade(numeric(), "700 KiB").message


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ("800 KiB", "**Correct.** The exact answer is **800 KiB**."),
        ("800KiB", "**Correct.** The exact answer is **800 KiB**."),
        ("800", "**Correct.** The exact answer is **800 KiB**."),
        ("819,200 B", "**Correct.** `819,200 B` = 800 KiB; the exact answer is **800 KiB**."),
    ],
)
def test_a_correct_answer_gets_a_short_message(response: str, message: str) -> None:
    assert grade(numeric(), response).message == message


def test_numeric_incorrect_says_the_exact_answer() -> None:
    verdict = grade(numeric(), "700 KiB")
    assert verdict.status is VerdictStatus.INCORRECT
    assert verdict.score == 0
    assert verdict.is_attempt
    assert verdict.diagnosis is None
    assert verdict.diagnosis_text == ""
    assert verdict.message.startswith("**Not quite.**")
    assert "**800 KiB**" in verdict.message


def test_echo_shows_what_was_typed_when_the_unit_differs() -> None:
    assert "`819,200 B` = 800 KiB" in grade(numeric(), "819,200 B").message


@pytest.mark.parametrize("response", ["", "   ", "hello", "KiB", "5 ms", "2 $"])
def test_numeric_unparsable_is_not_an_attempt_and_says_what_to_type(response: str) -> None:
    verdict = grade(numeric(), response)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert not verdict.is_attempt
    assert verdict.value is None
    assert "Type a number with a unit, like `800 KiB` or `819,200 B`" in verdict.message
    assert "a bare number is read in KiB" in verdict.message


@pytest.mark.parametrize(
    ("response", "unit", "message"),
    [
        (
            "12 parsec",
            "KiB",
            "**Could not read that answer.** `parsec` is not a unit the grader knows. For a size in bytes, "
            "put B, KB, KiB, MB, MiB, GB, GiB or TB (capital B a byte, small b a bit) after the number: "
            "`800 KiB` or `819,200 B`.",
        ),
        (
            "1,5 KiB",
            "KiB",
            "**Could not read that answer.** A comma inside a number is read only between groups of three "
            "digits. Use a point for decimals (`1.5`) and commas for thousands (`819,200`).",
        ),
        (
            "26 gb",
            "GB",
            "**Could not read that answer.** `gb` could mean bytes or bits. Write `GB` for bytes or `Gb` "
            "for bits (capital B is a byte, small b a bit).",
        ),
        (
            "8.4 MS",
            "ms",
            "**Could not read that answer.** `MS` reads as megaseconds. Write `ms` for milliseconds.",
        ),
        (
            "8 to 9 ms",
            "ms",
            "**Could not read that answer.** `8 to 9` reads as a range. Give one number, such as the middle "
            "of your range.",
        ),
        (
            "8.4 ms per forward pass",
            "ms",
            "**Could not read that answer.** `forward` is not a unit the grader knows. For a time, put s, "
            "ms, µs (or us) or ns after the number: `12.5 ms` or `0.0125 s`.",
        ),
        (
            "393 widgets",
            "",
            "**Could not read that answer.** `widgets` is not a unit the grader knows. For a pure number, "
            "type just the number or a percentage: `64`, `1.5e3` or `50%`.",
        ),
        (
            "13.5 GFLOPS",
            "GFLOP",
            "**Not counted: wrong kind of answer.** That is a FLOP rate (FLOP/s), but the question asks "
            "for a FLOP count. `FLOPS` with a capital S is a rate (FLOP/s); for a count write `FLOP` or "
            "`FLOPs`.",
        ),
        (
            "9.24 ms",
            "tokens/s",
            "**Not counted: wrong kind of answer.** That is a time, but the question asks for a token rate "
            "(tokens/s). Type a number with a unit, like `40 tokens/s`; a bare number is read in tokens/s.",
        ),
    ],
)
def test_unparsable_messages_say_exactly_what_to_type(response: str, unit: str, message: str) -> None:
    verdict = check_numeric(response, expected=1.0, unit=unit, rel_tol=0.03)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert verdict.message == message


def test_wrong_dimension_message_names_both() -> None:
    message = grade(numeric(), "5 ms").message
    assert message.startswith("**Not counted: wrong kind of answer.**")
    assert "a time" in message
    assert "a size in bytes" in message


@pytest.mark.parametrize(
    ("response", "expected_si", "unit"),
    [
        ("16.7ms", 26e9 / 1.555e12, "ms"),
        ("~17 ms/token", 26e9 / 1.555e12, "ms"),
        ("0.0167 s", 26e9 / 1.555e12, "ms"),
        ("26 GB / 1.555 TB/s", 26e9 / 1.555e12, "ms"),
        ("≈ 17 ms", 26e9 / 1.555e12, "ms"),
        ("17 msec", 26e9 / 1.555e12, "ms"),
        ("16.7 ms (approx.)", 26e9 / 1.555e12, "ms"),
        ("800KiB", 800 * 1024, "KiB"),
        ("819.2 kB", 800 * 1024, "KiB"),
        ("0.8 MB", 800 * 1024, "KiB"),
        ("6.25 GiB", 6.25 * 2**30, "GB"),
        ("240", 240, ""),
        ("~240 sequences", 240, ""),
        ("240 seqs", 240, ""),
        ("32 requests", 32, ""),
        ("batch size 240", 240, ""),
        ("B = 240", 240, ""),
        ("n ≥ 740", 740, ""),
        ("2.6e10 FLOPs", 26e9, "GFLOP"),
        ("26 GFLOPs", 26e9, "GFLOP"),
        ("26 billion FLOPs", 26e9, "GFLOP"),
        ("26B FLOPs", 26e9, "GFLOP"),
        ("26 billion", 26e9, "GFLOP"),
        ("26B", 26e9, "GFLOP"),
        ("13B params", 13e9, ""),
        ("1.3e10 parameters", 13e9, ""),
        ("208 ops/byte", 208, "FLOP/B"),
        ("0.17 FLOP/B", 1 / 6, "FLOP/B"),
        ("1/6", 1 / 6, "FLOP/B"),
        ("60 tok/s", 60, "tokens/s"),
        ("60 tokens/sec", 60, "tokens/s"),
        ("60 tps", 60, "tokens/s"),
        ("1/16.7 ms", 60, "tokens/s"),
        ("3.35 TB/s", 3.35e12, "TB/s"),
        ("3.35 TBps", 3.35e12, "TB/s"),
        ("989 TFLOPS", 989e12, "TFLOP/s"),
        ("989T", 989e12, "TFLOP/s"),
        ("1 PFLOP/s", 1e15, "TFLOP/s"),
        ("1e15 FLOP/s", 1e15, "TFLOP/s"),
        ("about 4.2 GB", 4.2e9, "GB"),
        ("4.2GB.", 4.2e9, "GB"),
        ("4.2 GB per GPU", 4.2e9, "GB"),
        ("4.2G", 4.2e9, "GB"),
        ("16,384 tokens", 16_384, "tokens"),
        ("16k tokens", 16_384, "tokens"),
        ("128K", 2**17, "tokens"),
        ("2^17 tokens", 2**17, "tokens"),
        ("0.5", 0.5, ""),
        ("50%", 0.5, ""),
        ("x2", 2, ""),
        ("2×", 2, ""),
    ],
)
def test_answers_as_engineers_type_them_grade_correct(response: str, expected_si: float, unit: str) -> None:
    verdict = check_numeric(response, expected=expected_si, unit=unit, rel_tol=0.03)
    assert verdict.status is VerdictStatus.CORRECT, verdict.message


@pytest.mark.parametrize(
    ("response", "unit", "said", "suggestion"),
    [
        ("0.0067", "ms", "seconds", "`0.0067 s`"),
        ("1.348e10", "GFLOP", "FLOPs", "`1.348e10 FLOP`"),
        ("819200", "KiB", "bytes", "`819200 B`"),
        ("3.35e12", "TB/s", "bytes per second", "`3.35e12 B/s`"),
    ],
)
def test_a_bare_number_right_only_in_the_base_unit_is_not_counted_where_the_question_does_not_ask_in_it(
    response: str, unit: str, said: str, suggestion: str
) -> None:
    # The x1000 slip the drill exists to catch: 0.0067 on a ms box is 0.0067 ms, whatever was meant.
    verdict = check_numeric(response, expected=float(response), unit=unit, rel_tol=0.03)
    assert verdict.status is VerdictStatus.UNPARSABLE, "not counted, so not stored"
    assert verdict.value is None
    assert f"read as {response} {unit}; if you meant {said}, type {suggestion}" in verdict.message


def test_a_bare_number_on_a_ms_box_is_read_in_ms_for_the_grade_and_the_stored_value() -> None:
    time_problem = numeric(answer=0.0067, unit="ms")
    slipped = grade(time_problem, "0.0067")
    assert slipped.status is VerdictStatus.UNPARSABLE
    assert "read as 0.0067 ms; if you meant seconds, type `0.0067 s`" in slipped.message
    for response in ("6.7", "0.0067 s", "6.7 ms"):
        verdict = grade(time_problem, response)
        assert verdict.correct and verdict.value == pytest.approx(0.0067), response


def test_a_bare_fraction_on_a_percentage_question_is_read_as_a_percentage() -> None:
    verdict = check_numeric("0.5", expected=0.5, unit="%", rel_tol=0.01)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "read as 0.5 %; if you meant a fraction, type `50%`" in verdict.message
    asked = replace(numeric(answer=0.5, unit="%"), prompt="What fraction of the KV memory is unused?")
    fraction = grade(asked, "0.5")
    assert fraction.correct and fraction.accepted_as == "unit-left-off"
    assert fraction.value == pytest.approx(0.5)


BYTES_ASKED = "With the KV cache in bf16, how many\nbytes of KV cache does one token add? *Within 3 %.*"


def test_a_bare_number_of_bytes_on_a_kib_question_that_asks_how_many_bytes_is_right() -> None:
    # The answer is 819,200 B shown in KiB; "819200" (or the arithmetic that makes it) is right in bytes,
    # and what is stored is the value it was graded as: 819,200 B, not 819,200 KiB.
    asked = replace(numeric(), prompt=BYTES_ASKED)
    for response in ("819200", "2*40*40*128*2"):
        verdict = grade(asked, response)
        assert verdict.correct, verdict.message
        assert "right in B" in verdict.message and "asks for bytes" in verdict.message
        assert verdict.value == pytest.approx(KV_BYTES)
    unasked = grade(numeric(), "819200")
    assert unasked.status is VerdictStatus.UNPARSABLE and "type `819200 B`" in unasked.message


@pytest.mark.parametrize(
    ("tolerance", "inside", "outside"),
    [
        (Tolerance(ToleranceKind.RELATIVE, 0.1), "880", "890"),
        (Tolerance(ToleranceKind.ABSOLUTE, 50), "849", "851"),
        (Tolerance(ToleranceKind.GEOMETRIC, 2), "1599", "1700"),
        (Tolerance(ToleranceKind.GEOMETRIC, 2), "401", "390"),
    ],
)
def test_tolerance_kinds(tolerance: Tolerance, inside: str, outside: str) -> None:
    problem = numeric(tolerance=tolerance)
    assert grade(problem, inside).status is VerdictStatus.CORRECT
    assert grade(problem, outside).status is VerdictStatus.INCORRECT


def test_geometric_band_is_shown() -> None:
    assert grade(numeric(tolerance=Tolerance(ToleranceKind.GEOMETRIC, 2)), "800").accepted_range == (
        400,
        1600,
    )


def test_band_edges_are_accepted() -> None:
    # 824 KiB is exactly 3 % above 800 KiB.
    assert grade(numeric(), "824 KiB").status is VerdictStatus.CORRECT


# --- diagnosis -----------------------------------------------------------------------------------


@pytest.mark.parametrize("slip", DECIMAL_SLIPS, ids=lambda s: s.name)
def test_each_decimal_generic_slip_is_diagnosed(slip) -> None:
    verdict = grade(numeric(), f"{800 * slip.factor!r} KiB")
    assert verdict.status is VerdictStatus.INCORRECT
    assert verdict.diagnosis == slip.name
    assert verdict.diagnosis_text.split(":")[0] == slip.diagnosis.split(":")[0]


@pytest.mark.parametrize(
    ("unit", "answer", "base", "power", "low_name", "high_name"),
    [
        ("KB", 800e3, "B", 1, "kib-for-kb", "kb-for-kib"),
        ("MB", 800e6, "B", 2, "mib-for-mb", "mb-for-mib"),
        ("GB", 26e9, "B", 3, "gib-for-gb", "gb-for-gib"),
        ("GiB", 26e9, "B", 3, "gib-for-gb", "gb-for-gib"),
        ("TB/s", 1.555e12, "B/s", 4, "tib-for-tb", "tb-for-tib"),
    ],
)
def test_binary_prefix_slips_follow_the_display_prefix(
    unit: str, answer: float, base: str, power: int, low_name: str, high_name: str
) -> None:
    # A tight band, so that even the 2.4 % between KiB and kB lies outside it.
    problem = numeric(answer=answer, unit=unit, tolerance=Tolerance(ToleranceKind.RELATIVE, 0.005))
    ratio = 1.024**power
    assert grade(problem, f"{answer / ratio!r} {base}").diagnosis == low_name
    assert grade(problem, f"{answer * ratio!r} {base}").diagnosis == high_name


def test_gib_for_gb_example() -> None:
    # 26e9 B is 24.21 GiB; typing that figure as GB is the classic slip.
    verdict = check_numeric("24.21 GB", expected=26e9, unit="GB", rel_tol=0.02)
    assert verdict.diagnosis == "gib-for-gb"
    assert "GiB" in verdict.diagnosis_text


def test_binary_slip_size_follows_the_answer_when_the_unit_has_no_prefix() -> None:
    problem = numeric(unit="B", tolerance=Tolerance(ToleranceKind.RELATIVE, 0.005))
    assert grade(problem, f"{KV_BYTES / 1.024!r}").diagnosis == "kib-for-kb"


def test_binary_slips_are_the_ratio_and_its_inverse() -> None:
    low, high = binary_slips(3)
    assert low.factor * high.factor == pytest.approx(1)
    assert high.factor == pytest.approx(2**30 / 1e9)


def test_gigabits_typed_for_gigabytes_is_bits_vs_bytes() -> None:
    verdict = check_numeric("26 Gb", expected=26e9, unit="GB", rel_tol=0.02)
    assert verdict.diagnosis == "bits-vs-bytes-low"


def test_declared_slip_is_named_before_generic_ones() -> None:
    # Query heads instead of KV heads: here 2× the answer, which the generic factor-2 slip also matches.
    declared = SlipValue("heads-not-kv-heads", 2 * KV_BYTES, "You used the query heads.")
    verdict = grade(numeric(slips=(declared,)), "1600 KiB")
    assert verdict.diagnosis == "heads-not-kv-heads"
    assert verdict.diagnosis_text == "You used the query heads."


def test_closest_declared_slip_wins() -> None:
    slips = (SlipValue("far", 1.2 * KV_BYTES, "far"), SlipValue("near", 1.25 * KV_BYTES, "near"))
    problem = numeric(tolerance=Tolerance(ToleranceKind.RELATIVE, 0.05), slips=slips)
    assert grade(problem, f"{800 * 1.24} KiB").diagnosis == "near"
    assert grade(problem, f"{800 * 1.19} KiB").diagnosis == "far"


def test_declared_slip_uses_the_template_tolerance() -> None:
    slip = SlipValue("forgot-k-and-v", KV_BYTES / 2, "Only K or only V.")
    problem = numeric(tolerance=Tolerance(ToleranceKind.ABSOLUTE, 10), slips=(slip,))
    assert grade(problem, "409 KiB").diagnosis == "forgot-k-and-v"
    assert grade(problem, "380 KiB").diagnosis is None


def test_a_slip_is_never_accepted() -> None:
    slip = SlipValue("forgot-k-and-v", KV_BYTES / 2, "Only K or only V.")
    verdict = grade(numeric(slips=(slip,)), "400 KiB")
    assert verdict.status is VerdictStatus.INCORRECT
    assert verdict.score == 0


def test_a_far_wrong_answer_has_no_diagnosis() -> None:
    assert grade(numeric(), "123 KiB").diagnosis is None


# --- check_numeric -------------------------------------------------------------------------------


def test_check_numeric_correct_and_incorrect() -> None:
    expected = 26e9 / 1.555e12
    assert (
        check_numeric("16.7 ms", expected=expected, unit="ms", rel_tol=0.02).status is VerdictStatus.CORRECT
    )
    wrong = check_numeric("16.7 s", expected=expected, unit="ms", rel_tol=0.02)
    assert wrong.status is VerdictStatus.INCORRECT
    assert wrong.diagnosis == "prefix-1000-high"
    assert wrong.derivation == ()


def test_check_numeric_unparsable_names_what_to_type() -> None:
    verdict = check_numeric("fast", expected=1.5e12, unit="TB/s", rel_tol=0.05)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "`2 TB/s`" in verdict.message


def test_percent_for_a_pure_number() -> None:
    assert check_numeric("50%", expected=0.5, unit="", rel_tol=0.01).status is VerdictStatus.CORRECT


# --- choice --------------------------------------------------------------------------------------


@pytest.mark.parametrize("response", ["1", " 1 ", "bandwidth-bound", "  Bandwidth-Bound "])
def test_choice_correct_by_index_or_text(response: str) -> None:
    verdict = grade(CHOICE, response)
    assert verdict.status is VerdictStatus.CORRECT
    assert verdict.score == 1
    assert CHOICES[1].explanation in verdict.message


def test_choice_incorrect_explains_both_options() -> None:
    verdict = grade(CHOICE, "0")
    assert verdict.status is VerdictStatus.INCORRECT
    assert CHOICES[0].explanation in verdict.message
    assert CHOICES[1].explanation in verdict.message
    assert verdict.value is None


@pytest.mark.parametrize("response", ["", "3", "-1", "b", "1.0", "²", "9" * 40])
def test_choice_unparsable(response: str) -> None:
    verdict = grade(CHOICE, response)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "0 to 2" in verdict.message


# --- recall --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "status", "score"),
    [
        ("again", VerdictStatus.INCORRECT, 0.0),
        ("hard", VerdictStatus.CORRECT, 0.5),
        ("good", VerdictStatus.CORRECT, 1.0),
        ("easy", VerdictStatus.CORRECT, 1.0),
        (" Good ", VerdictStatus.CORRECT, 1.0),
        ("1", VerdictStatus.INCORRECT, 0.0),
        ("4", VerdictStatus.CORRECT, 1.0),
    ],
)
def test_recall_self_rating(response: str, status: VerdictStatus, score: float) -> None:
    verdict = grade(RECALL, response)
    assert (verdict.status, verdict.score) == (status, score)
    for point in RECALL.key_points:
        assert point in verdict.message


def test_recall_scores_cover_the_four_ratings() -> None:
    assert list(RECALL_SCORES) == ["again", "hard", "good", "easy"]


@pytest.mark.parametrize("response", ["", "great", "5", "0"])
def test_recall_unparsable(response: str) -> None:
    verdict = grade(RECALL, response)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "`again`, `hard`, `good` or `easy`" in verdict.message


# --- robustness and the stored form --------------------------------------------------------------


def test_verdict_to_dict_is_json() -> None:
    verdict = grade(numeric(), "1600 KiB")
    stored = json.loads(json.dumps(verdict.to_dict()))
    assert stored["status"] == "incorrect"
    assert stored["diagnosis"] == "factor-2-high"
    assert stored["accepted_range"] == [776, 824]
    assert Step.from_dict(stored["derivation"][0]) == STEPS[0]


@pytest.mark.parametrize(
    "problem",
    [numeric(unit="parsec"), numeric(answer=float("nan")), Problem("x", "kv-cache", Kind.NUMERIC, "?", 1)],
    ids=["bad-unit", "nan-answer", "no-answer"],
)
def test_a_broken_problem_is_unparsable_not_a_crash(
    problem: Problem, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="grader"):
        verdict = grade(problem, "800")
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert verdict.message


def test_the_last_line_of_defence_logs(caplog: pytest.LogCaptureFixture) -> None:
    broken = Problem("x", "kv-cache", Kind.NUMERIC, "?", 1, answer=1.0, tolerance=None)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="grader"):
        verdict = grade(broken, "1")
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "went wrong" in verdict.message
    assert any(r.name == "grader" for r in caplog.records)


def test_non_string_response_is_unparsable() -> None:
    assert grade(numeric(), None).status is VerdictStatus.UNPARSABLE  # type: ignore[arg-type]


def test_verdict_is_frozen() -> None:
    verdict = Verdict(VerdictStatus.CORRECT)
    with pytest.raises(AttributeError):
        verdict.score = 2  # type: ignore[misc]


def test_a_five_digit_exact_answer_is_also_said_with_a_larger_prefix() -> None:
    from grader.grading import exact_text

    assert exact_text(33_640, 33.64e9, "MB") == "33,640 MB (33.64 GB)"
    assert exact_text(20_480, 20_480 * 2**20, "MiB") == "20,480 MiB (20 GiB)"
    assert exact_text(7_088, 7.088e9, "MB") == "7,088 MB"  # four digits read fine
    assert exact_text(65_880, 65_880, "tokens") == "65,880 tokens"  # a count has no larger unit


def test_an_exact_answer_past_any_larger_prefix_is_shown_in_the_questions_unit_only() -> None:
    # A size per token has no prefix ladder, and a figure near float's limit overflows another unit:
    # the answer is still graded, its exact figure in the question's unit (found by the fuzz tests).
    verdict = check_numeric("54,660 bytes", expected=1.7976931348623157e308, unit="B/token", rel_tol=0.05)
    assert verdict.status is VerdictStatus.INCORRECT, verdict.message
    assert "B/token** (accepted" in verdict.message


def test_working_that_ends_in_its_figure_is_quoted_once() -> None:
    problem = generate(load_bank().get("decode-13b-a100"), 0)
    message = grade(problem, "26 GB / 1.555 TB/s ≈ 16.7 ms").message
    assert "`26 GB / 1.555 TB/s ≈ 16.7 ms`" in message and "= 16.7 ms" not in message
    # Working whose figure is not written out is still followed by the figure it was read as.
    assert "` = 17.33 ms" in grade(problem, "2*13e9 B / 1.5e12 B/s").message
