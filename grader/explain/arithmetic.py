"""Sums a candidate works out in the text, checked: "989e12 / 3.35e12 ≈ 29.5" is a slip.

An interviewer checks the arithmetic an answer shows. This module finds each worked sum: an
expression of numbers (``2 · 13e9``, ``989 T / 3.35 T``, ``4096³``, ``(6/8)^64``) set equal or about
equal (``=``, ``≈``, ``~``) to a plain number, evaluates it, and reports the sums whose result is off
by more than :data:`SLIP_RATIO` either way. Expressions with symbols (``peak / BW``) are skipped.

Units are read for their scale only: SI prefixes (``GB``, ``TFLOP/s``, ``ms``, ``989 T``) and number
words (``13 billion``). Where a unit reads two ways (``70B``: billion or bytes; a result with no unit
may be in ms) every reading is tried, and a sum is a slip only when no reading makes it right. So a
slip is always a wrong figure, never a notation the checker failed to follow. Nothing is ``eval``-ed:
a small recursive-descent parser reads the expression, and it never raises.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from grader.explain.text_match import MULTIPLIERS, NUMBER_WORDS

#: A worked result this many times too big or too small (or more) is a slip, not rounding.
SLIP_RATIO = 1.6
#: At most this many readings of one side are tried (units that read two ways multiply them).
_MAX_READINGS = 64

_SUPERSCRIPTS = {"²": 2.0, "³": 3.0, "⁴": 4.0}
_PREFIX = {
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "m": 1e-3,
    "µ": 1e-6,
    "μ": 1e-6,
    "u": 1e-6,
    "n": 1e-9,
}
_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# A unit after a number: an optional SI prefix (and "i" for binary), a base, an optional "/s" or "/B".
_UNIT = re.compile(
    r"(?P<prefix>[kKMGTPmµμun]?)(?P<bin>i?)"
    r"(?P<base>FLOPs|FLOP|flops|flop|ops|op|MACs|MAC|bytes|byte|B|b|s|sec|params|param|tokens|token|tok)"
    r"(?P<per>/s|/B|/byte|/token|/tok)?$"
)

_LEX = re.compile(
    r"\s*(?:"
    # A model's name is no product: "8x7B", "8×22B".
    r"(?P<name>\d+\s?[x×]\s?\d+[Bb]\b)"
    r"|(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"|(?P<pow10>[x×*·]\s*10\s*\^\s*[-+]?\d+)"
    r"|(?P<op>[×*·⋅÷/+^]|−|-(?=\s*[\d(.]))"
    r"|(?P<x>x(?=\s*[\d(]))"
    r"|(?P<sup>[²³⁴])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<rel>≈|~|=|≃|≅)"
    r"|(?P<pct>%)"
    r"|(?P<word>[^\W\d_][\w/]*)"
    r"|(?P<other>\S)"
    r")"
)


@dataclass(frozen=True)
class Slip:
    """A worked sum whose result is wrong: the expression and the result as typed, and what it comes to."""

    expression: str
    said: str
    worked: float
    start: int
    end: int
    #: The result's unit as typed ("ms"), and the worked figure in it (7.72 for 0.00772 s said in ms).
    unit: str = ""
    worked_in_unit: float | None = None

    def message(self) -> str:
        """How the page says it: "989e12 / 3.35e12 is about 295, not 29.5"."""
        if self.unit and self.worked_in_unit is not None:
            return (
                f"{self.expression} is about {plain_figure(self.worked_in_unit)} {self.unit}, not {self.said}"
            )
        return f"{self.expression} is about {plain_figure(self.worked)}, not {self.said}"


def plain_figure(value: float) -> str:
    """A worked figure as the page shows it (three significant digits)."""
    if value == 0 or not math.isfinite(value):
        return str(value)
    if 1e-3 <= abs(value) < 1e6:
        return f"{value:,.3g}"
    return f"{value:.3g}"


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


#: Numbers written as words: a sum that starts with one has a factor the arithmetic does not read
#: ("one" and "zero" change no product worth checking).
_FACTOR_WORDS = frozenset(
    {*NUMBER_WORDS, *MULTIPLIERS, "half", "twice", "double", "triple", "quarter"} - {"zero", "one"}
)

#: Words that divide when they stand between two quantities ("2·4096³ ops for 3·4096²·2 bytes").
_DIVIDING = frozenset(("over", "for", "per"))


#: A single letter, maybe with a power or an index ("n²", "L", "b2"), is a variable of the sum, not a
#: label naming a factor as "layers" or "d_model" does: "3n²·2 B ≈ 100 MB" has an unknown, so it is no
#: worked sum.
_VARIABLE = re.compile(r"[A-Za-z][²³⁴₀-₉0-9]?")


def _lex(text: str) -> list[_Tok]:
    raw: list[_Tok] = []
    for m in _LEX.finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue
        raw.append(_Tok(kind, m.group(kind), m.start(kind), m.end(kind)))
    # Words that sums are written with: "over" divides ("2·4096³ FLOPs over 3·4096²·2 bytes"), and a
    # label between a number and an operator names the factor ("2 × 40 layers × 40 heads").
    out: list[_Tok] = []
    for i, t in enumerate(raw):
        before = raw[i - 1] if i else None
        after = raw[i + 1] if i + 1 < len(raw) else None
        if t.kind == "word" and before is not None and after is not None and _is_arith(before):
            if t.text.lower() in _DIVIDING and after.kind in ("num", "lp"):
                out.append(_Tok("op", "/", t.start, t.end))
                continue
            if (
                _unit_scales(t.text) is None
                and not _VARIABLE.fullmatch(t.text)
                and before.kind in ("num", "word")
                and (after.kind == "x" or (after.kind == "op" and after.text in "×*·⋅/÷"))
            ):
                out.append(_Tok("label", t.text, t.start, t.end))
                continue
        out.append(t)
    return out


def _unit_scales(word: str) -> tuple[float, ...] | None:
    """The scales a word after a number may mean; None when it is no unit."""
    if word.lower() in _WORDS:
        return (_WORDS[word.lower()],)
    if word in _PREFIX and word not in ("m", "u", "n"):
        return (_PREFIX[word],)  # "989 T / 3.35 T"
    m = _UNIT.match(word)
    if m is None:
        return None
    prefix, base = m.group("prefix"), m.group("base")
    scale = _PREFIX.get(prefix, 1.0) * (
        1.024 ** {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4}.get(prefix, 0) if m.group("bin") else 1.0
    )
    if prefix in ("m", "µ", "μ", "u", "n") and base not in ("s", "sec"):
        return None  # "mB", "nb": no unit of the field
    if base == "B" and not prefix and not m.group("per"):
        return (1.0, 1e9)  # bytes, or billions of parameters ("70B")
    return (scale,)


class _Parser:
    """Recursive descent over the tokens of one side; each value is the set of its readings."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.ops = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def expr(self) -> list[float]:
        values = self.term()
        while (t := self.peek()) is not None and t.kind == "op" and t.text in "+-−":
            self.i += 1
            self.ops += 1
            right = self.term()
            values = _combine(values, right, (lambda a, b: a + b) if t.text == "+" else (lambda a, b: a - b))
        return values

    def term(self) -> list[float]:
        """A product; after a "/" people often mean the whole rest of it as the denominator
        ("2·4096³ / 3·4096²·2"), so that reading is kept beside the strict one."""
        values = self.factor()
        greedy: list[float] | None = None  # the reading with everything after the first "/" below it
        while (t := self.peek()) is not None and (t.kind == "x" or (t.kind == "op" and t.text in "×*·⋅÷/")):
            self.i += 1
            self.ops += 1
            right = self.factor()
            divide = t.text in "÷/"
            if greedy is not None:
                greedy = _combine(greedy, right, _multiply if divide else _divide)
            elif divide:
                greedy = _combine(values, right, _divide)
            values = _combine(values, right, _divide if divide else _multiply)
        return values if greedy is None else (values + greedy)[:_MAX_READINGS]

    def factor(self) -> list[float]:
        values = self.atom()
        while (t := self.peek()) is not None and (t.kind == "sup" or (t.kind == "op" and t.text == "^")):
            self.i += 1
            self.ops += 1
            power = [_SUPERSCRIPTS[t.text]] if t.kind == "sup" else self.atom()
            values = self.suffix(_combine(values, power, _power))
        return values

    def atom(self) -> list[float]:
        t = self.peek()
        if t is None:
            raise ValueError("expression ends early")
        if t.kind == "lp":
            self.i += 1
            values = self.expr()
            if (close := self.peek()) is None or close.kind != "rp":
                raise ValueError("unclosed bracket")
            self.i += 1
            return values
        if t.kind == "op" and t.text in "-−":
            self.i += 1
            return [-v for v in self.atom()]
        if t.kind != "num":
            raise ValueError("not a number")
        self.i += 1
        return self.suffix([float(t.text.replace(",", ""))])

    def suffix(self, values: list[float]) -> list[float]:
        """What may follow a number: "× 10^12", a unit, a label, a percent sign."""
        while (nxt := self.peek()) is not None:
            if nxt.kind == "pow10":
                exponent = int(re.sub(r"\D", "", nxt.text.split("^")[1]) or 0)
                sign = -1 if "-" in nxt.text.split("^")[1] else 1
                values = [v * 10.0 ** max(-300, min(300, sign * exponent)) for v in values]
            elif nxt.kind == "word" and (scales := _unit_scales(nxt.text)) is not None:
                values = [v * s for v in values for s in scales][:_MAX_READINGS]
            elif nxt.kind == "label":
                pass
            elif nxt.kind == "pct":
                values = [v / 100 for v in values]
            else:
                break
            self.i += 1
        return values


