"""Units: one pint registry for the whole app, and SI ↔ display conversions for people.

Inside the app every value is in SI base units: bytes (``B``), seconds (``s``), FLOP, FLOP/s,
bytes/s, FLOP/B, tokens, or a pure number. A *display unit* is the unit a question is asked in
(``GB``, ``KiB``, ``ms``, ``TFLOP/s``, ``tokens/s``, ``""`` for a pure number); it is any text
the registry below can parse.

The registry is deliberately small and built from scratch rather than from pint's default
file, so that ``b`` is a bit (not a barn), ``K`` is kilo (not kelvin) and nothing physical that
no question needs can shadow a symbol people type. It holds:

- information: ``byte`` = ``B`` (the base), ``bit`` = ``b`` = B/8;
- SI prefixes ``p n u µ μ m k K M G T P E`` (``K`` and ``k`` are both 1000) and IEC prefixes
  ``Ki Mi Gi Ti Pi Ei``, with their long names (``kilo``, ``gibi``...);
- time: ``s``/``sec``, ``min``, ``h``/``hr``;
- compute: ``FLOP`` = ``flop`` (the base), ``OP`` = ``op`` (an integer operation counts the
  same), ``MAC`` = 2 FLOP (a multiply-add);
- counts that carry no dimension: ``token``/``tok``, ``parameter``/``param``, ``sequence``/``seq``,
  ``request``/``req``, ``user``, and what an answer may be given per (``GPU``, ``layer``,
  ``step``); and ``%``.

Counts are dimensionless on purpose: "800 KiB" answers "KiB per token", "40 tokens/s" is a
rate per second, and "240 sequences" answers "how many requests fit", so a missing or extra
"per token" or a count's noun never makes an answer unreadable.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from grader.errors import DisplayUnitError

# The number formatters live with the estimator, which prints figures into its derivations too.
from grader.estimator.numbers import SIGNIFICANT_FIGURES as SIGNIFICANT_FIGURES
from grader.estimator.numbers import format_number as format_number
from grader.estimator.numbers import round_sig as round_sig

if TYPE_CHECKING:
    import pint


_DEFINITIONS = """
pico- = 1e-12 = p-
nano- = 1e-9 = n-
micro- = 1e-6 = µ- = μ- = u-
milli- = 1e-3 = m-
kilo- = 1e3 = k- = K-
mega- = 1e6 = M-
giga- = 1e9 = G-
tera- = 1e12 = T-
peta- = 1e15 = P-
exa- = 1e18 = E-
kibi- = 2**10 = Ki-
mebi- = 2**20 = Mi-
gibi- = 2**30 = Gi-
tebi- = 2**40 = Ti-
pebi- = 2**50 = Pi-
exbi- = 2**60 = Ei-
byte = [information] = B
bit = byte / 8 = b
second = [time] = s = sec
minute = 60 * second = min
hour = 60 * minute = h = hr
FLOP = [compute] = flop
OP = FLOP = op
multiply_add = 2 * FLOP = MAC
token = [] = tok
parameter = [] = param
sequence = [] = seq
request = [] = req
user = []
GPU = []
layer = []
step = []
percent = 0.01 = %
"""

_lock = threading.Lock()
_registry: pint.UnitRegistry | None = None


def registry() -> pint.UnitRegistry:
    """The app's unit registry, built on first use (importing pint costs a few hundred ms)."""
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                import pint

                ureg: pint.UnitRegistry = pint.UnitRegistry(None, case_sensitive=True)
                for line in _DEFINITIONS.strip().splitlines():
                    ureg.define(line)
                _registry = ureg
    return _registry


@lru_cache(maxsize=256)
def display_units(unit: str) -> pint.Unit:
    """The parsed display unit; ``DisplayUnitError`` when the registry cannot read it."""
    ureg = registry()
    if not unit.strip():
        return ureg.dimensionless
    try:
        return ureg.parse_units(unit)
    except Exception as exc:  # pint raises several unrelated types for unreadable text
        raise DisplayUnitError(
            f"The display unit {unit!r} is not one the grader knows.",
            "Use a unit such as GB, KiB, ms, TFLOP/s, TB/s, FLOP/B, tokens/s, or '' for a pure number.",
        ) from exc


@lru_cache(maxsize=256)
def si_per_display(unit: str) -> float:
    """How many SI base units one display ``unit`` holds (``KiB`` → 1024.0, ``ms`` → 0.001)."""
    return float(registry().Quantity(1.0, display_units(unit)).to_base_units().magnitude)


@lru_cache(maxsize=256)
def base_units(unit: str) -> pint.Unit:
    """The base unit of a display unit, with no prefix: ``GFLOP`` → FLOP, ``GB/s`` → byte/second."""
    # pint annotates to_base_units() as returning its PlainQuantity base class, whose .units is a
    # PlainUnit; this registry's quantities are pint.Quantity, so the unit is a pint.Unit.
    return registry().Quantity(1.0, display_units(unit)).to_base_units().units  # type: ignore[return-value]


