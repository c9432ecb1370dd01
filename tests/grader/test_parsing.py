"""grader.parsing: every answer syntax people type, and every refusal with what to type instead."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.errors import (
    AmbiguousUnitError,
    GradingError,
    NumberRangeError,
    ParseError,
    UnknownUnitError,
    WrongDimensionError,
)
from grader.hints import answer_hint
from grader.parsing import parse_quantity
from grader.units import dimensionality, format_quantity

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
        ("8 Kb", "B", 1e3),
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
        # counts: sequences, requests, users are dimensionless like tokens
        ("~240 sequences", "", 240),
        ("240 seqs", "", 240),
        ("32 requests", "", 32),
        ("32 reqs", "", 32),
        ("393 users", "", 393),
        ("393 requests per GPU", "", 393),
        ("1.3e10 parameters", "", 1.3e10),
        # a label or working before the figure, a qualifier after it
        ("batch size 295", "", 295),
        ("batch size: 295", "", 295),
        ("a batch of 295", "", 295),
        ("B=295", "", 295),
        ("n = 740", "", 740),
        ("n ≥ 740", "", 740),
        (">= 740", "", 740),
        ("740+", "", 740),
        ("at least 740", "", 740),
        ("up to 393", "", 393),
        ("393 max", "", 393),
        ("Answer: 16.7 ms", "ms", 16.7e-3),
        ("26 GB / 1.555 TB/s ≈ 16.7 ms", "ms", 16.7e-3),
        ("2 * 13 GB = 26 GB", "GB", 26e9),
        ("26e9 B -> 26 GB", "GB", 26e9),
        ("17 ms (approx)", "ms", 17e-3),
        ("17 ms approx.", "ms", 17e-3),
        ("17ms-ish", "ms", 17e-3),
        ("17 ms or so", "ms", 17e-3),
        ("4.2 GB total", "GB", 4.2e9),
        ("4.2 GB each", "GB", 4.2e9),
        ("4.2 GB of KV cache", "GB", 4.2e9),
        ("98k tokens of context", "tokens", 98e3),
        ("`16.7 ms`", "ms", 16.7e-3),
        ('"16.7 ms"', "ms", 16.7e-3),
        ("x2", "", 2),
        ("×2", "", 2),
        ("½", "", 0.5),
        ("1⁄2", "", 0.5),
        # what an answer is given per
        ("4.2 GB per GPU", "GB", 4.2e9),
        ("17ms/step", "ms", 17e-3),
        ("8.8 ms per step", "ms", 8.8e-3),
        ("4 KiB per layer", "KiB", 4 * KIB),
        # magnitude letters: a multiplier before a unit word, or alone where no unit could be meant
        ("26B FLOPs", "GFLOP", 26e9),
        ("13.5 G FLOPs", "GFLOP", 13.5e9),
        ("26B", "GFLOP", 26e9),
        ("26 b", "GFLOP", 26e9),
        ("2 * 6.74B", "GFLOP", 13.48e9),
        ("168B FLOP/s", "GFLOP/s", 168e9),
        ("989T", "TFLOP/s", 989e12),
        ("4.2G", "GB", 4.2e9),
        ("4.2 G", "GB", 4.2e9),
        ("4.2B bytes", "GB", 4.2e9),
        ("800K", "KiB", 800e3),
        ("128K", "tokens", 128e3),
        ("16k tokens", "tokens", 16e3),
        ("1 G", "", 1e9),
        # a magnitude word with no unit is read in the display unit's base unit
        ("26 billion", "GFLOP", 26e9),
        ("2*6.74 billion", "GFLOP", 13.48e9),
        ("168 billion", "GFLOP/s", 168e9),
        ("1.5 trillion", "TB/s", 1.5e12),
        ("5.24 billion", "MB", 5.24e9),
        ("140 thousand", "tokens", 140e3),
        # spellings of seconds and rates
        ("16.7 mS", "ms", 16.7e-3),
        ("3.35 TB/S", "TB/s", 3.35e12),
        ("3.35 TBps", "TB/s", 3.35e12),
        ("25 GBps", "GB/s", 25e9),
        ("200 Gbps", "GB/s", 25e9),
        ("108 tps", "tokens/s", 108),
        ("108 TPS", "tokens/s", 108),
        ("60per second", "tokens/s", 60),
        ("1/9.24 ms", "tokens/s", 1 / 9.24e-3),
        ("1 / 9.24e-3 s", "tokens/s", 1 / 9.24e-3),
        ("1 token / 9.24 ms", "tokens/s", 1 / 9.24e-3),
    ],
)
def test_accepted_syntax(text: str, unit: str, expected_si: float) -> None:
    assert value(text, unit) == pytest.approx(expected_si, rel=1e-12)


def test_a_magnitude_word_reads_a_bare_number_in_the_base_unit() -> None:
    # Nobody says "26 billion GFLOP": with no unit, "billion" means FLOP, and it is marked as scaled.
    parsed = parse_quantity("26 billion", unit="GFLOP")
    assert (parsed.value_si, parsed.has_unit, parsed.scaled) == (26e9, False, True)
    assert parse_quantity("26", unit="GFLOP").scaled is False


def test_an_exclamation_after_a_unit_is_dropped() -> None:
    assert value("16.7 ms!", "ms") == pytest.approx(0.0167)


def test_the_last_stated_figure_is_graded_not_the_working() -> None:
    assert value("2 * 13 GB = 27 GB", "GB") == 27e9


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
        ("5 parsec", "GB", UnknownUnitError, "For a size in bytes, put B, KB, KiB"),
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
        ("1" * 100 + "e\u0301" * 101, "", ParseError, "over 200 characters"),
        ("5!", "GB", ParseError, "factorial"),
        ("(2+3) !", "GB", ParseError, "factorial"),
        ("100!", "", ParseError, "Type the number itself"),
        ("0x10 B", "B", ParseError, "Type it in decimal: `16`"),
        ("0XfF", "", ParseError, "hexadecimal"),
        ("60 kb", "KB", AmbiguousUnitError, "`KB` for bytes or `Kb` for bits"),
        ("26 gb", "GB", AmbiguousUnitError, "`GB` for bytes or `Gb` for bits"),
        ("26 tb", "TB", AmbiguousUnitError, "`TB` for bytes or `Tb` for bits"),
        ("26 mB", "GB", AmbiguousUnitError, "`MB` for bytes or `Mb` for bits"),
        ("26 mb", "GB", AmbiguousUnitError, "`MB` for bytes"),
        ("26 kib", "KiB", AmbiguousUnitError, "`KiB` for bytes or `Kib` for bits"),
        ("26 mflops", "GFLOP", AmbiguousUnitError, "MFLOP"),
        ("26 gbps", "GB/s", AmbiguousUnitError, "`GB` for bytes or `Gb` for bits"),
        ("16.7 MS", "ms", AmbiguousUnitError, "Write `ms` for milliseconds"),
        ("16.7 Ms", "ms", AmbiguousUnitError, "`Ms` reads as megaseconds"),
        ("16.7 MSEC", "ms", AmbiguousUnitError, "Write `ms`"),
        ("16-17 ms", "ms", ParseError, "`16-17` reads as a range"),
        ("16 to 17 ms", "ms", ParseError, "Give one number"),
        ("16~17 ms", "ms", ParseError, "`~` cannot be read"),
        ("17 M", "ms", UnknownUnitError, "For a time, put s, ms, µs"),
        ("140k widgets", "tokens", UnknownUnitError, "`widgets` is not a unit"),
        ("393 widgets", "", UnknownUnitError, "type just the number"),
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
        ("40 tokens/s", "tokens", "a token rate (tokens/s)", "a number of tokens"),
        ("50%", "GB", "a pure number", "a size in bytes"),
        ("150 FLOP/B", "", "an arithmetic intensity (FLOP/B)", "a pure number"),
        ("5 s^2", "s", "a quantity in s²", "a time"),
        # a reading that would fit is never forced on a unit typed for another kind
        ("26 B", "ms", "a size in bytes", "a time"),
        ("13B", "FLOP/B", "a size in bytes", "an arithmetic intensity (FLOP/B)"),
        ("2 B/s", "tokens/s", "a bandwidth (bytes/s)", "a token rate (tokens/s)"),
        ("26e9/1.555e12 s", "tokens/s", "a time", "a token rate (tokens/s)"),
        ("26.8 Gbps", "GB", "a bandwidth (bytes/s)", "a size in bytes"),
        ("13.5 GFLOPS", "GFLOP", "a FLOP rate (FLOP/s)", "a FLOP count"),
        ("214 FLOPS/B", "FLOP/B", "a quantity in FLOP/B/s", "an arithmetic intensity (FLOP/B)"),
        ("2 x 6.74B params", "GFLOP", "a parameter count", "a FLOP count"),
        ("5 GPUs", "GB", "a count", "a size in bytes"),
        ("60 tok/s", "ms", "a token rate (tokens/s)", "a time"),
    ],
)
def test_wrong_dimension_names_both(text: str, unit: str, found: str, expected: str) -> None:
    with pytest.raises(WrongDimensionError) as caught:
        parse_quantity(text, unit=unit)
    assert (caught.value.found, caught.value.expected) == (found, expected)
    assert found in str(caught.value)
    assert expected in str(caught.value)


def test_a_count_of_flops_for_a_rate_says_how_to_write_one() -> None:
    with pytest.raises(WrongDimensionError, match="TFLOPS"):
        parse_quantity("312 TFLOP", unit="TFLOP/s")


@pytest.mark.parametrize(
    ("text", "unit", "expected_si"),
    [
        # a plural FLOPs and a prefixed F are used for rates as often as for counts
        ("16.3 TFLOPs", "TFLOP/s", 16.3e12),
        ("16.3 TFLOPs", "TFLOP", 16.3e12),
        ("16.3 TF/s", "TFLOP/s", 16.3e12),
        ("16.3 TF", "TFLOP/s", 16.3e12),
        ("16.3 TF", "GFLOP", 16.3e12),
        # tokens per second however it is abbreviated
        ("37 t/s", "tokens/s", 37),
        ("37 tok/s", "tokens/s", 37),
        ("37 tokens/s", "tokens/s", 37),
    ],
)
def test_rate_spellings_engineers_use(text: str, unit: str, expected_si: float) -> None:
    assert value(text, unit) == pytest.approx(expected_si)


@pytest.mark.parametrize("text", ["5 F", "5 Tf"])
def test_an_f_is_a_flop_only_after_a_prefix(text: str) -> None:
    with pytest.raises(UnknownUnitError):
        parse_quantity(text, unit="GFLOP")


def test_capital_flops_for_a_count_says_how_to_write_one() -> None:
    with pytest.raises(WrongDimensionError, match="capital S is a rate"):
        parse_quantity("13.5 GFLOPS", unit="GFLOP")


@pytest.mark.parametrize(
    ("text", "unit", "expected_si"),
    [
        # "13B" is 13 bytes where bytes are asked, 13 billion where a count is.
        ("13B", "GB", 13),
        ("13 b", "GB", 13 / 8),
        ("13B", "", 13e9),
        ("13B", "GFLOP", 13e9),
        ("13B", "tokens", 13e9),
        ("13 B/s", "GB/s", 13),
    ],
)
def test_a_lone_b_is_a_byte_where_bytes_are_asked_and_billion_elsewhere(
    text: str, unit: str, expected_si: float
) -> None:
    assert value(text, unit) == expected_si


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


# --- properties ----------------------------------------------------------------------------------

UNITS = ["B", "KiB", "MB", "GB", "GiB", "s", "ms", "µs", "min", "GFLOP", "TFLOP/s", "GB/s", "TB/s", "FLOP/B",
         "tokens", "tokens/s", "KiB/token", "%", ""]  # fmt: skip
BEFORE = [
    "",
    "~",
    "≈ ",
    "about ",
    "approx. ",
    "roughly ",
    "= ",
    "Answer: ",
    "n = ",
    "at least ",
    "up to ",
    "`",
]
AFTER = ["", ".", " approx", " (approx.)", "-ish", " or so", " total", " each", "`"]
values = st.floats(min_value=1e-9, max_value=1e15)


@given(values, st.sampled_from(UNITS), st.sampled_from(BEFORE), st.sampled_from(AFTER))
def test_words_around_an_answer_never_change_its_value(
    value_si: float, unit: str, before: str, after: str
) -> None:
    plain = format_quantity(value_si, unit)
    assert value(f"{before}{plain}{after}", unit) == value(plain, unit)


@given(
    st.floats(min_value=1e-3, max_value=1e4),
    st.sampled_from(UNITS),
    st.sampled_from([("thousand", 1e3), ("million", 1e6), ("billion", 1e9), ("trillion", 1e12)]),
)
def test_a_magnitude_word_alone_is_read_in_the_base_unit(
    number: float, unit: str, word: tuple[str, float]
) -> None:
    name, scale = word
    assert value(f"{number!r} {name}", unit) == pytest.approx(number * scale, rel=1e-12)


@given(st.floats(min_value=1e-3, max_value=1e4), st.sampled_from(UNITS))
def test_a_lone_b_is_a_byte_exactly_where_bytes_are_asked(number: float, unit: str) -> None:
    is_bytes = "[information]" in dimensionality(unit)
    is_time = dict(dimensionality(unit)).get("[time]", 0) > 0
    if is_bytes or is_time:
        if is_bytes and dimensionality(unit) == dimensionality("B"):
            assert value(f"{number!r}B", unit) == pytest.approx(number)
        else:
            with pytest.raises(WrongDimensionError):
                parse_quantity(f"{number!r}B", unit=unit)
    else:
        assert value(f"{number!r}B", unit) == pytest.approx(number * 1e9)


def test_a_digit_like_character_pint_cannot_parse_is_refused_not_crashed() -> None:
    # Found by the fuzz test: pint's own parser asserts on U+1ED01, an Ottoman Siyaq numeral.
    with pytest.raises(GradingError):
        parse_quantity("0\U0001ed01", unit="B")