def _divide(a: float, b: float) -> float:
    return a / b if b else math.inf


def _multiply(a: float, b: float) -> float:
    return a * b


def _power(a: float, b: float) -> float:
    try:
        return float(a**b) if a > 0 or float(b).is_integer() else math.nan
    except (OverflowError, ZeroDivisionError):
        return math.inf


def _combine(left: list[float], right: list[float], op: Callable[[float, float], float]) -> list[float]:
    out: list[float] = []
    for a, b in itertools.islice(itertools.product(left, right), _MAX_READINGS):
        try:
            out.append(float(op(a, b)))
        except (OverflowError, ZeroDivisionError, ValueError):
            out.append(math.inf)
    return out


def _side(toks: list[_Tok]) -> tuple[list[float], int] | None:
    """All readings of a side and how many operators it has; None when it is not plain arithmetic."""
    if not toks:
        return None
    parser = _Parser(toks)
    try:
        values = parser.expr()
    except (ValueError, IndexError, KeyError):
        return None
    if parser.i != len(toks):
        return None
    finite = [v for v in values if math.isfinite(v) and v != 0]
    return (finite, parser.ops) if finite else None


_ARITH = frozenset(("num", "pow10", "op", "x", "sup", "lp", "rp", "pct", "label"))


def _is_arith(t: _Tok) -> bool:
    return t.kind in _ARITH or (t.kind == "word" and _unit_scales(t.text) is not None)


