"""grader.parsing: every answer syntax people type, and every refusal with what to type instead."""

from __future__ import annotations

import pytest

from grader.errors import (
    AmbiguousUnitError,
    GradingError,
    NumberRangeError,
    ParseError,
    UnknownUnitError,
    WrongDimensionError,
)
from grader.parsing import answer_hint, parse_quantity

KIB = 1024
GIB = 2**30


def value(text: str, unit: str) -> float:
    return parse_quantity(text, unit=unit).value_si


@pytest.mark.parametrize(
    ("text", "unit", "expected_si"),
    [
        # bytes and bits, SI and IEC prefixes
        ("800 KiB", "KiB", 800 * KIB),
        ("800KiB", "KiB", 800 * KIB),
        ("800 KB", "KiB", 800e3),
        ("800 kB", "KiB", 800e3),
        ("26 GB", "GB", 26e9),
        ("24.2 GiB", "GB", 24.2 * GIB),
        ("3 MB", "B", 3e6),
        ("3 MiB", "B", 3 * 2**20),
        ("2 TB", "GB", 2e12),
        ("2 TiB", "GB", 2 * 2**40),
        ("512 B", "KiB", 512),
        ("512 byte", "KiB", 512),
        ("512 bytes", "KiB", 512),
        ("512 Bytes", "KiB", 512),
        ("5 GBytes", "GB", 5e9),
        ("5 gigabytes", "GB", 5e9),
        ("8 b", "B", 1),
        ("8 bit", "B", 1),
        ("16 bits", "B", 2),
        ("8 Gbit", "GB", 1e9),
        ("8 Gb", "GB", 1e9),
        ("8 kb", "B", 1e3),
        ("5 gB", "GB", 5e9),
        ("5 KIB", "KiB", 5 * KIB),
        # times
        ("2 s", "ms", 2),
        ("2 sec", "ms", 2),
        ("2 seconds", "ms", 2),
        ("16.7 ms", "ms", 16.7e-3),
        ("3 msec", "ms", 3e-3),
        ("5 us", "us", 5e-6),
        ("5 µs", "us", 5e-6),  # micro sign U+00B5
        ("5 μs", "us", 5e-6),  # Greek mu U+03BC
        ("40 ns", "us", 40e-9),
        ("2 min", "s", 120),
        # compute, rates, bandwidth
        ("26 GFLOP", "GFLOP", 26e9),
        ("26 GFLOPs", "GFLOP", 26e9),
        ("26e9 FLOP", "GFLOP", 26e9),
        ("26e9 flop", "GFLOP", 26e9),
        ("26 gflops", "GFLOP", 26e9),
        ("13e9 MAC", "GFLOP", 26e9),
        ("312 TFLOP/s", "TFLOP/s", 312e12),
        ("312 TFLOPS", "TFLOP/s", 312e12),
        ("312 tflops", "TFLOP/s", 312e12),
        ("3.12e14 FLOP/s", "TFLOP/s", 312e12),
        ("624 TOPS", "TFLOP/s", 624e12),
        ("1.555 TB/s", "TB/s", 1.555e12),
        ("1555 GB/s", "TB/s", 1.555e12),
        ("2e12 B/s", "TB/s", 2e12),
        ("2 GiB/s", "GB/s", 2 * GIB),
        ("150 FLOP/B", "FLOP/B", 150),
        ("150 flops/byte", "FLOP/B", 150),
        ("150 FLOP per byte", "FLOP/B", 150),
        # tokens and counts
        ("4096 tokens", "tokens", 4096),
        ("4096", "tokens", 4096),
        ("40 tokens/s", "tokens/s", 40),
        ("40 tokens per second", "tokens/s", 40),
        ("40 tok/s", "tokens/s", 40),
        ("800 KiB per token", "KiB", 800 * KIB),
        ("800 KiB/token", "KiB", 800 * KIB),
        ("800 KiB", "KiB/token", 800 * KIB),
        # pure numbers
        ("50%", "", 0.5),
        ("50 %", "", 0.5),
        ("13 billion", "", 13e9),
        ("13B", "", 13e9),
        ("13B params", "", 13e9),
        ("7 M", "", 7e6),
        ("150x", "", 150),
        ("150×", "", 150),
        # scientific notation
        ("1.6e-2", "s", 1.6e-2),
        ("1.6E-2", "s", 1.6e-2),
        ("1.6e-2 s", "ms", 1.6e-2),
        ("1.6×10^-2 s", "ms", 1.6e-2),
        ("1.6x10^-2 s", "ms", 1.6e-2),
        ("1.6 X 10^-2 s", "ms", 1.6e-2),
        ("1.6*10**-2 s", "ms", 1.6e-2),
        ("1.6·10^-2 s", "ms", 1.6e-2),
        ("1.6×10⁻² s", "ms", 1.6e-2),
        ("1.6 × 10^−2 s", "ms", 1.6e-2),  # Unicode minus
        ("10^12 FLOP/s", "TFLOP/s", 1e12),
        ("10^12", "FLOP/s", 1e12),
        (".5 GB", "GB", 0.5e9),
        ("5. GB", "GB", 5e9),
        # thousands separators
        ("819,200 B", "KiB", 819_200),
        ("1,555,000,000,000 B/s", "TB/s", 1.555e12),
        ("819,200.5 B", "B", 819_200.5),
        ("819 200 B", "KiB", 819_200),
        ("819\u202f200 B", "KiB", 819_200),  # narrow no-break space
        ("1_000_000 B", "B", 1e6),
        # approximately
        ("~800 KiB", "KiB", 800 * KIB),
        ("~ 800 KiB", "KiB", 800 * KIB),
        ("≈800 KiB", "KiB", 800 * KIB),
        ("about 800 KiB", "KiB", 800 * KIB),
        ("About 800 KiB", "KiB", 800 * KIB),
        ("approx. 800 KiB", "KiB", 800 * KIB),
        ("roughly 800", "KiB", 800 * KIB),
        ("= 800 KiB", "KiB", 800 * KIB),
        ("800 KiB.", "KiB", 800 * KIB),
        # light arithmetic
        ("2*13e9 B", "GB", 26e9),
        ("2 * 13e9 B", "GB", 26e9),
        ("(2*13e9) B", "GB", 26e9),
        ("26e9/1.555e12 s", "ms", 26e9 / 1.555e12),
        ("26e9 B / 1.555e12 B/s", "ms", 26e9 / 1.555e12),
        ("26 GB / 1.555 TB/s", "ms", 26e9 / 1.555e12),
        ("2^10 B", "KiB", 1024),
        ("2**10 B", "KiB", 1024),
        ("1 GB + 500 MB", "GB", 1.5e9),
        ("2 * (3 + 4)", "", 14),
        ("2 ^ 3 ^ 2", "", 2**9),
        ("-2^2", "", -4),
        ("-5 ms", "ms", -5e-3),
        ("1/2 s", "ms", 0.5),
        # a bare number is read in the display unit
        ("800", "KiB", 800 * KIB),
        ("16.7", "ms", 16.7e-3),
        ("312", "TFLOP/s", 312e12),
        ("0.5", "%", 0.005),
    ],
)
def test_accepted_syntax(text: str, unit: str, expected_si: float) -> None:
    assert value(text, unit) == pytest.approx(expected_si, rel=1e-12)


