"""Reading a typed answer as a quantity: a tokenizer and a small recursive-descent parser.

Nothing here evaluates Python: the grammar below is all there is.

    expr   := term (("+" | "-") term)*
    term   := signed (("*" | "/") signed)*
    signed := ("+" | "-") signed | power
    power  := atom ("^" signed)?                       right-associative
    atom   := NUMBER [units] | "(" expr ")" [units] | WORD
    units  := unit (["*" | "/"] unit)*                 a unit right after a number binds to it
    unit   := WORD ("^" ["+" | "-"] NUMBER)?           WORD: letters, or "%"

Before tokenizing, :func:`grader.tidying.tidy` rewrites the notations people type (``~``,
``≈``, ``×``, superscripts, ``per``, thousands separators, working before an ``=``...).

A unit group that ends the answer applies to everything before it when that part has no unit
of its own, so ``26e9/1.555e12 s`` and ``2^10 B`` read as people mean them; otherwise it binds
to the number just before it (``26e9 B / 1.555e12 B/s``). After a ``1 /``, when that reading is of
the wrong kind, the unit is bound to the number before it: ``1/9.24 ms`` is a rate where one is asked.

A bare number is read in the question's display unit. A bare number with a magnitude word or
suffix (``26 billion``, ``13.5B``, ``4.2G``) is read in the display unit's base unit instead
(FLOP for a GFLOP question, bytes for a GB one): nobody means "26 billion GFLOP".
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from grader.errors import GradingError, NumberRangeError, ParseError, UnknownUnitError
from grader.hints import units_hint, wrong_dimension
from grader.tidying import tidy
from grader.unit_words import SUFFIX_MULTIPLIERS, Reading, Word, lone_multipliers, read_multiplier, read_word
from grader.units import base_units, describe_units, dimensionality, display_units, registry

if TYPE_CHECKING:
    import pint

_MAX_DEPTH = 40
_MAX_UNIT_EXPONENT = 4
# The largest figure (in SI units) graded. Near float's limit the figure cannot be shown: rounded to
# the digits a verdict prints, 1.7976931348623157e308 becomes 1.798e308, which is past the largest
# float. No question's answer comes within a hundred orders of magnitude of this.
_LARGEST_FIGURE_SI = 1e300

_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<word>[^\W\d_]+|%)|(?P<op>\^|[-+*/()]))"
)


class Token(NamedTuple):
    kind: str  # "num", "word" or "op"
    text: str


@dataclass(frozen=True)
class Parsed:
    """A readable answer: its value in SI base units, and how it was written.

    ``has_unit``: a unit was typed (else a bare number, read in the display unit). ``scaled``: a
    magnitude word or suffix was typed (``26 billion``, ``13.5B``), so a bare number was read in
    the display unit's base unit.
    """

    value_si: float
    has_unit: bool
    scaled: bool = False


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
        self.has_magnitude = False

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
                # pint annotates Quantity.__neg__ as returning its PlainQuantity base class; the
                # negation of a pint.Quantity is a pint.Quantity.
                return -q if sign == "-" else q  # type: ignore[return-value]
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

    def word(self, text: str, meaning: Word | None = None) -> pint.Quantity:
        meaning = meaning or read_word(text, self.reading)
        self.has_unit = self.has_unit or meaning.is_unit
        self.has_magnitude = self.has_magnitude or not meaning.is_unit
        return meaning.quantity

    def is_word(self, offset: int = 0) -> bool:
        token = self.peek(offset)
        return token is not None and token.kind == "word"

    def run_goes_on(self) -> bool:
        """Whether another unit follows in the same run: a word, or ``*``/``/`` and a word."""
        return self.is_word() or (self.is_op("*/") and self.is_word(1))

    def units(self) -> pint.Quantity:
        q = self.unit(first=True)
        while True:
            if self.is_word():  # "KiB per token", "billion bytes"
                q = _combine(q, "*", self.unit())
            elif self.is_op("*/") and self.is_word(1):
                op = self.take().text
                q = _combine(q, op, self.unit())
            else:
                return q

    def unit(self, *, first: bool = False) -> pint.Quantity:
        token = self.take()
        if token.kind != "word":
            raise ParseError(f"`{token.text}` is not a unit.", "")
        # "26B FLOPs", "128K": a suffix letter right after a number, before a unit word or ending the
        # run, where this reading allows it; "2 B/s" keeps its byte.
        before_unit = self.is_word()
        if first and not self.is_op("^") and (before_unit or not self.run_goes_on()):
            multiplier = read_multiplier(token.text, self.reading, before_unit=before_unit)
            if multiplier is not None:
                return self.word(token.text, multiplier)
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
        # pint annotates Quantity.units as its PlainUnit base class; a pint.Quantity's units are a pint.Unit.
        found = f"{describe_units(left.units)} and {describe_units(right.units)}"  # type: ignore[arg-type]
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


class _Reading(NamedTuple):
    """One way to read the tokens: the quantity, whether a unit was typed, and a magnitude word."""

    quantity: pint.Quantity
    has_unit: bool
    has_magnitude: bool


def _is_reciprocal(tokens: list[Token]) -> bool:
    """``1 / ...``: the way people write a rate as one over a time."""
    return (
        len(tokens) > 2 and tokens[0].kind == "num" and float(tokens[0].text) == 1 and tokens[1].text == "/"
    )


def _candidates(tokens: list[Token], reading: Reading) -> Iterator[_Reading]:
    """The quantities ``tokens`` can describe, the likelier first.

    A unit run at the end applies to a unitless head (``26e9/1.555e12 s``); only after a ``1 /``
    is the unit also tried bound to the number just before it (``1/9.24 ms`` = 1/(9.24 ms)), so
    that a time typed where a rate is asked is still named as a time.
    """
    start = _trailing_units_start(tokens)
    if start is not None:
        head = _Parser(tokens[:start], reading)
        try:
            head_value = head.parse()
        except GradingError:
            head_value = None
        if head_value is not None and not head.has_unit:
            units = _Parser(tokens[start:], reading)
            q = _check_finite(head_value * units.parse_units())
            yield _Reading(q, units.has_unit, head.has_magnitude or units.has_magnitude)
            if not _is_reciprocal(tokens):
                return
    parser = _Parser(tokens, reading)
    q = parser.parse()
    yield _Reading(q, parser.has_unit, parser.has_magnitude)


def _readings(expected: pint.util.UnitsContainer) -> Iterator[Reading]:
    """The readings of the words with two meanings, in the order they are tried."""
    yield Reading()
    yield Reading(flops_as_rate=True)
    lone = lone_multipliers(expected)
    yield Reading(lone_multipliers=lone)
    yield Reading(flops_as_rate=True, lone_multipliers=lone)


def _in_question_units(candidate: _Reading, unit: str) -> pint.Quantity:
    """The candidate with a bare number given its unit: the display unit, or its base unit when scaled."""
    if candidate.has_unit:
        return candidate.quantity
    if candidate.has_magnitude:  # "26 billion" on a GFLOP question is 26e9 FLOP
        return candidate.quantity * base_units(unit)
    return candidate.quantity * display_units(unit)


@lru_cache(maxsize=4096)
def parse_quantity(text: str, *, unit: str) -> Parsed:
    """Read ``text`` as a quantity of the kind display ``unit`` measures; return it in SI units.

    A bare number is read in ``unit`` (in its base unit when a magnitude word scales it). Raises a
    :class:`grader.errors.GradingError` subclass (``ParseError``, ``WrongDimensionError``,
    ``DisplayUnitError``) whose ``reason`` and ``hint`` say what was wrong and what to type instead.

    Cached: the reading depends on nothing but ``text`` and ``unit``, and the same answer is often
    graded again (a rerun of the page, the same figure for another seed). An error is not cached.
    """
    expected = dimensionality(unit)
    tokens = tokenize(tidy(text))
    if not tokens:
        raise ParseError("The answer is empty.", "")
    if not any(t.kind == "num" for t in tokens):
        raise ParseError("There is no number in it.", "")
    first_problem: GradingError | None = None
    for reading in _readings(expected):
        try:
            for candidate in _candidates(tokens, reading):
                q = _in_question_units(candidate, unit)
                if q.dimensionality == expected:
                    # pint annotates to_base_units() as returning its PlainQuantity base class; this
                    # registry's quantities are pint.Quantity.
                    value_si = float(_check_finite(q.to_base_units()).magnitude)  # type: ignore[arg-type]
                    if abs(value_si) > _LARGEST_FIGURE_SI:
                        raise NumberRangeError("That number is too large to grade.", "Check the exponent.")
                    return Parsed(value_si, has_unit=candidate.has_unit, scaled=candidate.has_magnitude)
                typed = [t.text for t in tokens if t.kind == "word"]
                # pint annotates Quantity.units as its PlainUnit base class; here it is a pint.Unit.
                first_problem = _first(first_problem, wrong_dimension(q.units, unit, typed))  # type: ignore[arg-type]
        except GradingError as exc:
            first_problem = _first(first_problem, exc)
    if isinstance(first_problem, UnknownUnitError) and not first_problem.hint:
        raise UnknownUnitError(first_problem.reason, units_hint(unit), word=first_problem.word)
    raise first_problem or ParseError("The answer cannot be read.", "")


def _first(problem: GradingError | None, later: GradingError) -> GradingError:
    """The problem to report: the first one met, unless that was a suffix letter a later reading read."""
    if isinstance(problem, UnknownUnitError) and problem.word in SUFFIX_MULTIPLIERS:
        return later
    return problem or later
