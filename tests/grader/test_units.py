"""grader.units: the registry, SI ↔ display conversions and formatting for people."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.errors import DisplayUnitError
from grader.units import (
    dimension_name,
    format_number,
    format_quantity,
    from_display,
    registry,
    round_sig,
    si_per_display,
    to_display,
)

ROOT = Path(__file__).resolve().parents[2]

DISPLAY_UNITS = ["B", "KB", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "b", "Gb", "s", "ms", "us",
                 "µs", "ns", "min", "FLOP", "GFLOP", "TFLOP", "FLOP/s", "TFLOP/s", "B/s", "GB/s", "TB/s",
                 "GiB/s", "FLOP/B", "tokens", "tokens/s", "B/token", "KiB/token", "", "%"]  # fmt: skip


def test_registry_is_built_once() -> None:
    assert registry() is registry()


def test_importing_grader_does_not_import_pint() -> None:
    probe = "import sys, grader, grader.units, grader.grading; print('pint' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("value_si", "unit", "shown"),
    [
        (819_200, "KiB", 800),
        (819_200, "KB", 819.2),
        (1.555e12, "TB/s", 1.555),
        (2**30, "GiB", 1),
        (1e9, "GiB", 1e9 / 2**30),
        (26e9 / 1.555e12, "ms", 26e9 / 1.555e12 * 1000),
        (3e-6, "µs", 3),
        (3e-6, "us", 3),
        (120, "min", 2),
        (312e12, "TFLOP/s", 312),
        (1, "b", 8),
        (1e9, "Gb", 8),
        (0.5, "%", 50),
        (42, "", 42),
        (4096, "tokens", 4096),
        (819_200, "KiB/token", 800),
    ],
)
def test_to_display_and_back(value_si: float, unit: str, shown: float) -> None:
    assert to_display(value_si, unit) == pytest.approx(shown)
    assert from_display(shown, unit) == pytest.approx(value_si)


@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False), st.sampled_from(DISPLAY_UNITS))
def test_display_round_trip(value_si: float, unit: str) -> None:
    assert from_display(to_display(value_si, unit), unit) == pytest.approx(value_si, rel=1e-12, abs=1e-300)


def test_si_per_display_of_kilo_spellings() -> None:
    assert si_per_display("KB") == si_per_display("kB") == 1000
    assert si_per_display("KiB") == 1024


@pytest.mark.parametrize(
    ("value_si", "unit", "text"),
    [
        (819_200, "KiB", "800 KiB"),
        (819_200, "B", "819,200 B"),
        (1.555e12, "TB/s", "1.555 TB/s"),
        (26e9 / 1.555e12, "ms", "16.72 ms"),
        (0.0125, "s", "0.0125 s"),
        (1.6e-5, "s", "1.6e-5 s"),
        (2.5e15, "B", "2.5e15 B"),
        (1_234_567, "B", "1,235,000 B"),
        (0, "GB", "0 GB"),
        (-2e9, "GB", "-2 GB"),
        (0.5, "%", "50%"),
        (64, "", "64"),
        (156.05, "FLOP/B", "156.1 FLOP/B"),
        (40, "tokens/s", "40 tokens/s"),
    ],
)
def test_format_quantity(value_si: float, unit: str, text: str) -> None:
    assert format_quantity(value_si, unit) == text


def test_format_quantity_with_more_significant_figures() -> None:
    assert format_quantity(26e9 / 1.555e12, "ms", sig_figs=8) == "16.720257 ms"


@pytest.mark.parametrize(("x", "text"), [(math.nan, "NaN"), (math.inf, "∞"), (-math.inf, "−∞")])
def test_format_number_of_non_finite_values(x: float, text: str) -> None:
    assert format_number(x) == text


@pytest.mark.parametrize(("x", "rounded"), [(16.7203, 16.72), (819_249, 819_200), (0.000123456, 0.0001235)])
def test_round_sig(x: float, rounded: float) -> None:
    assert round_sig(x) == rounded


@pytest.mark.parametrize(
    ("unit", "name"),
    [
        ("KiB", "a size in bytes"),
        ("Gb", "a size in bytes"),
        ("ms", "a time"),
        ("GFLOP", "a FLOP count"),
        ("TFLOP/s", "a FLOP rate (FLOP/s)"),
        ("TB/s", "a bandwidth (bytes/s)"),
        ("FLOP/B", "an arithmetic intensity (FLOP/B)"),
        ("tokens/s", "a token rate (tokens/s)"),
        ("tokens", "a number of tokens"),
        ("", "a pure number"),
        ("%", "a pure number"),
        ("s^2", "a quantity in s²"),
    ],
)
def test_dimension_name(unit: str, name: str) -> None:
    assert dimension_name(unit) == name


@pytest.mark.parametrize("unit", ["parsec", "GB/", "kelvin", "K"])
def test_unknown_display_unit_is_refused(unit: str) -> None:
    with pytest.raises(DisplayUnitError, match="display unit"):
        to_display(1.0, unit)
