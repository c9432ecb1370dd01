"""Rewriting the notations people type into the answer grammar of :mod:`grader.parsing`.

What goes, in this order:

- quotes or backticks around the whole answer (`` `16.7 ms` ``);
- working before the result: only what follows the last ``=``, ``≈``, ``~``, ``≥``, ``>``,
  ``→`` or a colon after a word is read, so ``26 GB / 1.555 TB/s ≈ 16.7 ms``, ``n = 740``,
  ``B=295``, ``batch size: 295`` and ``n ≥ 740`` give the figure stated last;
- a leading label ``batch``, ``batch size``, ``a batch of``; a leading ``about``, ``approx.``,
  ``roughly``, ``at least``, ``at most``, ``up to``, ``over``...; a leading ``x`` or ``×`` (``x2``);
- a trailing ``approx``, ``roughly``, ``or so``, ``-ish``, ``total``, ``each``, ``max``, ``at
  least``, ``or more`` (in brackets or not), a ``+`` stuck to the end (``740+``), an ``of ...``
  that holds no digit (``4.2 GB of KV cache``), and ``.``, ``!`` (after a word), ``;``.

What is refused rather than guessed: an answer longer than :data:`MAX_CHARS` once normalised, a
``!`` after a number (``5!`` is no factorial the grader works out), and hexadecimal (``0x10``).

What is rewritten: ``×``, ``·``, ``x`` between numbers become ``*`` and ``**`` becomes ``^``;
superscripts (``10⁻²``) become powers; ``per`` becomes ``/``; thousands separators go
(``819,200``, ``819 200``, ``1_000``), while a comma that is not one (``1,5``) is refused.
"""

from __future__ import annotations

import re
import unicodedata

from grader.errors import ParseError

MAX_CHARS = 200
# Unicode normalisation can shrink text (a letter and its combining marks become one character),
# but never below a quarter; text longer than this cannot be short enough, so it is refused unread.
_MAX_SHRINK = 4

_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SYMBOLS = str.maketrans({"−": "-", "–": "-", "—": "-", "‐": "-", "×": "*", "✕": "*", "⨯": "*", "·": "*",
                          "⋅": "*", "∙": "*", "•": "*", "÷": "/", "⁄": "/"})  # fmt: skip
_QUOTES = "\"'`“”‘’"
# A relation sign: what stands after the last one is the answer, what stands before is working.
# A colon counts only after a word ("batch size: 295"), so that "1:30" is not split.
_RELATION = re.compile(r"=|≈|≃|≅|~(?!\d)|(?<!\d)~|≥|≳|>|→|(?<=[^\W\d_])\s*:")
_LABEL = re.compile(r"^(?:an?\s+)?batch(?:\s+size)?(?:\s+of)?\s*(?=[\d.])", re.I)
_APPROXIMATELY = re.compile(
    r"^\s*(?:about\b|approx\b\.?|approximately\b|around\b|roughly\b|circa\b|ca\.|at least\b|at most\b"
    r"|up to\b|above\b|over\b)\s*",
    re.I,
)
_LEADING_TIMES = re.compile(r"^[xX*]\s*(?=[\d.(])")
# A whole word, never the tail of one ("2 min total" keeps its "min"); "-ish" may stick to a unit.
_TRAILING_WORDS = re.compile(
    r"\s*(?:\(\s*)?(?:-ish|(?<![^\W\d_])(?:approx\b\.?|approximately|roughly|about|or so|ish|rounded"
    r"|in total|total|overall|each|max|maximum|at most|at best|at least|or more|and up|or above))"
    r"(?:\s*\))?\s*$",
    re.I,
)
_TRAILING_OF = re.compile(r"(?<=[^\W\d_])\s+of\s+[^\d]*$", re.I)
# "16-17 ms", "16 to 17": a range, not a subtraction (a larger number after a smaller one).
_RANGE = re.compile(r"^(?P<low>\d+\.?\d*)\s*(?:-|to)\s*(?P<high>\d+\.?\d*)(?![\d.eE^*/(])")
_TRAILING_PLUS = re.compile(r"(?<=[\w%)])\+$")
_THOUSANDS_COMMAS = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d,])")
_THOUSANDS_OTHER = re.compile(r"(?<![\w.^])\d{1,3}(?:([ _'’])\d{3})(?:\1\d{3})*(?![\w'’])")
_TIMES_X = re.compile(r"(?<=[\d.)])\s*[xX]\s*(?=[\d.(+-])")
_TRAILING_TIMES = re.compile(r"(?<=[\d)])\s*[xX*]\s*$")
# "per" after a letter is part of a word ("super"); after a digit it is not ("60per second").
_PER = re.compile(r"(?<![^\W\d_])per\b", re.I)
_FACTORIAL = re.compile(r"[\d)]\s*!")
_HEX = re.compile(r"(?<![\w.])0[xX][0-9a-fA-F]+\b")


