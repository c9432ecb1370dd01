"""Finding a rubric's phrases in free text: stems, numbers by value, typos, negation.

Deterministic and offline. Words are lower-cased, British spellings folded (``-ise`` → ``-ize``),
stemmed with the Snowball English stemmer (``decoding`` ~ ``decode``, ``bytes`` ~ ``byte``), and
filler words dropped, so ``limited by the HBM`` and ``limited by HBM`` read alike. Numbers are read
in the forms engineers write them (``1,365``, ``1.5e12``, ``3 × 10^12``, ``two``, ``13 billion``)
and compared by value within 10 %. A word of six letters or more also matches a near spelling
(``bandwith``), scored with rapidfuzz. A word that starts with a letter keeps its digits (``fp16``,
``int8``, ``A100`` are names, not numbers); one that starts with a digit splits (``2P`` ~ ``2 P``).
``/`` reads as ``per``, ``+`` as ``plus``, and hyphens split words, so ``FLOP/B`` ~ ``flop per
byte`` and ``memory-bound`` ~ ``memory bound``.

A phrase matches consecutive words of one sentence, allowing one extra word between two of its
words but no clause break (a comma, colon, bracket, "and", "but", "while"...) the phrase does not have
itself: "prefill is compute-bound and decode memory-bound" does not say "compute-bound decode". It
does not count when a negation (``not``, ``never``, ``isn't``...) comes in the three
words before it in the same sentence, or sits in a gap it skipped.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

import snowballstemmer
from rapidfuzz import fuzz, process

#: Relative difference within which two numbers are the same number.
NUMBER_REL_TOL = 0.10
#: Shortest word that may match a near spelling, and how near (rapidfuzz ratio, 0..100).
FUZZY_MIN_LETTERS = 6
FUZZY_MIN_RATIO = 88.0
#: Words between a negation and the phrase it negates, at most.
NEGATION_REACH = 3
#: Extra words allowed between two consecutive words of a phrase.
MAX_GAP = 1


def _words(text: str) -> list[str]:
    return text.split()


# Filler words carry no meaning for a key point; dropping them lets "limited by the HBM" read as
# "limited by HBM". Negations are kept (they block a match), and so is "only".
_STOPWORDS = frozenset(
    _words(
        "a an the is are was were be been being am it its it's this that these those of to in on at by for "
        "with from and or as than then there here which who what when where so such do does did has have "
        "had will would can could should may might must very really about around roughly approximately "
        "approx nearly almost some eg e g ie i also into onto we you they our your their my me us itself "
        "while whereas because since thus hence therefore basically essentially simply"
    )
)
_NEGATIONS = frozenset(
    _words("not no never none neither nor cannot cant isnt arent wasnt werent doesnt dont didnt wont")
)
_NUMBER_WORDS = {
    word: float(value)
    for value, word in enumerate(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty"
        )
    )
} | {
    "thirty": 30.0,
    "forty": 40.0,
    "fifty": 50.0,
    "sixty": 60.0,
    "seventy": 70.0,
    "eighty": 80.0,
    "ninety": 90.0,
    "twice": 2.0,
    "double": 2.0,
    "half": 0.5,
}
_MULTIPLIERS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Abbreviations folded to one word, so authors need not list both.
_CANONICAL = {"b": "byte", "flops": "flop", "params": "paramet", "param": "paramet", "attn": "attent"}

_SENTENCE_END = re.compile(r"[.!?;]\s|[.!?;]$|\n\s*\n|\n\s*[-*•]\s")
_NUMBER = (
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:\s*(?:[x×*·]\s*10\s*\^\s*(?P<pow>[-+]?\d+)|[eE](?P<exp>[-+]?\d+)\b))?"
)
_TOKEN = re.compile(
    _NUMBER + r"|(?P<word>[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?)|(?P<per>/)|(?P<pct>%)|(?P<plus>\+)", re.UNICODE
)
# Where one clause ends and another begins; a phrase does not reach across one it does not contain.
_CLAUSE_MARKS = re.compile(r"[,:()\[\]—–]")
_CLAUSE_WORDS = frozenset(_words("and but while whilst whereas or so although though yet"))
_ISE = re.compile(r"is(e|es|ed|ing|ation|ations)$")


@dataclass(frozen=True)
class Token:
    """One normalised word or number of a text, with where it came from (character offsets)."""

    norm: str
    number: float | None
    start: int
    end: int
    sentence: int
    clause: int = 0

    @property
    def negation(self) -> bool:
        return self.norm in _NEGATIONS


@dataclass(frozen=True)
class Match:
    """Where a phrase matched: token positions [first, last] and the original characters [start, end)."""

    first: int
    last: int
    start: int
    end: int


@functools.cache
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=8192)
def _normal_word(word: str) -> str:
    word = word.lower().replace("’", "'")
    if word.endswith("n't"):
        word = word[:-3] + "nt"
    word = word.replace("'", "")
    if word in _CANONICAL:
        return _CANONICAL[word]
    stem: str = _stemmer().stemWord(_ISE.sub(r"iz\1", word))
    return _CANONICAL.get(stem, stem)


def tokens(text: str) -> list[Token]:
    """The text's tokens, filler words dropped, numbers read by value, multipliers folded in."""
    ends = sorted(m.start() for m in _SENTENCE_END.finditer(text))
    out: list[Token] = []
    sentence = clause = last_end = 0
    for m in _TOKEN.finditer(text):
        while sentence < len(ends) and ends[sentence] < m.start():
            sentence += 1
        if _CLAUSE_MARKS.search(text, last_end, m.start()):
            clause += 1
        last_end = m.end()
        number: float | None = None
        if m.group("num") is not None:
            number = float(m.group("num").replace(",", ""))
            power = m.group("pow") or m.group("exp")
            if power is not None:
                number *= 10.0 ** int(power)
            norm = "#"
        elif m.group("per") is not None:
            norm = "per"
        elif m.group("pct") is not None:
            norm = "percent"
        elif m.group("plus") is not None:
            norm = "plus"
        else:
            raw = m.group("word").lower()
            if raw in _CLAUSE_WORDS:
                clause += 1
                continue
            if raw in _MULTIPLIERS and out and out[-1].number is not None and out[-1].sentence == sentence:
                last = out.pop()
                out.append(
                    Token(
                        "#", (last.number or 0.0) * _MULTIPLIERS[raw], last.start, m.end(), sentence, clause
                    )
                )
                continue
            if raw in _NUMBER_WORDS:
                number, norm = _NUMBER_WORDS[raw], "#"
            else:
                norm = _normal_word(raw)
                if norm in _STOPWORDS or raw in _STOPWORDS:
                    continue
        out.append(Token(norm, number, m.start(), m.end(), sentence, clause))
    return out


