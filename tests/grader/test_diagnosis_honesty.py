"""Diagnoses name only slips that could have been made, with the user's own figures."""

from __future__ import annotations

import re

import pytest

from grader import Kind, Problem, Step, Tolerance, ToleranceKind, check_numeric, grade
from grader.diagnosis import CLOSE
from grader.factor_causes import (
    BYTES_PER_16_BIT,
    FLOPS_PER_MULTIPLY_ADD,
    KEYS_AND_VALUES,
    READ_AND_WRITE,
    factor_two_causes,
)

FIVE_PERCENT = Tolerance(ToleranceKind.RELATIVE, 0.05)
KV_STEP = Step(
    "KV-cache bytes per token",
    "2 (K and V) · layers · KV heads · head dim · bytes per element",
    "2 · 40 · 40 · 128 · 2 B",
    819_200,
    "B",
)
INTENSITY_STEP = Step(
    "Arithmetic intensity",
    "FLOPs per element / (bytes · (inputs + outputs))",
    "1 / (4 · (2 + 1))",
    1 / 12,
    "FLOP/B",
)
DECODE_STEPS = (
    Step("Weight bytes", "parameters · bytes per parameter", "13,015,864,320 · 2 B", 26.03e9, "B"),
    Step("FLOPs per token", "2 · P", "2 · 13,015,864,320", 26.03e9, "FLOP"),
)


def numeric(answer: float, unit: str, derivation: tuple[Step, ...] = ()) -> Problem:
    return Problem(
        template_id="t",
        checklist_item="kv-cache",
        kind=Kind.NUMERIC,
        prompt="?",
        seed=1,
        answer=answer,
        unit=unit,
        tolerance=FIVE_PERCENT,
        derivation=derivation,
    )


@pytest.mark.parametrize(
    ("response", "answer", "unit"),
    [
        ("about 0.2 ms", 0.185e-3, "ms"),  # a time: no binary prefix in it
        ("200", 214, ""),  # a batch size
        ("200 TFLOP", 214e12, "TFLOP"),  # a FLOP count
        ("200 TFLOP/s", 214e12, "TFLOP/s"),
    ],
)
def test_a_rounded_answer_just_outside_the_band_is_close_not_a_prefix_slip(
    response: str, answer: float, unit: str
) -> None:
    verdict = grade(numeric(answer, unit), response)
    assert verdict.diagnosis == CLOSE
    assert "check your rounding" in verdict.diagnosis_text.lower()


def test_a_binary_prefix_slip_is_named_where_data_is_counted() -> None:
    assert grade(numeric(26e9, "GB"), "24.2 GB").diagnosis == "gib-for-gb"
    assert grade(numeric(1.555e12, "TB/s"), "1.414 TB/s").diagnosis == "tib-for-tb"


@pytest.mark.parametrize(("response", "own"), [("28.37 GB", "9.1% above"), ("24.2 GB", "6.9% below")])
def test_every_percentage_in_a_diagnosis_is_the_users_own(response: str, own: str) -> None:
    text = grade(numeric(26e9, "GB"), response).diagnosis_text
    assert own in text
    assert re.findall(r"\d+(?:\.\d+)?%", text) == [own.split()[0]]


def test_a_close_answer_says_its_own_offset() -> None:
    text = grade(numeric(214, ""), "230").diagnosis_text
    assert re.findall(r"\d+(?:\.\d+)?%", text) == ["7.5%"]


def test_far_answers_are_not_called_close() -> None:
    assert grade(numeric(214, ""), "260").diagnosis is None


def test_the_causes_of_a_factor_of_two_come_from_the_derivation() -> None:
    assert factor_two_causes((KV_STEP,)) == (KEYS_AND_VALUES, BYTES_PER_16_BIT)
    assert factor_two_causes(DECODE_STEPS) == (BYTES_PER_16_BIT, FLOPS_PER_MULTIPLY_ADD)
    assert factor_two_causes((INTENSITY_STEP,)) == ()
    fusion = Step("Bytes", "2 (read + write) · passes · elements · bytes", "2 · 3 · 1,000 · 4 B", 24e3, "B")
    assert factor_two_causes((fusion,)) == (READ_AND_WRITE,)


def test_a_factor_two_hint_on_an_element_wise_intensity_names_no_k_and_v() -> None:
    verdict = grade(numeric(1 / 12, "FLOP/B", (INTENSITY_STEP,)), f"{2 / 12!r}")
    assert verdict.diagnosis == "factor-2-high"
    assert "K and V" not in verdict.diagnosis_text
    assert "multiply-add" not in verdict.diagnosis_text


def test_a_factor_two_hint_on_the_kv_cache_names_k_and_v() -> None:
    verdict = grade(numeric(819_200, "KiB", (KV_STEP,)), "400 KiB")
    assert verdict.diagnosis == "factor-2-low"
    assert "K and V" in verdict.diagnosis_text
    assert "multiply-add" not in verdict.diagnosis_text


def test_check_numeric_has_no_derivation_so_names_no_cause() -> None:
    verdict = check_numeric("33.4 ms", expected=16.7e-3, unit="ms", rel_tol=0.02)
    assert verdict.diagnosis == "factor-2-high"
    assert "here:" not in verdict.diagnosis_text


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("forgot-k-and-v", "forgot K and V"),
        ("counted-it-fused", "counted it fused"),
        ("p-not-2p", "P not 2P"),
        ("heads-not-kv-heads", "heads not KV heads"),
        ("memory-read-as-gib", "memory read as GiB"),
    ],
)
def test_a_slip_is_shown_in_words_not_as_its_id(name: str, label: str) -> None:
    from grader.diagnosis import slip_label

    assert slip_label(name) == label
