"""Reading a typed answer as a quantity: a tokenizer and a small recursive-descent parser.

Nothing here evaluates Python: the grammar below is all there is.

    expr   := term (("+" | "-") term)*
    term   := signed (("*" | "/") signed)*
    signed := ("+" | "-") signed | power
    power  := atom ("^" signed)?                       right-associative
    atom   := NUMBER [units] | "(" expr ")" [units] | WORD
    units  := unit (["*" | "/"] unit)*                 a unit right after a number binds to it
    unit   := WORD ("^" ["+" | "-"] NUMBER)?           WORD: letters, or "%"

Before tokenizing, the text is tidied: a leading ``~``, ``≈``, ``about``, ``approx.``...
goes; ``×``, ``·``, ``x`` between numbers and ``**`` become ``*`` and ``^``; superscripts
(``10⁻²``) become powers; ``per`` becomes ``/``; thousands separators go (``819,200``,
``819 200``, ``1_000``), while a comma that is not one (``1,5``) is refused.

A unit group that ends the answer applies to everything before it when that part has no unit
of its own, so ``26e9/1.555e12 s`` and ``2^10 B`` read as people mean them; otherwise it binds
to the number just before it (``26e9 B / 1.555e12 B/s``). A bare number is read in the
question's display unit.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from grader.errors import GradingError, NumberRangeError, ParseError, WrongDimensionError
from grader.unit_words import Reading, read_word
from grader.units import describe_units, dimension_name, dimensionality, display_units, registry

if TYPE_CHECKING:
    import pint

MAX_CHARS = 200
_MAX_DEPTH = 40
_MAX_UNIT_EXPONENT = 4

_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SYMBOLS = str.maketrans({"−": "-", "–": "-", "—": "-", "‐": "-", "×": "*", "✕": "*", "⨯": "*", "·": "*",
                          "⋅": "*", "∙": "*", "•": "*", "÷": "/"})  # fmt: skip
_APPROXIMATELY = re.compile(
    r"^\s*(?:~=?|≈|≃|≅|=|about\b|approx\b\.?|approximately\b|around\b|roughly\b|circa\b|ca\.)\s*", re.I
)
_THOUSANDS_COMMAS = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d,])")
_THOUSANDS_OTHER = re.compile(r"(?<![\w.^])\d{1,3}(?:([ _'’])\d{3})(?:\1\d{3})*(?![\w'’])")
_TIMES_X = re.compile(r"(?<=[\d.)])\s*[xX]\s*(?=[\d.(+-])")
_TRAILING_TIMES = re.compile(r"(?<=[\d)])\s*[xX*]\s*$")
_PER = re.compile(r"\bper\b", re.I)
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<word>[^\W\d_]+|%)|(?P<op>\^|[-+*/()]))"
)


class Token(NamedTuple):
    kind: str  # "num", "word" or "op"
    text: str


@dataclass(frozen=True)
class Parsed:
    """A readable answer: its value in SI base units, and whether any unit was typed (else a bare number)."""

    value_si: float
    has_unit: bool


def answer_hint(unit: str) -> str:
    """What to type for a question in display ``unit``: ``Type a number with a unit, like `800 KiB`...``."""
    try:
        name = dimension_name(unit)
    except GradingError:
        return "Type a number with a unit, like `800 KiB` or `819,200 B`."
    examples = _EXAMPLES.get(name, f"`12 {unit}`")
    if not unit.strip():
        return f"Type a number, like {examples}."
    return f"Type a number with a unit, like {examples}; a bare number is read in {unit}."


_EXAMPLES = {
    "a size in bytes": "`800 KiB` or `819,200 B`",
    "a time": "`12.5 ms` or `0.0125 s`",
    "a FLOP count": "`26 GFLOP` or `2.6e10 FLOP`",
    "a FLOP rate (FLOP/s)": "`100 TFLOP/s`, `100 TFLOPS` or `1e14 FLOP/s`",
    "a bandwidth (bytes/s)": "`2 TB/s` or `2e12 B/s`",
    "an arithmetic intensity (FLOP/B)": "`150 FLOP/B`",
    "a token rate (tokens/s)": "`40 tokens/s`",
    "a number of tokens": "`4,096 tokens` or `4096`",
    "a pure number": "`64`, `1.5e3` or `50%`",
}


def _tidy(text: str) -> str:
    """The answer with the notations people use rewritten into the grammar's; see the module docstring."""
    if len(text) > MAX_CHARS:
        raise ParseError(
            f"That answer is over {MAX_CHARS} characters long.", "Type just the number and unit."
        )
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group().translate(_FROM_SUPERSCRIPT) + ")", text)
    text = unicodedata.normalize("NFKC", text).translate(_SYMBOLS)
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text).strip()
    while (match := _APPROXIMATELY.match(text)) is not None and match.end() > 0:
        text = text[match.end() :]
    text = text.replace("**", "^").rstrip(" .!;")
    text = _THOUSANDS_COMMAS.sub(lambda m: m.group().replace(",", ""), text)
    text = _THOUSANDS_OTHER.sub(lambda m: re.sub(r"[ _'’]", "", m.group()), text)
    if re.search(r"\d,\d", text):
        raise ParseError(
            "A comma inside a number is read only between groups of three digits.",
            "Use a point for decimals (`1.5`) and commas for thousands (`819,200`).",
        )
    text = _TIMES_X.sub("*", text)
    text = _TRAILING_TIMES.sub("", text)
    return _PER.sub("/", text)


