"""Reading one word of an answer as a unit (or a number word), with the case rules people expect.

Case rules, strict only where case carries meaning:

- ``B`` is a byte and ``b`` a bit, always: ``GB`` gigabytes, ``Gb`` gigabits, ``Kb`` kilobits.
  An answer in bits where bytes were asked is read as bits; the diagnosis then names the slip.
  All lower case (``kb``, ``gb``, ``tb``) is refused as ambiguous: people type it for bytes.
- ``k`` and ``K`` are both kilo (1000); ``KiB`` and friends are binary (1024).
- Letter case of a prefix is otherwise kept (``M`` mega, ``m`` milli), and a byte or bit with a
  sub-unit prefix (``mB``, ``mb``, ``µB``) or a lower-case prefix that is not one (``gb``,
  ``tb``) is refused as ambiguous, naming the two readings.
- Whole words are read in any case: ``Bytes``, ``GBytes``, ``Gigabytes``, ``Tokens``, ``Sec``, ``msec``.
- ``FLOP`` and ``flop`` are counts; ``FLOPS`` (capital S) is per second, so ``TFLOPS`` =
  ``TFLOP/s``; ``OP``/``OPS`` likewise (``TOPS``). ``F`` after a prefix is a FLOP (``TF/s``). A
  plural in any other casing (``FLOPs``, ``flops``, ``TF``) is used both ways by engineers, so it
  is read as the question's dimension needs: ``16.3 TFLOPs`` is a rate where a rate is asked.
- ``S`` is a second as well (``TB/S``, ``mS``), and ``Bps``/``bps`` are per second (``GBps``,
  ``Gbps``); ``tps`` is tokens per second and ``t`` alone a token (``37 t/s``). A megasecond
  (``Ms``, ``MS``, ``Msec``) is never meant, so it is refused with a note to write ``ms``.
- Number words ``thousand``, ``million``, ``billion``, ``trillion``, ``bn`` are plain numbers.
  The suffix letters ``K``, ``k``, ``M``, ``G``, ``B``, ``b``, ``T`` right after a number are
  multipliers when another unit word follows (``26B FLOPs``, ``16k tokens``, ``4.2G bytes``:
  byte·FLOP is never meant), and, in a later reading (see :class:`Reading`), when the letter
  stands alone and the question's kind allows it (``26B`` FLOPs, ``128K`` tokens, ``4.2G`` on a
  size question, but ``13B`` on a size question is 13 bytes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from grader.errors import AmbiguousUnitError, NumberRangeError, UnknownUnitError
from grader.units import dimension_powers, registry

if TYPE_CHECKING:
    import pint

NUMBER_WORDS: dict[str, float] = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "bn": 1e9,
}
SUFFIX_MULTIPLIERS: dict[str, float] = {
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "G": 1e9,
    "B": 1e9,
    "b": 1e9,
    "T": 1e12,
}
# The letters that are units on their own: a lone "13B" on a size question is 13 bytes.
_UNIT_LETTERS = frozenset({"B", "b"})

_PREFIX_SYMBOLS: dict[str, str] = {
    "p": "pico",
    "n": "nano",
    "u": "micro",
    "µ": "micro",
    "μ": "micro",
    "m": "milli",
    "k": "kilo",
    "K": "kilo",
    "M": "mega",
    "G": "giga",
    "T": "tera",
    "P": "peta",
    "E": "exa",
    "Ki": "kibi",
    "Mi": "mebi",
    "Gi": "gibi",
    "Ti": "tebi",
    "Pi": "pebi",
    "Ei": "exbi",
}
_PREFIX_NAMES = frozenset(_PREFIX_SYMBOLS.values())
_SUB_UNIT_PREFIXES = frozenset({"pico", "nano", "micro", "milli"})
# Lower-case letters that are no SI prefix, so "gflops" or "tbytes" can only mean giga or tera.
_LOOSE_PREFIXES = frozenset({"g", "t", "e"})

# Whole words read in any letter case → the registry's name for them.
_LONG_WORDS: dict[str, str] = {
    **dict.fromkeys(("byte", "bytes"), "byte"),
    **dict.fromkeys(("bit", "bits"), "bit"),
    **dict.fromkeys(("second", "seconds", "sec", "secs"), "second"),
    **dict.fromkeys(("minute", "minutes", "min", "mins"), "minute"),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), "hour"),
    **dict.fromkeys(("token", "tokens", "tok", "toks"), "token"),
    **dict.fromkeys(("parameter", "parameters", "param", "params"), "parameter"),
    **dict.fromkeys(("sequence", "sequences", "seq", "seqs"), "sequence"),
    **dict.fromkeys(("request", "requests", "req", "reqs"), "request"),
    **dict.fromkeys(("user", "users"), "user"),
    **dict.fromkeys(("gpu", "gpus"), "GPU"),
    **dict.fromkeys(("layer", "layers"), "layer"),
    **dict.fromkeys(("step", "steps"), "step"),
    "tps": "token/second",
    **dict.fromkeys(("mac", "macs"), "multiply_add"),
    "percent": "percent",
}
_FLOP_BASE = re.compile(r"(?:FL)?OPS?|(?:fl)?ops?|F", re.IGNORECASE)
_BYTE_OR_BIT = re.compile(r"(?P<prefix>[kmgtpe])(?P<binary>i?)(?P<base>b)", re.IGNORECASE)
_NOT_NUMBERS = frozenset({"inf", "infinity", "nan"})
# "TB/S", "mS": pint has no siemens here, so a capital S after a time prefix can only be a second.
_CAPITAL_S = re.compile(r"(?P<prefix>[pnuµμmkKMGT]?)S")
# "GBps", "Gbps": bytes or bits per second, the way network and storage specs write them.
_PER_SECOND = re.compile(r"(?P<stem>.*[Bb])ps", re.IGNORECASE)


@dataclass(frozen=True)
class Word:
    """What one word of an answer means: a quantity, and whether it is a unit or only a number."""

    quantity: pint.Quantity
    is_unit: bool


@dataclass(frozen=True)
class Reading:
    """How to read the words that have two meanings.

    ``flops_as_rate``: read an ambiguous ``flops`` as FLOP/s rather than FLOP.
    ``multipliers``: the suffix letters read as numbers where they follow a number and another
    unit word follows them (``26B FLOPs``): all of them in every reading, since a byte times a
    FLOP, a token or a parameter is never meant. ``lone_multipliers``: those read as numbers
    where nothing follows (``26B``, ``128K``), only in a later reading; which letters may stand
    alone depends on the question: see :func:`lone_multipliers`.
    """

    flops_as_rate: bool = False
    multipliers: frozenset[str] = frozenset(SUFFIX_MULTIPLIERS)
    lone_multipliers: frozenset[str] = frozenset()


def lone_multipliers(expected: pint.util.UnitsContainer) -> frozenset[str]:
    """The suffix letters that may stand alone after a number for a question of this dimensionality.

    None for a time (``17 M`` is no time anyone means); all but ``B``/``b`` where bytes are asked,
    since there ``13B`` is 13 bytes; all of them for counts and their rates (``26B`` FLOPs,
    ``989T`` FLOP/s, ``240`` sequences), where a byte could not be meant.
    """
    dims = dimension_powers(expected)
    if dims.get("[time]", 0) > 0:
        return frozenset()
    if "[information]" in dims:
        return frozenset(SUFFIX_MULTIPLIERS) - _UNIT_LETTERS
    return frozenset(SUFFIX_MULTIPLIERS)


def read_multiplier(word: str, reading: Reading, *, before_unit: bool) -> Word | None:
    """``word`` as a number when this reading takes it as a suffix multiplier right after a number."""
    allowed = reading.multipliers if before_unit else reading.lone_multipliers
    if word not in allowed:
        return None
    return Word(registry().Quantity(SUFFIX_MULTIPLIERS[word]), is_unit=False)


def _split_prefix(word: str, is_base: dict[str, str] | re.Pattern[str]) -> tuple[str, str] | None:
    """(registry prefix name or "", base) when ``word`` is a known prefix followed by a base."""
    for cut in range(len(word)):
        prefix, base = word[:cut], word[cut:]
        if prefix in _LOOSE_PREFIXES:
            prefix = prefix.upper()
        if prefix and prefix not in _PREFIX_SYMBOLS and prefix.lower() not in _PREFIX_NAMES:
            continue
        matches = base.lower() in is_base if isinstance(is_base, dict) else is_base.fullmatch(base)
        if matches:
            name = _PREFIX_SYMBOLS.get(prefix, prefix.lower())
            return name, base
    return None


def _flop_unit(word: str, reading: Reading) -> str | None:
    """The registry unit for a FLOP/OP word (``TFLOPS`` → ``teraFLOP/second``), or None."""
    split = _split_prefix(word, _FLOP_BASE)
    if split is None:
        return None
    prefix, base = split
    if prefix in _SUB_UNIT_PREFIXES:
        letter = "M" if prefix == "milli" else "G"
        raise AmbiguousUnitError(
            f"`{word}` reads as a fraction of a FLOP.", f"Write `{letter}FLOP` or `{letter}FLOP/s`."
        )
    if base.lower() == "f" and (not prefix or base == "f"):
        return None  # "F" alone, or "Tf": no FLOP anyone writes
    counted = "FLOP" if base.lower().startswith("f") else "OP"
    if base in ("FLOPS", "OPS"):
        per_second = True
    elif base.lower() in ("flop", "op"):
        per_second = False
    else:
        per_second = reading.flops_as_rate
    return f"{prefix}{counted}/second" if per_second else f"{prefix}{counted}"


def _refuse_sub_unit_information(word: str, units: pint.Unit) -> None:
    """Refuse ``mB``-like units: a thousandth of a byte is never meant, MB or Mb probably is."""
    name = str(units)
    if "[information]" in units.dimensionality and any(name.startswith(p) for p in _SUB_UNIT_PREFIXES):
        _refuse_byte_or_bit(word)


def _refuse_byte_or_bit(word: str) -> None:
    match = _BYTE_OR_BIT.fullmatch(word)
    letter = (match.group("prefix") if match else word[:1]).upper()
    binary = "i" if match and match.group("binary") else ""
    raise AmbiguousUnitError(
        f"`{word}` could mean bytes or bits.",
        f"Write `{letter}{binary}B` for bytes or `{letter}{binary}b` for bits "
        "(capital B is a byte, small b a bit).",
    )


def _refuse_megaseconds(word: str, units: pint.Unit) -> None:
    """Refuse ``Ms``, ``MS``, ``Msec``: a megasecond is never meant, a millisecond with a capital M is."""
    if dict(units.dimensionality) == {"[time]": 1} and str(units).startswith("mega"):
        raise AmbiguousUnitError(f"`{word}` reads as megaseconds.", "Write `ms` for milliseconds.")


def _unit_name(word: str, reading: Reading) -> str | None:
    """The registry's name for ``word`` where the case rules above decide it; None leaves it to pint."""
    name = _flop_unit(word, reading)
    if name is not None:
        return name
    long_word = _split_prefix(word, _LONG_WORDS)
    if long_word is not None:
        prefix, base = long_word
        return prefix + _LONG_WORDS[base.lower()]
    if (capital_s := _CAPITAL_S.fullmatch(word)) is not None:
        return _PREFIX_SYMBOLS.get(capital_s.group("prefix"), "") + "second"
    if word.endswith("B") and (binary := _BYTE_OR_BIT.fullmatch(word)) is not None:
        # "gB", "KIB": a capital B leaves no doubt it is bytes, whatever the prefix's case.
        prefix = binary.group("prefix").upper() + binary.group("binary").lower()
        if prefix != "M" or binary.group("prefix") == "M":
            return prefix.replace("K", "k") + "B" if not binary.group("binary") else prefix + "B"
    return None