def _normalized(text: str) -> str:
    """One kind of each symbol: superscripts as powers, Unicode minus and times as ASCII, no controls."""
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group().translate(_FROM_SUPERSCRIPT) + ")", text)
    text = unicodedata.normalize("NFKC", text).translate(_SYMBOLS)
    return "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text).strip()


def too_long(text: str, *, max_chars: int, what: str = "answer") -> ParseError | None:
    """The error for text longer than ``max_chars`` after Unicode normalisation, else None.

    Cheap on huge text: past ``_MAX_SHRINK`` × ``max_chars`` it is refused without being normalised.
    """
    if len(text) > _MAX_SHRINK * max_chars or len(unicodedata.normalize("NFKC", text)) > max_chars:
        return ParseError(
            f"That {what} is over {max_chars:,} characters long.",
            "Type just the answer: a number and its unit, or the option.",
        )
    return None


def _refuse_unread(text: str) -> None:
    """Refuse notations the grammar would otherwise misread: ``5!`` as 5, ``0x10`` as 0 × 10."""
    if _FACTORIAL.search(text):
        raise ParseError(
            "`!` cannot be read: a factorial is not worked out.", "Type the number itself, such as `120`."
        )
    if (hex_number := _HEX.search(text)) is not None:
        decimal = int(hex_number.group()[2:], 16)
        raise ParseError(
            f"`{hex_number.group()}` reads as hexadecimal, which the grader does not read.",
            f"Type it in decimal: `{decimal:,}`.",
        )


def _result(text: str) -> str:
    """The part after the last relation sign that holds a digit: the figure the answer states."""
    parts = [part for part in _RELATION.split(text) if re.search(r"\d", part)]
    return parts[-1].strip() if parts else text


def _strip_words(text: str) -> str:
    """The answer without the leading and trailing words that only qualify it."""
    text = _LABEL.sub("", text)
    while (match := _APPROXIMATELY.match(text)) is not None and match.end() > 0:
        text = text[match.end() :]
    text = _LEADING_TIMES.sub("", text)
    while True:
        shorter = _TRAILING_OF.sub("", _TRAILING_WORDS.sub("", text.rstrip(" .!;,")))
        if shorter == text:
            return text
        text = shorter


def _refuse_range(text: str) -> None:
    match = _RANGE.match(text)
    if match is not None and float(match.group("low")) < float(match.group("high")):
        raise ParseError(
            f"`{match.group()}` reads as a range.", "Give one number, such as the middle of your range."
        )


def tidy(text: str) -> str:
    """The answer with the notations people use rewritten into the grammar's; see the module docstring."""
    if (error := too_long(text, max_chars=MAX_CHARS)) is not None:
        raise error
    text = _normalized(text)
    _refuse_unread(text)
    text = _result(text.strip(_QUOTES + " "))
    text = _strip_words(text.replace("**", "^"))
    text = _TRAILING_PLUS.sub("", text)
    _refuse_range(text)
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