def tokenize(text: str) -> list[Token]:
    """The tokens of tidied text; ``ParseError`` at the first character that starts none."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            rest = text[position:].strip()
            if not rest:
                break
            shown = "A backtick" if rest[0] == "`" else f"`{rest[0]}`"
            raise ParseError(f"{shown} cannot be read here.", "")
        kind = match.lastgroup or "op"
        tokens.append(Token(kind, match.group(kind)))
        position = match.end()
    return tokens


def _check_finite(q: pint.Quantity) -> pint.Quantity:
    if not math.isfinite(q.magnitude):
        raise NumberRangeError("That number is too large to grade.", "Check the exponent.")
    return q


class _Parser:
    """One pass of the grammar over ``tokens``, building pint quantities."""

    def __init__(self, tokens: list[Token], reading: Reading) -> None:
        self.tokens = tokens
        self.reading = reading
        self.position = 0
        self.depth = 0
        self.has_unit = False

    def parse(self) -> pint.Quantity:
        q = self.expr()
        if self.position < len(self.tokens):
            raise ParseError(f"`{self.tokens[self.position].text}` cannot follow what comes before it.", "")
        return q

    def parse_units(self) -> pint.Quantity:
        q = self.units()
        if self.position < len(self.tokens):
            raise ParseError("The unit at the end cannot be read.", "")
        return q

    def peek(self, offset: int = 0) -> Token | None:
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise ParseError("The answer stops in the middle of a calculation.", "")
        self.position += 1
        return token

    def is_op(self, symbols: str, offset: int = 0) -> bool:
        token = self.peek(offset)
        return token is not None and token.kind == "op" and token.text in symbols

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise ParseError("That answer is nested too deeply.", "Type just the number and unit.")

    def expr(self) -> pint.Quantity:
        q = self.term()
        while self.is_op("+-"):
            op = self.take().text
            q = _combine(q, op, self.term())
        return q

    def term(self) -> pint.Quantity:
        q = self.signed()
        while self.is_op("*/"):
            op = self.take().text
            q = _combine(q, op, self.signed())
        return q

    def signed(self) -> pint.Quantity:
        self.deeper()
        try:
            if self.is_op("+-"):
                sign = self.take().text
                q = self.signed()
                return -q if sign == "-" else q
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> pint.Quantity:
        base = self.atom()
        if not self.is_op("^"):
            return base
        self.take()
        return _power(base, self.signed())

    def atom(self) -> pint.Quantity:
        token = self.take()
        if token.kind == "num":
            q = _check_finite(registry().Quantity(float(token.text)))
        elif token.kind == "word":
            return self.word(token.text)
        elif token.text == "(":
            self.deeper()
            q = self.expr()
            self.depth -= 1
            if not self.is_op(")"):
                raise ParseError("A bracket is not closed.", "")
            self.take()
        else:
            raise ParseError(f"`{token.text}` cannot start a number.", "")
        next_token = self.peek()
        if next_token is not None and next_token.kind == "word":
            return _check_finite(q * self.units())
        if next_token is not None and (next_token.kind == "num" or next_token.text == "("):
            raise ParseError("Two numbers stand side by side.", "Put `*` between numbers to multiply them.")
        return q

    def word(self, text: str) -> pint.Quantity:
        meaning = read_word(text, self.reading)
        self.has_unit = self.has_unit or meaning.is_unit
        return meaning.quantity

    def units(self) -> pint.Quantity:
        q = self.unit()
        while True:
            following = self.peek()
            if following is not None and following.kind == "word":  # "KiB per token", "billion bytes"
                q = _combine(q, "*", self.unit())
            elif self.is_op("*/") and (after := self.peek(1)) is not None and after.kind == "word":
                op = self.take().text
                q = _combine(q, op, self.unit())
            else:
                return q

    def unit(self) -> pint.Quantity:
        token = self.take()
        if token.kind != "word":
            raise ParseError(f"`{token.text}` is not a unit.", "")
        q = self.word(token.text)
        if self.is_op("^"):
            self.take()
            sign = -1.0 if self.is_op("-") else 1.0
            if self.is_op("+-"):
                self.take()
            exponent = self.take()
            if exponent.kind != "num":
                raise ParseError("A unit's power must be a whole number, like `s^2`.", "")
            q = _power(q, registry().Quantity(sign * float(exponent.text)))
        return q


def _combine(left: pint.Quantity, op: str, right: pint.Quantity) -> pint.Quantity:
    from pint import PintError

    try:
        if op == "+":
            q = left + right
        elif op == "-":
            q = left - right
        elif op == "*":
            q = left * right
        else:
            q = left / right
    except ZeroDivisionError:
        raise NumberRangeError("That answer divides by zero.", "") from None
    except (PintError, ArithmeticError, ValueError, TypeError):
        found = f"{describe_units(left.units)} and {describe_units(right.units)}"
        raise ParseError(f"That adds or subtracts {found}, which do not mix.", "") from None
    return _check_finite(q)


def _power(base: pint.Quantity, exponent: pint.Quantity) -> pint.Quantity:
    if not exponent.dimensionless:
        raise ParseError("A power must be a plain number.", "")
    e = float(exponent.to("dimensionless").magnitude)
    if base.unitless:
        try:
            return _check_finite(registry().Quantity(math.pow(float(base.to("dimensionless").magnitude), e)))
        except OverflowError:
            raise NumberRangeError("That power is too large to grade.", "Check the exponent.") from None
        except (ValueError, ZeroDivisionError):
            raise NumberRangeError("That power has no real value.", "") from None
    if not e.is_integer() or abs(e) > _MAX_UNIT_EXPONENT:
        raise ParseError("A unit can only be raised to a small whole power, like `s^2`.", "")
    return _check_finite(base ** int(e))


def _signature(tokens: list[Token]) -> str:
    """One character per token: ``n`` a number, ``w`` a word, an operator as itself."""
    return "".join(t.text if t.kind == "op" else t.kind[0] for t in tokens)


# A run of units: words, each with an optional whole power, joined by "*", "/" or nothing.
_UNIT_RUN = r"w(?:\^[+-]?n)?(?:[*/]?w(?:\^[+-]?n)?)*"
_TRAILING_UNITS = re.compile(rf"(?<=[n)]){_UNIT_RUN}$")


def _trailing_units_start(tokens: list[Token]) -> int | None:
    """Where a run of units that ends the answer starts, if a number or ``)`` stands before it."""
    match = _TRAILING_UNITS.search(_signature(tokens))
    return match.start() if match else None


def _evaluate(tokens: list[Token], reading: Reading) -> tuple[pint.Quantity, bool]:
    """The quantity ``tokens`` describe, and whether any unit was written."""
    start = _trailing_units_start(tokens)
    if start is not None:
        head = _Parser(tokens[:start], reading)
        try:
            head_value = head.parse()
        except GradingError:
            head_value = None
        if head_value is not None and not head.has_unit:
            units = _Parser(tokens[start:], reading)
            return _check_finite(head_value * units.parse_units()), units.has_unit
    parser = _Parser(tokens, reading)
    return parser.parse(), parser.has_unit


def _readings(expected: pint.util.UnitsContainer) -> Iterator[Reading]:
    yield Reading()
    yield Reading(flops_as_rate=True)
    if not expected:
        yield Reading(suffix_multipliers=True)


def parse_quantity(text: str, *, unit: str) -> Parsed:
    """Read ``text`` as a quantity of the kind display ``unit`` measures; return it in SI units.

    A bare number is read in ``unit``. Raises a :class:`grader.errors.GradingError` subclass
    (``ParseError``, ``WrongDimensionError``, ``DisplayUnitError``) whose ``reason`` and
    ``hint`` say what was wrong and what to type instead.
    """
    expected = dimensionality(unit)
    tokens = tokenize(_tidy(text))
    if not tokens:
        raise ParseError("The answer is empty.", "")
    if not any(t.kind == "num" for t in tokens):
        raise ParseError("There is no number in it.", "")
    first_problem: GradingError | None = None
    for reading in _readings(expected):
        try:
            q, has_unit = _evaluate(tokens, reading)
        except GradingError as exc:
            first_problem = first_problem or exc
            continue
        if not has_unit:
            q = q * display_units(unit)
        if q.dimensionality == expected:
            value_si = float(_check_finite(q.to_base_units()).magnitude)
            return Parsed(value_si=value_si, has_unit=has_unit)
        if first_problem is None:
            found, wanted = describe_units(q.units), dimension_name(unit)
            hint = _RATE_HINT if "count" in found and "rate" in wanted else ""
            first_problem = WrongDimensionError(
                f"That is {found}, but the question asks for {wanted}.", hint, found=found, expected=wanted
            )
    raise first_problem or ParseError("The answer cannot be read.", "")


_RATE_HINT = "`FLOPs` with a small s is a count; for a rate write `TFLOP/s` or `TFLOPS`."