@lru_cache(maxsize=2048)
def read_word(word: str, reading: Reading) -> Word:
    """The meaning of one word (letters, or ``%``) of an answer; raises a ``ParseError`` subclass.

    Cached: answers repeat a handful of unit words, and a word's meaning never changes.
    """
    from pint import PintError

    ureg = registry()
    lower = word.lower()
    if lower in _NOT_NUMBERS:
        raise NumberRangeError(f"`{word}` is not a number that can be graded.", "Type a finite number.")
    if lower in NUMBER_WORDS:
        return Word(ureg.Quantity(NUMBER_WORDS[lower]), is_unit=False)
    if word == "t":  # "37 t/s": only a token is ever meant in these questions
        return Word(ureg.Quantity(1.0, ureg.token), is_unit=True)
    if word == "kb":  # as ambiguous as "gb": refused, not read as kilobits
        _refuse_byte_or_bit(word)
    if (per_second := _PER_SECOND.fullmatch(word)) is not None:
        stem = read_word(per_second.group("stem"), reading)
        if "[information]" in stem.quantity.dimensionality:
            return Word(stem.quantity / ureg.second, is_unit=True)
    name = _unit_name(word, reading)
    try:
        units = ureg.parse_units("percent" if word == "%" else (name or word))
    # AssertionError too: pint's own parser asserts on some digit-like characters (U+1ED01).
    except (PintError, ValueError, TypeError, AttributeError, KeyError, AssertionError):
        if _BYTE_OR_BIT.fullmatch(word):
            _refuse_byte_or_bit(word)
        raise UnknownUnitError(f"`{word}` is not a unit the grader knows.", word=word) from None
    _refuse_sub_unit_information(word, units)
    _refuse_megaseconds(word, units)
    return Word(ureg.Quantity(1.0, units), is_unit=True)