def test_a_bare_number_is_flagged_as_unitless() -> None:
    assert parse_quantity("800", unit="KiB").has_unit is False
    assert parse_quantity("800 KiB", unit="KiB").has_unit is True


@pytest.mark.parametrize(
    ("text", "unit", "error", "says"),
    [
        ("", "GB", ParseError, "empty"),
        ("   ", "GB", ParseError, "empty"),
        ("GB", "GB", ParseError, "no number"),
        ("KiB/s", "GB/s", ParseError, "no number"),
        ("1,5", "GB", ParseError, "point for decimals"),
        ("1,50 GB", "GB", ParseError, "point for decimals"),
        ("2 3", "GB", ParseError, "side by side"),
        ("2 (3)", "", ParseError, "side by side"),
        ("(2 + 3", "", ParseError, "not closed"),
        ("2 +", "", ParseError, "middle of a calculation"),
        ("2 $", "", ParseError, "`$` cannot be read"),
        ("5 `rm`", "", ParseError, "backtick"),
        ("1 GB + 5 ms", "GB", ParseError, "do not mix"),
        ("5 xyz", "GB", UnknownUnitError, "`xyz` is not a unit"),
        ("5 parsec", "GB", UnknownUnitError, "Units it reads"),
        ("inf", "GB", ParseError, "no number"),
        ("5 inf", "GB", NumberRangeError, "finite"),
        ("1e999", "GB", NumberRangeError, "too large"),
        ("1e308 * 1e308", "", NumberRangeError, "too large"),
        ("10^99999", "GB", NumberRangeError, "too large"),
        ("(-8)^(1/3)", "", NumberRangeError, "no real value"),
        ("1/0", "GB", NumberRangeError, "divides by zero"),
        ("5 s^9", "s", ParseError, "small whole power"),
        ("2^(3 GB)", "", ParseError, "plain number"),
        ("(" * 60 + "1" + ")" * 60, "", ParseError, "nested too deeply"),
        ("-" * 60 + "1", "", ParseError, "nested too deeply"),
        ("1" * 201, "", ParseError, "over 200 characters"),
        ("26 gb", "GB", AmbiguousUnitError, "`GB` for bytes or `Gb` for bits"),
        ("26 tb", "TB", AmbiguousUnitError, "`TB` for bytes or `Tb` for bits"),
        ("26 mB", "GB", AmbiguousUnitError, "`MB` for bytes or `Mb` for bits"),
        ("26 mb", "GB", AmbiguousUnitError, "`MB` for bytes"),
        ("26 kib", "KiB", AmbiguousUnitError, "`KiB` for bytes or `Kib` for bits"),
        ("26 mflops", "GFLOP", AmbiguousUnitError, "MFLOP"),
    ],
)
def test_refused_with_what_to_type(text: str, unit: str, error: type[GradingError], says: str) -> None:
    with pytest.raises(error) as caught:
        parse_quantity(text, unit=unit)
    assert says in str(caught.value)