def _lefts(toks: list[_Tok], rel: int) -> list[list[_Tok]]:
    """The runs of arithmetic that end right before the relation at ``rel`` and parse as a sum,
    longest first: "137 GFLOP over 3·4096²·2 B ≈ 100 MB" may mean the last product alone."""
    start = rel
    while start > 0 and _is_arith(toks[start - 1]):
        start -= 1
    out: list[list[_Tok]] = []
    for begin in range(start, rel):
        if toks[begin].kind not in ("num", "lp"):
            continue
        # A run that starts inside a product or quotient is a factor of the sum, not the sum: in
        # "989e12 · 0.5 / (2 · 3.35e12) ≈ 7", "(2 · 3.35e12)" is no reading of the left side. Only a
        # word that divides ("137 GFLOP over 3·4096²·2 B") may start the sum it introduces.
        before = toks[begin - 1] if begin > start else None
        if before is not None and before.kind in ("op", "x") and before.end - before.start == 1:
            continue
        side = _side(toks[begin:rel])
        if side is not None and side[1] > 0:
            out.append(toks[begin:rel])
    return out


def _right(toks: list[_Tok], rel: int) -> list[_Tok]:
    """The plain number (with its unit) right after the relation at ``rel``; a leading "~" is allowed."""
    i = rel + 1
    if i < len(toks) and toks[i].kind == "rel" and toks[i].text == "~":
        i += 1
    if i >= len(toks) or toks[i].kind != "num":
        return []
    end = i + 1
    while end < len(toks) and (
        toks[end].kind in ("pow10", "pct")
        or (toks[end].kind == "word" and _unit_scales(toks[end].text) is not None)
    ):
        end += 1
    # A result that goes on with an operator starts the next sum ("= 26 GB / 1.5 TB/s"): not a result.
    if end < len(toks) and (toks[end].kind in ("op", "x", "sup") or toks[end].kind == "lp"):
        return []
    return toks[i:end]


