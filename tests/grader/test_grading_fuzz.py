"""Hypothesis fuzzing of grade and check_numeric: they never raise, never fall back on their safety net,
always say what to type when they cannot read an answer, and grade a formatted exact answer correct."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import example, given, settings
from hypothesis import strategies as st

from grader import (
    Choice,
    Kind,
    Problem,
    Tolerance,
    ToleranceKind,
    Verdict,
    VerdictStatus,
    check_numeric,
    grade,
)
from grader.diagnosis import DECIMAL_SLIPS
from grader.units import format_quantity, to_display

DISPLAY_UNITS = [
    "B",
    "KB",
    "KiB",
    "MB",
    "MiB",
    "GB",
    "GiB",
    "TB",
    "TiB",
    "Gb",
    "s",
    "ms",
    "us",
    "µs",
    "ns",
    "min",
    "FLOP",
    "GFLOP",
    "TFLOP",
    "FLOP/s",
    "TFLOP/s",
    "B/s",
    "GB/s",
    "TB/s",
    "GiB/s",
    "FLOP/B",
    "tokens",
    "tokens/s",
    "B/token",
    "KiB/token",
    "%",
    "",
]
TYPED_UNITS = [
    *DISPLAY_UNITS,
    "bytes",
    "Bytes",
    "bit",
    "Gbit",
    "kb",
    "gb",
    "mB",
    "sec",
    "μs",
    "FLOPs",
    "flops",
    "TFLOPS",
    "TOPS",
    "MAC",
    "tok/s",
    "billion",
    "xyz",
    "/s",
    "^2",
    "per token",
]

NUMERIC = Problem("kv", "kv-cache", Kind.NUMERIC, "?", 1, answer=819_200.0, unit="KiB")
CHOICE = Problem(
    "regime",
    "three-regimes",
    Kind.CHOICE,
    "?",
    1,
    choices=(Choice("compute", False, "no"), Choice("bandwidth", True, "yes")),
)
RECALL = Problem("why", "two-p-flops", Kind.RECALL, "?", 1, key_points=("2 FLOPs per weight",))


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def no_grader_errors() -> Iterator[None]:
    """Fail when the grader's last line of defence caught an exception: that would be a bug."""
    handler = _Collect()
    logger = logging.getLogger("grader")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    assert not handler.records, handler.records[0].getMessage()


def assert_well_formed(verdict: Verdict) -> None:
    assert isinstance(verdict.status, VerdictStatus)
    assert 0.0 <= verdict.score <= 1.0
    assert verdict.message.strip()
    if verdict.status is VerdictStatus.UNPARSABLE:
        assert verdict.value is None
        assert verdict.score == 0


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.integers(min_value=0, max_value=10**12).map(lambda n: f"{n:,}"),
    st.sampled_from(["1,5", "1e999", "1e-999", "10^99999", "2**-1074", "0", "-0", ".5", "5.", "1.6×10⁻²"]),
)
structured = st.builds(
    lambda prefix, number, gap, unit, suffix: f"{prefix}{number}{gap}{unit}{suffix}",
    st.sampled_from(["", "~", "≈ ", "about ", "(", "-", "2*"]),
    numbers,
    st.sampled_from(["", " ", "\u202f", "\t"]),
    st.sampled_from(TYPED_UNITS),
    st.sampled_from(["", ")", ".", " ", "^2", "/s", " + 1 MB", "/0"]),
)


@settings(max_examples=300)
@given(st.text(max_size=300))
@example("")
@example("\x00\x1b[2J")
@example("GB")
@example("nan")
@example("(" * 500)
@example("9" * 10_000)
def test_grade_never_raises_on_any_text(response: str) -> None:
    with no_grader_errors():
        for problem in (NUMERIC, CHOICE, RECALL):
            assert_well_formed(grade(problem, response))


@settings(max_examples=300)
@given(structured)
def test_grade_never_raises_on_number_and_unit_text(response: str) -> None:
    with no_grader_errors():
        assert_well_formed(grade(NUMERIC, response))


@settings(max_examples=200)
@given(
    st.one_of(st.text(max_size=100), structured),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(DISPLAY_UNITS),
    st.floats(min_value=0, max_value=10),
)
def test_check_numeric_never_raises(response: str, expected: float, unit: str, rel_tol: float) -> None:
    with no_grader_errors():
        assert_well_formed(check_numeric(response, expected=expected, unit=unit, rel_tol=rel_tol))


@settings(max_examples=300)
@given(st.floats(min_value=1e-12, max_value=1e24), st.sampled_from(DISPLAY_UNITS))
def test_a_formatted_exact_answer_grades_correct(value: float, unit: str) -> None:
    verdict = check_numeric(format_quantity(value, unit), expected=value, unit=unit, rel_tol=0.01)
    assert verdict.status is VerdictStatus.CORRECT, verdict.message


@settings(max_examples=100)
@given(
    st.floats(min_value=1e-9, max_value=1e15),
    st.sampled_from(DISPLAY_UNITS),
    st.sampled_from(list(ToleranceKind)),
)
def test_a_formatted_exact_answer_grades_correct_under_every_tolerance_kind(
    value: float, unit: str, kind: ToleranceKind
) -> None:
    # Absolute tolerances are in the display unit: give one that is 1 % of the shown figure.
    shown = to_display(value, unit)
    width = {
        ToleranceKind.RELATIVE: 0.01,
        ToleranceKind.ABSOLUTE: abs(shown) * 0.01,
        ToleranceKind.GEOMETRIC: 1.01,
    }
    problem = Problem(
        "p", "kv-cache", Kind.NUMERIC, "?", 1, answer=value, unit=unit, tolerance=Tolerance(kind, width[kind])
    )
    assert grade(problem, format_quantity(value, unit)).status is VerdictStatus.CORRECT


@settings(max_examples=200)
@given(
    st.floats(min_value=1e-9, max_value=1e15),
    st.sampled_from([u for u in DISPLAY_UNITS if u]),
    st.sampled_from(DECIMAL_SLIPS),
    st.sampled_from(["", "~", "≈ ", "about ", "n = ", "Answer: ", "at least "]),
    st.sampled_from(["", ".", " approx", " (approx.)", "-ish", " total"]),
)
def test_a_slip_in_any_wording_is_never_correct_and_is_named(
    value: float, unit: str, slip, before: str, after: str
) -> None:
    response = f"{before}{format_quantity(value * slip.factor, unit)}{after}"
    verdict = check_numeric(response, expected=value, unit=unit, rel_tol=0.03)
    assert verdict.status is VerdictStatus.INCORRECT, verdict.message
    assert verdict.diagnosis == slip.name