@pytest.mark.parametrize(
    ("text", "unit", "found", "expected"),
    [
        ("5 ms", "KiB", "a time", "a size in bytes"),
        ("800 KiB", "ms", "a size in bytes", "a time"),
        ("2 TB/s", "TFLOP/s", "a bandwidth (bytes/s)", "a FLOP rate (FLOP/s)"),
        ("312 TFLOPs", "TFLOP/s", "a FLOP count", "a FLOP rate (FLOP/s)"),
        ("40 tokens/s", "tokens", "a token rate (tokens/s)", "a number of tokens"),
        ("50%", "GB", "a pure number", "a size in bytes"),
        ("150 FLOP/B", "", "an arithmetic intensity (FLOP/B)", "a pure number"),
        ("5 s^2", "s", "a quantity in s²", "a time"),
    ],
)
def test_wrong_dimension_names_both(text: str, unit: str, found: str, expected: str) -> None:
    with pytest.raises(WrongDimensionError) as caught:
        parse_quantity(text, unit=unit)
    assert (caught.value.found, caught.value.expected) == (found, expected)
    assert found in str(caught.value)
    assert expected in str(caught.value)


def test_small_s_flops_for_a_rate_says_how_to_write_one() -> None:
    with pytest.raises(WrongDimensionError, match="TFLOPS"):
        parse_quantity("312 TFLOPs", unit="TFLOP/s")


def test_suffix_multipliers_only_for_pure_numbers() -> None:
    # "13B" is 13 bytes where bytes are asked, 13 billion where a pure number is.
    assert value("13B", "GB") == 13
    assert value("13B", "") == 13e9


@pytest.mark.parametrize(
    ("unit", "example"),
    [
        ("KiB", "`800 KiB`"),
        ("ms", "`12.5 ms`"),
        ("TFLOP/s", "TFLOPS"),
        ("", "`64`"),
        ("B/token", "`800 KiB`"),
    ],
)
def test_answer_hint_shows_an_example_of_the_right_kind(unit: str, example: str) -> None:
    hint = answer_hint(unit)
    assert example in hint
    assert hint.startswith("Type a number")