def slips(text: str) -> list[Slip]:
    """Every worked sum in ``text`` whose typed result no reading of its units makes right."""
    try:
        toks = _lex(text)
        out: list[Slip] = []
        for rel, t in enumerate(toks):
            if t.kind != "rel":
                continue
            lefts, right = _lefts(toks, rel), _right(toks, rel)
            said = _side(right) if right else None
            if not lefts or said is None:
                continue
            readings = said[0]
            # A result typed without a unit may be in a unit the sum left implicit (ms for seconds).
            if len(right) == 1:
                readings = [r * 1000.0**k for r in readings for k in range(-4, 5)]
            # A sum of bare numbers is worked in its result's unit ("19.5 / 64 ≈ 0.3 ms").
            elif all(t.kind not in ("word", "label") for left in lefts for t in left):
                readings = [*readings, float(right[0].text.replace(",", ""))]
            first = toks.index(lefts[0][0])
            if first and toks[first - 1].kind == "word" and toks[first - 1].text.lower() in _FACTOR_WORDS:
                continue  # "three 4096×4096 sheets × 2 bytes ≈ 100 MB": a factor written as a word
            sums = [worked for left in lefts if (worked := _side(left)) is not None]
            if any(
                1 / SLIP_RATIO <= w / r <= SLIP_RATIO for worked, _ in sums for w in worked for r in readings
            ):
                continue
            left = lefts[0]
            values = sums[0][0]
            expression = text[left[0].start : left[-1].end]
            typed = text[right[0].start : right[-1].end]
            best = min(values, key=lambda w: min(abs(math.log(abs(w / r))) for r in said[0]))
            # The worked figure in the unit the result was typed in: its reading nearest the sum.
            typed_number = float(right[0].text.replace(",", ""))
            scale = (
                min(said[0], key=lambda r: abs(math.log(abs(best / r)))) / typed_number
                if typed_number
                else 0.0
            )
            unit = text[right[1].start : right[-1].end] if len(right) > 1 else ""
            in_unit = best / scale if scale else None
            out.append(Slip(expression, typed, best, left[0].start, right[-1].end, unit, in_unit))
        return out
    except Exception:  # a text is never an error: an unreadable sum is no slip
        return []


@dataclass(frozen=True)
class Stated:
    """A figure the text states as a result: after ``=``, ``≈``, ``~`` or "about", with its unit.

    ``readings`` are its values in the unit's base (bytes, seconds, FLOP/B) for every way the unit
    reads; ``unit`` is the unit as typed ("" when none).
    """

    typed: str
    readings: tuple[float, ...]
    unit: str
    start: int
    end: int
    #: The noun a figure without a unit counts ("~60 words per second"): "" when none follows.
    counts: str = ""


#: Words after which a number is stated as a result ("about 74", "roughly 0.4 MB").
_STATING = frozenset(("about", "around", "roughly", "approximately", "approx", "nearly", "circa", "ca"))


#: Words after a figure that go on with the sentence rather than name what the figure counts.
_NOT_COUNTED = frozenset(
    (
        *("a", "an", "and", "as", "at", "because", "but", "by", "for", "from", "if", "in", "is", "of"),
        *("on", "or", "per", "since", "so", "than", "that", "the", "then", "this", "to", "vs", "when"),
        *("where", "which", "while", "with"),
    )
)