def dimension_powers(dims: pint.util.UnitsContainer) -> dict[str, float]:
    """Each dimension's power (``{'[information]': 1, '[time]': -1}`` for ``GB/s``).

    pint types a power as any scalar, complex included; a unit's powers are real numbers.
    """
    return {name: cast(float, power) for name, power in dims.items()}


def dimensionality(unit: str) -> pint.util.UnitsContainer:
    """The pint dimensionality of a display unit (``{'[information]': 1, '[time]': -1}`` for ``GB/s``)."""
    return display_units(unit).dimensionality


def to_display(value_si: float, unit: str) -> float:
    """An SI value expressed in the display ``unit`` (819200, ``KiB`` → 800.0)."""
    return value_si / si_per_display(unit)


def from_display(x: float, unit: str) -> float:
    """A number given in the display ``unit``, in SI base units (800, ``KiB`` → 819200.0)."""
    return x * si_per_display(unit)


def format_display(x: float, unit: str, *, sig_figs: int = SIGNIFICANT_FIGURES) -> str:
    """A number already in the display ``unit``, with the unit attached (``800 KiB``, ``50%``, ``64``)."""
    number = format_number(x, sig_figs=sig_figs)
    if not unit.strip():
        return number
    return f"{number}{unit}" if unit == "%" else f"{number} {unit}"


def format_quantity(value_si: float, unit: str, *, sig_figs: int = SIGNIFICANT_FIGURES) -> str:
    """An SI value written in the display ``unit`` for people: 819200, ``KiB`` → ``800 KiB``."""
    return format_display(to_display(value_si, unit), unit, sig_figs=sig_figs)


# Display units tried from largest to smallest for each SI unit a derivation step can carry.
_LADDERS: dict[str, tuple[str, ...]] = {
    "B": ("TB", "GB", "MB", "KB", "B"),
    "B/s": ("TB/s", "GB/s", "MB/s", "B/s"),
    "s": ("s", "ms", "µs", "ns"),
    "FLOP": ("PFLOP", "TFLOP", "GFLOP", "MFLOP", "FLOP"),
    "FLOP/s": ("PFLOP/s", "TFLOP/s", "GFLOP/s", "FLOP/s"),
}


_BINARY_LADDERS: dict[str, tuple[str, ...]] = {
    "B": ("TiB", "GiB", "MiB", "KiB", "B"),
    "B/s": ("TiB/s", "GiB/s", "MiB/s", "KiB/s", "B/s"),
}


def readable(value_si: float, unit: str, *, binary: bool = False) -> str:
    """``value_si`` (in the SI ``unit``) with the largest prefix that keeps it at or above 1; sizes with
    binary prefixes (KiB, GiB) when ``binary``."""
    ladder = (_BINARY_LADDERS.get(unit) if binary else None) or _LADDERS.get(unit)
    if ladder is None:
        return format_quantity(value_si, unit)
    for candidate in ladder:
        if abs(value_si) >= si_per_display(candidate) / si_per_display(unit):
            return format_quantity(value_si, candidate)
    return format_quantity(value_si, ladder[-1])


# Names for the dimensions questions ask about, keyed by pint's dimensionality.
_DIMENSION_NAMES: dict[frozenset[tuple[str, float]], str] = {
    frozenset({("[information]", 1)}): "a size in bytes",
    frozenset({("[time]", 1)}): "a time",
    frozenset({("[compute]", 1)}): "a FLOP count",
    frozenset({("[compute]", 1), ("[time]", -1)}): "a FLOP rate (FLOP/s)",
    frozenset({("[information]", 1), ("[time]", -1)}): "a bandwidth (bytes/s)",
    frozenset({("[compute]", 1), ("[information]", -1)}): "an arithmetic intensity (FLOP/B)",
    frozenset({("[information]", 1), ("[compute]", -1)}): "bytes per FLOP",
    frozenset({("[time]", -1)}): "a rate per second",
}


_COUNT_WORDS = ("sequence", "request", "user", "GPU", "layer", "step")


def describe_units(units: pint.Unit) -> str:
    """A short noun phrase for what a pint unit measures (``a time``, ``a token rate (tokens/s)``)."""
    dims = units.dimensionality
    has_tokens = "token" in str(units)
    if not dims:
        if has_tokens:
            return "a number of tokens"
        if "parameter" in str(units):
            return "a parameter count"
        return "a count" if any(word in str(units) for word in _COUNT_WORDS) else "a pure number"
    powers = dimension_powers(dims)
    if has_tokens and powers == {"[time]": -1}:
        return "a token rate (tokens/s)"
    known = _DIMENSION_NAMES.get(frozenset(powers.items()))
    return known if known is not None else f"a quantity in {unit_symbol(units)}"


def unit_symbol(units: pint.Unit) -> str:
    """A unit as people write it: ``B/s``, ``FLOP/B``, ``s²`` (pint's short form, FLOP in capitals)."""
    return re.sub(r"\bflop\b", "FLOP", f"{units:~P}").replace(" ", "")


def dimension_name(unit: str) -> str:
    """What a display unit measures, for messages: ``ms`` → ``a time``, ``GB/s`` → ``a bandwidth ...``."""
    return describe_units(display_units(unit))