def _same_number(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=NUMBER_REL_TOL, abs_tol=1e-12)


class Text:
    """A text prepared for matching many phrases: its tokens and an index of its words."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokens(text)
        self._words = sorted({t.norm for t in self.tokens if t.number is None and not t.negation})
        self._near: dict[str, frozenset[str]] = {}

    def _word_matches(self, word: str) -> frozenset[str]:
        """The text's words that count as ``word`` (itself, and near spellings of a long word)."""
        if word not in self._near:
            found = {word}
            if len(word) >= FUZZY_MIN_LETTERS and word.isalpha():
                near = process.extract(
                    word, self._words, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN_RATIO, limit=None
                )
                found.update(candidate for candidate, _, _ in near if len(candidate) >= FUZZY_MIN_LETTERS)
            self._near[word] = frozenset(found)
        return self._near[word]

    def _same(self, token: Token, want: Token) -> bool:
        if want.number is not None:
            return token.number is not None and _same_number(token.number, want.number)
        return token.number is None and token.norm in self._word_matches(want.norm)

    def _negated(self, first: int, last: int) -> bool:
        sentence = self.tokens[first].sentence
        before = self.tokens[max(0, first - NEGATION_REACH) : first]
        inside = self.tokens[first : last + 1]
        return any(t.negation and t.sentence == sentence for t in before) or any(t.negation for t in inside)

    def find(self, phrase: Iterable[Token], *, negatable: bool = True) -> list[Match]:
        """Every un-negated place the phrase's tokens occur (one match per starting token)."""
        want = list(phrase)
        if not want:
            return []
        matches: list[Match] = []
        for begin, token in enumerate(self.tokens):
            if not self._same(token, want[0]):
                continue
            position, ok = begin, True
            for previous, word in itertools.pairwise(want):
                breaks = word.clause - previous.clause
                step = next(
                    (
                        p
                        for p in range(position + 1, min(position + 2 + MAX_GAP, len(self.tokens)))
                        if self.tokens[p].sentence == token.sentence
                        and self.tokens[p].clause - self.tokens[position].clause == breaks
                        and self._same(self.tokens[p], word)
                    ),
                    None,
                )
                if step is None:
                    ok = False
                    break
                position = step
            if not ok:
                continue
            # A negation written in the phrase itself is part of it; only one outside it negates.
            phrase_negates = any(w.negation for w in want)
            if negatable and not phrase_negates and self._negated(begin, position):
                continue
            matches.append(Match(begin, position, token.start, self.tokens[position].end))
        return matches


@functools.lru_cache(maxsize=4096)
def phrase_tokens(phrase: str) -> tuple[Token, ...]:
    """A rubric phrase as tokens (cached: rubrics are few and reused)."""
    return tuple(tokens(phrase))