#: Words before a figure that compare with it rather than state it ("above ~200", "less than ~1").
_COMPARING = frozenset(
    ("above", "below", "under", "over", "than", "vs", "versus", "beyond", "past", "exceeds")
)
#: Words after a figure that make it a ratio ("200x smaller", "10 times", "4-fold").
_RATIO_WORDS = frozenset(("x", "×", "times", "fold", "-fold"))


def _compared(toks: list[_Tok], i: int) -> bool:
    """The figure after ``toks[i]`` is one compared with: a comparing word or symbol stands within
    the few words before it ("above the A100's ~200", "≪ ~200")."""
    for before in reversed(toks[max(0, i - 5) : i]):
        if before.kind in ("num", "rel"):
            return False
        if before.text.lower() in _COMPARING or before.text in "<>≪≫≤≥":
            return True
    return False


def stated_results(text: str) -> list[Stated]:
    """Every figure ``text`` states as a result: the number (and unit) right after a relation
    (``=``, ``≈``, ``~``) or a word such as "about", that does not go on into a further sum."""
    try:
        toks = _lex(text)
        out: list[Stated] = []
        for i, t in enumerate(toks):
            if not (t.kind == "rel" or (t.kind == "word" and t.text.lower() in _STATING)):
                continue
            if _compared(toks, i):
                continue  # "above the A100's ~200": the figure compared with, not a result
            right = _right(toks, i)
            if not right:
                continue
            j = toks.index(right[-1]) + 1  # the token after the result
            after = toks[j] if j < len(toks) else None
            if after is not None and (after.kind == "x" or after.text.lower() in _RATIO_WORDS):
                continue  # "~200x smaller": a ratio between two figures, not a quantity
            if after is not None and after.kind == "word" and after.start == right[-1].end:
                continue  # "≈ 2T/2", "= 3n²": a term with a variable glued on, not a figure
            number = float(right[0].text.replace(",", ""))
            units = [u for u in right[1:] if u.kind == "word"]
            scales: tuple[float, ...] = (1.0,)
            if units:
                scales = _unit_scales(units[0].text) or (1.0,)
            if any(u.kind == "pct" for u in right[1:]):
                scales = (0.01,)
            unit = text[units[0].start : units[-1].end] if units else ""
            # "1365 ops per byte" is said in ops/byte.
            if units and j + 1 < len(toks) and toks[j].text.lower() == "per" and toks[j + 1].kind == "word":
                unit = f"{units[-1].text}/{toks[j + 1].text}"
            typed = text[right[0].start : right[-1].end]
            counts = ""
            if not unit and after is not None and after.kind == "word" and after.text.isalpha():
                counts = "" if after.text.lower() in _NOT_COUNTED else after.text.lower()
            readings = tuple(number * s for s in scales)
            out.append(Stated(typed, readings, unit, right[0].start, right[-1].end, counts))
        return out
    except Exception:  # a text is never an error: an unreadable figure is none
        return []


_BASES = {
    "flops": "flop",
    "flop": "flop",
    "ops": "flop",
    "op": "flop",
    "macs": "mac",
    "mac": "mac",
    "bytes": "byte",
    "byte": "byte",
    "b": "byte",
    "s": "s",
    "sec": "s",
    "params": "param",
    "param": "param",
    "tokens": "token",
    "token": "token",
    "tok": "token",
}


def unit_base(unit: str) -> tuple[str, float]:
    """A unit's base ("flop/byte", "byte", "s") and scale ("ms" → ("s", 1e-3)); ("", 1.0) when it is
    no unit of the field."""
    unit = unit.replace(" ", "")
    # A figure per token is the same quantity as the point's ("17 ms/tok" for a step time of 17 ms).
    for per_token in ("/token", "/tok"):
        unit = unit.removesuffix(per_token)
    head, slash, tail = unit.rpartition("/")
    if slash and tail.lower() in ("byte", "bytes"):
        unit = head + "/B"
    m = _UNIT.match(unit)
    if m is None:
        return "", 1.0
    base = _BASES.get(m.group("base").lower(), "")
    per = (m.group("per") or "").lower()
    per = {"/b": "/byte", "/tok": "/token"}.get(per, per)
    scales = _unit_scales(unit) or (1.0,)
    return base + per, scales[0]
