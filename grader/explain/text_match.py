"""Finding a rubric's phrases in free text: stems, numbers by value, typos, shorthand, negation.

Deterministic and offline. Words are lower-cased, British spellings folded (``-ise`` → ``-ize``),
stemmed with the Snowball English stemmer (``decoding`` ~ ``decode``, ``bytes`` ~ ``byte``), and
filler words dropped, so ``limited by the HBM`` and ``limited by HBM`` read alike. Numbers are read
in the forms engineers write them (``1,365``, ``1.5e12``, ``3 × 10^12``, ``two``, ``13 billion``)
and compared by value within 10 %; a number past float's range reads as infinite, never as an error.
A word of six letters or more also matches a spelling one edit away (two from ten letters), where a
swap of two neighbours counts as one edit (Damerau–Levenshtein: ``memroy``, ``comptue``,
``attenion``). A word that starts with a letter keeps its digits (``fp16``, ``int8``, ``A100`` are
names, not numbers); one that starts with a digit splits (``2P`` ~ ``2 P``). ``/`` reads as
``per``, ``+`` as ``plus``, and hyphens split words, so ``FLOP/B`` ~ ``flop per byte`` and
``memory-bound`` ~ ``memory bound``.

The field's shorthand reads as its words: ``BW`` bandwidth, ``mem`` memory, ``AI`` arithmetic
intensity, ``B*`` critical batch, ``bs`` batch size, ``TP``/``PP`` tensor/pipeline parallelism,
``w/o`` without; ``≠`` not; ``<``, ``≪`` read as below and
``>``, ``≫`` as above, ``↑``/``↓`` as up/down, ``∝`` as proportional, ``×`` (``2x``, ``×2``) as times,
and an arrow (``→``, ``->``, ``=>``) ends a clause as "so" does.

A phrase matches consecutive words of one sentence, allowing one extra word between two of its
words but no clause break (a comma, colon, bracket, "and", "but", "because"...) the phrase does not
have itself: "prefill is compute-bound and decode memory-bound" does not say "compute-bound
decode". Every negation (``not``, ``never``, ``isn't``, ``without``, ``rather than``...) reads as
one word, ``not``, and negates what follows it to the end of its clause; a negation that ends its
clause right before "because" or "since" negates the clause it introduces too ("not because it cuts
FLOPs"), and ``nor`` negates the clause it opens. A sentence that frames what it says as wrong ("it
is false that", "a common mistake", "a myth") rejects its clauses up to one that turns ("but",
"actually", "in fact"); so do the bullets under a heading such as "Mistakes to avoid:".
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

import snowballstemmer
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

#: Relative difference within which two numbers are the same number.
NUMBER_REL_TOL = 0.10
#: Shortest word that may match a spelling one edit away, and shortest that may be two away.
FUZZY_MIN_LETTERS = 6
FUZZY_TWO_EDITS_LETTERS = 10
#: Extra words allowed between two consecutive words of a phrase.
MAX_GAP = 1
#: The norm every negation reads as.
NOT = "not"
#: The norm of a multiplication sign, and of "times" right after a number ("2 times", "2x", "×2").
MULT = "mult"


def _words(text: str) -> list[str]:
    return text.split()


# Filler words carry no meaning for a key point; dropping them lets "limited by the HBM" read as
# "limited by HBM". Negations are kept (they block a match), and so is "only".
_STOPWORDS = frozenset(
    _words(
        "a an the is are was were be been being am it its it's this that these those of to in on at by for "
        "with from or as than then there here who what when where such do does did has have "
        "had will would can could should may might must very really about around roughly approximately "
        "approx nearly almost some eg e g ie i also into onto we you they our your their my me us itself "
        "thus hence therefore basically essentially simply"
    )
)
_NEGATIONS = frozenset(
    _words(
        "not no never none neither cannot cant isnt arent wasnt werent doesnt dont didnt wont wouldnt "
        "couldnt shouldnt hasnt havent hadnt aint without nothing"
    )
)
#: Negations that stand as an object ("costs nothing because ..."): they negate no reason after them.
_OBJECT_NEGATIONS = frozenset(_words("nothing none"))
#: Words that start a new clause (and are dropped); ``nor`` also negates the clause it opens.
_CLAUSE_WORDS = frozenset(
    _words("and but while whilst whereas or nor so although though yet because since however which whereby")
)
#: Clause openers that also start a new segment: where one claim ends and another may begin.
_SEGMENT_WORDS = frozenset(_words("and but while whilst whereas or nor although though yet however"))
#: Clause openers after which a negation ending the clause before carries on ("not because ...").
_CARRY_OPENERS = frozenset(_words("because since"))
#: Words after "neither" that it negates (to its "nor" or the clause's end, whichever is nearer).
_NEITHER_REACH = 1
#: Negations that set a short alternative aside ("instead of 2", "rather than per sequence"), and the
#: words they cover at most (a figure ends the alternative).
_SHORT_NEGATIONS = frozenset(("rather than", "instead of", "unlike"))
_SHORT_NEGATION_REACH = 3
#: Verbs that end what "unlike" sets aside: "unlike the weights grows with both" says the cache grows.
_ENDS_UNLIKE = frozenset(
    _words(
        "is are was were be grows grow stays stay reads read does do has have makes make gets get scales "
        "scale costs cost needs need takes take keeps keep fits fit goes go moves move runs run"
    )
)
#: Clause openers that turn a rejecting sentence back to the speaker's own claim.
_TURNS = frozenset(_words("but however yet whereas though although actually instead fact really rather :"))
# Words of a rejecting frame itself: a clause of only these holds no claim yet ("A common mistake: ...").
_FRAME_WORDS = frozenset(
    _words(
        "common typical classic frequent usual people some many think thinks say says saying thinking "
        "assume assuming believe natural popular take guess intuition interview interviews candidate "
        "candidates beginners newcomers heard hears folks thing explanation easy get upside down backwards "
        "naive answer belief assumption view"
    )
)
#: Words that frame a sentence's claim as wrong (checked on the raw, lower-cased word).
_REJECTING = frozenset(
    _words(
        "false untrue myth myths misconception misconceptions mistake mistakes mistaken mistakenly wrongly "
        "fallacy pitfall pitfalls incorrect incorrectly naively tempting erroneous "
        "misbelief slip misconceived trap traps misreading misreadings misunderstanding misunderstandings"
    )
)
#: Numbers written as words; ``MULTIPLIERS`` scale the number before them ("13 billion").
NUMBER_WORDS = {
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
}
MULTIPLIERS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Abbreviations folded to one word, so authors need not list both.
_CANONICAL = {
    "b": "byte",
    "flops": "flop",
    "params": "paramet",
    "param": "paramet",
    "attn": "attent",
    "ms": "millisecond",
}
# Shorthand engineers type, read as the words it stands for.
_SHORTHAND: dict[str, tuple[str, ...]] = {
    "bw": ("bandwidth",),
    "mem": ("memory",),
    "ai": ("arithmetic", "intensity"),
    "bs": ("batch", "size"),
    "bsz": ("batch", "size"),
    "comp": ("compute",),
    "perf": ("performance",),
    "seq": ("sequence",),
    "seqs": ("sequences",),
    "tok": ("token",),
    "toks": ("tokens",),
    "ctx": ("context",),
    "req": ("request",),
    "reqs": ("requests",),
    "mm": ("matmul",),
    "gemm": ("matmul",),
    "matmuls": ("matmul",),
    "elementwise": ("element", "wise"),
    "eltwise": ("element", "wise"),
    "thru": ("through",),
    "tp": ("tensor", "parallelism"),
    "pp": ("pipeline", "parallelism"),
    "disagg": ("disaggregation",),
    "iter": ("iteration",),
    "iters": ("iterations",),
    "sched": ("schedule",),
    "tput": ("throughput",),
    "thrpt": ("throughput",),
    "bc": ("because",),
    "cuz": ("because",),
    "coz": ("because",),
}
# Symbols read as words; "|" marks a clause break.
_SYMBOLS: dict[str, tuple[str, ...]] = {
    "<": ("below",),
    "≪": ("below",),
    "<<": ("below",),
    "≤": ("below",),
    ">": ("above",),
    "≫": ("above",),
    ">>": ("above",),
    "≥": ("above",),
    "↑": ("up",),
    "↓": ("down",),
    "∝": ("proportional",),
    "÷": ("per",),
    "×": (MULT,),
    "✕": (MULT,),
    "→": ("|",),
    "⇒": ("|",),
    "->": ("|",),
    "=>": ("|",),
    "w/o": (NOT,),
    "w/": ("with",),
    "b/c": ("|",),
    "b*": ("critical", "batch"),
    "≠": (NOT,),
    "!=": (NOT,),
    "rather than": (NOT,),
    "instead of": (NOT,),
    # "unlike sparse attention, it is exact": what "unlike" names is set aside, as "rather than" does,
    # but "unlike" is no "not" that a rubric's "does not grow" could take up.
    "unlike": ("unlike",),
}

# The full stop of an abbreviation ("e.g.", "i.e.", "etc.", "vs.", "approx.") ends no sentence.
_ABBREVIATION = r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bapprox)(?<!\bcf)"
_SENTENCE_END = re.compile(_ABBREVIATION + r"[.!?;]\s|[.!?;]$|\n\s*\n|\n\s*[-*•]\s|\n\s*\d+[.)]\s")
_NUMBER = (
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:\s*(?:[x×*·]\s*10\s*\^\s*(?P<pow>[-+]?\d+)|[eE](?P<exp>[-+]?\d+)\b))?"
)
_TOKEN = re.compile(
    r"(?P<sym>w/o|w/|b/c|\b[Bb]\*(?!\*)|rather\s+than|instead\s+of|\bunlike\b|->|=>|<<|>>|!=|[<>≪≫≤≥≠↑↓∝÷→⇒✕]|×(?=\s*\d)|(?<=\d)[x×](?![\w]))|"
    + _NUMBER
    + r"|(?P<word>[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?)|(?P<per>/)|(?P<pct>%)|(?P<plus>\+)",
    re.UNICODE | re.IGNORECASE,
)
# Where one clause ends and another begins; a phrase does not reach across one it does not contain.
_CLAUSE_MARKS = re.compile(r"[,:()\[\]—–]")
_ISE = re.compile(r"is(e|es|ed|ing|ation|ations)$")
# Framings that put what follows in someone else's mouth, to reject it.
_REJECTING_PHRASES = re.compile(
    r"\b(people|some|someone|somebody|many|folks|candidates|beginners|others|everyone|most)\b[\w\s,'’]{0,25}?"
    r"\b(think|thinks|say|says|believe|believes|assume|assumes|expect|expects|claim|claims|picture|pictures"
    r"|imagine|imagines|treat|treats|count|counts|plug|plugs|lump|lumps|quote|quotes|conflate|conflates"
    r"|confuse|confuses|mix\s+up|mixes\s+up|add\s+up|adds\s+up)\b"
    # "People often read low utilisation as compute-bound"; "a PM assumed the cache would fit".
    r"|\b(people|someone|somebody|folks|candidates|beginners|others)\s+(often\s+|sometimes\s+|usually\s+)?"
    r"(read|reads|misread|misreads|assumed|thought|believed)\b"
    # Hearsay without a subject: "there's a view that quantization only saves memory".
    r"|\bthere['’]?s\s+(a|one)\s+(common\s+|popular\s+|widespread\s+)?(view|belief|idea|notion)\s+that\b"
    # "wrong" rejects what it judges ("that's wrong", "it's wrong to think"), not what goes wrong.
    r"|\b(is|are|was|it['’]s|that['’]s|s)\s+(just\s+|simply\s+|plain\s+)?wrong\b|\bwrong\s+to\s+(think|say|assume)\b"
    r"|\b(common|typical|classic|frequent|usual|intuitive|naive|obvious|tempting|natural|popular)\s+"
    r"(mistake|slip|error|misconception|misunderstanding|trap|confusion|myth|answer|belief|assumption|guess"
    r"|intuition|instinct|take|reading|explanation|story|claim|view)"
    # "Don't assume ..." rejects; "I don't think ..." is the writer's own view, negated in its clause.
    r"|(?<!\bi\s)(?<!\bwe\s)\bdon['’]?t\s+(assume|think|expect|believe|trust|fall for|treat|confuse|count)\b"
    r"|\bwould\s+be\s+(wrong|a\s+mistake|incorrect)\b|\b(you|i|i['’]?ve|we['’]?ve)\s+(sometimes\s+|often\s+|also\s+)?(see|seen)\s+people\b"
    r"|\bdo not\s+(assume|think|expect|believe)\b"
    r"|\bit['’]?s\s+(actually\s+)?(the\s+)?(reverse|opposite)\b|\bnot that\b|\bintuition says\b"
    r"|\bthe idea that\b|\bone might think\b|\byou might think\b"
    r"|\b(it['’]?s|it\s+is)\s+easy\s+to\s+(think|assume|believe|imagine)\b|\bwrong\s+picture\b"
    r"|\bmix-?ups?\b|\bi\s+used\s+to\s+(think|believe|assume)\b"
    r"|\b(it['’]?s|it\s+is)\s+(sometimes|often)\s+(said|claimed|assumed)\b"
    r"|\byou['’]?ll (often |sometimes )?hear\b|\byou (often |sometimes )?hear (that|people)\b"
    r"|\bit['’]?s tempting to\b"
    r"|\b(people|some|many|folks)\s+lump\b"
    # Hearsay in the first person ("one explanation I've heard is that ...", "one sometimes hears that").
    r"|\b(i['’]?ve|i\s+have|we['’]?ve|one)\s+(sometimes\s+|often\s+|also\s+)?(heard|hears)\b"
    r"|\b(i|we)\s+(sometimes\s+|often\s+|also\s+|keep\s+)?hear(ing)?\b"
    r"|\beasy\s+to\s+get\s+(this\s+|it\s+|that\s+)?(wrong|backwards|upside\s+down|mixed\s+up|reversed)\b"
    # A counterfactual that prices the belief ("using 46.7B would overestimate compute by 3.6x").
    r"|\bwould\s+(overestimate|underestimate|overstate|understate|overcount|undercount|double-count)\b",
    re.IGNORECASE,
)
# A judgement on a claim, as the frames below say it ("that's wrong", "it is a myth that").
_JUDGEMENT = r"(false|untrue|not\s+true|a\s+myth|wrong|incorrect)"
# A frame that denies the whole statement after it, up to the full stop ("It is false that A; B").
_DENYING_FRAME = re.compile(
    r"\b(it\s+is|it['’]s|that\s+is|that['’]s)\s+(" + _JUDGEMENT + r"|not\s+the\s+case"
    r"|a\s+(common\s+)?(misunderstanding|misconception|mistake|fallacy))"
    r"\s+that\b"
    # A pseudo-cleft denies what it names: "What it does not do ... is make each decode step faster".
    r"|\bwhat\s+\w+(\s+\w+)?\s+(does\s+not|doesn['’]t|do\s+not|don['’]t|cannot|can['’]t|won['’]t|will\s+not)"
    r"\s+(do|fix|change|buy|help\s+with|speed\s+up)\b",
    re.IGNORECASE,
)
_STATEMENT_END = re.compile(_ABBREVIATION + r"[.!?](\s|$)|\n")
# A pseudo-cleft's denial ends at a colon that goes on to the writer's own account ("What it doesn't do
# is speed up decode: each GPU still reads its share"); "it is false that A: B" denies B with A.
_CLEFT_END = re.compile(_ABBREVIATION + r"[.!?](\s|$)|\n|:\s")


def _denial_end(frame: re.Match[str]) -> re.Pattern[str]:
    return _CLEFT_END if frame.group(0)[:4].lower() == "what" else _STATEMENT_END


# A short sentence that rejects the one before it, after the fact: "… share work. They don't."
_REJECTS_BEFORE = re.compile(
    r"(but\s+)?(that|this|which|it|they|neither|none|both|nope|no)?\W*"
    r"(((['’]s|is|are|was|were)\s+)?(just\s+|simply\s+|plain\s+)?(not\s+true|untrue|wrong|false|a\s+myth|incorrect"
    r"|not\s+right|not\s+the\s+case|right)"
    r"|don['’]?t|doesn['’]?t|isn['’]?t|aren['’]?t|won['’]?t|do\s+not|does\s+not|is\s+not|are\s+not)?\W*",
    re.IGNORECASE,
)
# Words that set what people think against the writer's claim, rather than rejecting the claim: "X,
# contrary to what people assume", "whatever people expect", "in the way one might think".
_ASIDE_BEFORE = re.compile(
    r"\b(contrary\s+to|unlike|whatever|despite|in\s+the\s+way|than|as)\s+(what\s+)?$", re.IGNORECASE
)
# A sentence that opens by rejecting the one before and goes on to say why ("No — it's not a semantic cache").
_REJECTS_BEFORE_OPENING = re.compile(
    r"\s*(no|nope|not\s+so|wrong)\s*[—–,:!]|\s*(no|nope)\s+-\s", re.IGNORECASE
)
# A verdict on the claim before it, after which "because" gives the writer's own reason ("For decode
# that's wrong, because decode time is the byte stream"), where "people think X because Y" does not.
_VERDICT = re.compile(
    r"\b(that|this|it)(['’]s|\s+is)\s+(just\s+|simply\s+|plain\s+)?" + _JUDGEMENT + r"\b",
    re.IGNORECASE,
)
# A predicate that dismisses its clause's subject: "memory traffic isn't really the bottleneck",
# "capacity is not what limits the batch", "the KV cache doesn't matter here".
_DISMISSING = re.compile(
    r"\b(isn['’]?t|is\s+not|aren['’]?t|are\s+not|wasn['’]?t|was\s+not|weren['’]?t|were\s+not)"
    r"\s+(really\s+|actually\s+|even\s+)?((the|a|an)\s+(real\s+|main\s+|actual\s+|big\s+)?"
    r"(bottleneck|issue|problem|limit|limiting\s+factor|constraint|story|slow\s+part|concern)"
    r"|what\s+(limits|sets|decides|matters|caps|bounds|dominates))\b"
    r"|\b(doesn['’]?t|does\s+not|don['’]?t|do\s+not)\s+(really\s+)?matter\b",
    re.IGNORECASE,
)
# A heading that introduces wrong beliefs ("Mistakes to avoid:", "Common misconceptions:").
_REJECTING_HEADING = re.compile(
    r"(mistake|misconception|myth|pitfall|wrong|not to say|avoid)[^\n]{0,40}:\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Token:
    """One normalised word or number of a text, with where it came from (character offsets).

    ``negated``: a negation earlier in its clause (or carried into it) covers it; ``rejected``: its
    sentence frames it as a wrong belief. ``raw`` is the word as typed, lower-cased.
    """

    norm: str
    number: float | None
    start: int
    end: int
    sentence: int
    clause: int = 0
    raw: str = ""
    negated: bool = False
    rejected: bool = False
    segment: int = 0
    #: Its clause opens with a pronoun ("it's per sequence"): the clause speaks of an earlier subject.
    refers: bool = False
    #: A frame denies the statement it stands in ("it is false that ..."): said, then denied.
    denied: bool = False
    #: Its clause goes on to say that what it names is not what matters ("memory traffic isn't
    #: really the bottleneck"): the subject of a dismissal, said and set aside.
    dismissed: bool = False

    @property
    def negation(self) -> bool:
        return self.norm == NOT


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
    if word in _NEGATIONS:
        return NOT
    if word in _CANONICAL:
        return _CANONICAL[word]
    stem: str = _stemmer().stemWord(_ISE.sub(r"iz\1", word))
    return _CANONICAL.get(stem, stem)


def _number(m: re.Match[str]) -> float:
    """The number a match spells, infinite past float's range (never an OverflowError)."""
    mantissa = m.group("num").replace(",", "")
    power = m.group("pow") or m.group("exp")
    if power is None:
        return float(mantissa)
    # An exponent of any length is clipped: past ±10⁶ the value is inf or 0 either way.
    exponent = (
        max(-(10**6), min(10**6, int(power))) if len(power) < 12 else (-1 if power[0] == "-" else 1) * 10**6
    )
    # float() of a decimal string saturates to inf or 0 instead of raising, as 10.0 ** 400 would.
    return float(f"{mantissa}e{exponent}")


#: What may stand between the words of one number: "twenty-four", "two hundred and forty".
_JOINS_NUMBER = re.compile(r"\s*-\s*|\s+(and\s+)?")
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")


def _adds_to(parts: tuple[float, float], value: float) -> bool:
    """Whether a number word goes on the number written so far (its completed groups, its last group):
    tens after hundreds or thousands ("two hundred forty"), units after tens ("twenty-four")."""
    high, low = parts
    if low == 0:
        return high > 0 and value < 1000
    if low % 100 == 0:
        return value < 100
    return low % 10 == 0 and low % 100 >= 20 and value < 10


@dataclass
class _Raw:
    """A token before the negation and rejection scopes are known."""

    norm: str
    number: float | None
    start: int
    end: int
    sentence: int
    clause: int
    raw: str
    segment: int = 0


#: Words that, opening a clause, refer back to an earlier subject.
_PRONOUNS = frozenset(_words("it its it's they their they're them this these those"))


def _raw_tokens(text: str) -> tuple[list[_Raw], dict[int, str], set[int], set[int]]:
    """Tokens, the word that opened each clause, the clauses a negation carries into, and the
    clauses whose first word is a pronoun."""
    ends = sorted(m.start() for m in _SENTENCE_END.finditer(text))
    out: list[_Raw] = []
    openers: dict[int, str] = {}
    carried: set[int] = set()
    referring: set[int] = set()
    # Numbers written in words, by their token's place in ``out``: the completed groups ("twenty
    # thousand") and the group being written ("four hundred"), so the words after them can add on.
    spelled: dict[int, tuple[float, float]] = {}
    sentence = clause = segment = last_end = 0

    def new_clause(opener: str = "") -> None:
        nonlocal clause, segment
        clause += 1
        openers[clause] = opener
        if opener in _SEGMENT_WORDS or opener == ";":
            segment += 1

    for m in _TOKEN.finditer(text):
        while sentence < len(ends) and ends[sentence] < m.start():
            sentence += 1
            new_clause(";")
        if (mark := _CLAUSE_MARKS.search(text, last_end, m.start())) is not None:
            # A colon or a dash introduces what follows: after a rejected claim, the correction.
            new_clause(":" if mark.group(0) in ":—–" else "")
        last_end = m.end()
        if m.group("sym") is not None:
            symbol = re.sub(r"\s+", " ", m.group("sym").lower())
            words = _SYMBOLS.get(symbol, (MULT,) if symbol in "x×" else ())
            for word in words:
                if word == "|":
                    new_clause()
                    continue
                norm = word if word in (NOT, MULT) else _normal_word(word)
                raw = symbol if symbol in _SHORT_NEGATIONS else word
                out.append(_Raw(norm, None, m.start(), m.end(), sentence, clause, raw, segment))
            continue
        if m.group("num") is not None:
            out.append(_Raw("#", _number(m), m.start(), m.end(), sentence, clause, m.group(0), segment))
            continue
        if m.group("per") is not None:
            out.append(_Raw("per", None, m.start(), m.end(), sentence, clause, "/", segment))
            continue
        if m.group("pct") is not None:
            out.append(_Raw("percent", None, m.start(), m.end(), sentence, clause, "%", segment))
            continue
        if m.group("plus") is not None:
            out.append(_Raw("plus", None, m.start(), m.end(), sentence, clause, "+", segment))
            continue
        raw = m.group("word").lower().replace("’", "'")
        if raw in _PRONOUNS and not (out and out[-1].clause == clause):
            referring.add(clause)
        if raw == "and" and (parts := spelled.get(len(out) - 1)) and sum(parts) and parts[1] % 100 == 0:
            # "two hundred and forty": the "and" inside a number written as words joins no clauses.
            after = _NEXT_WORD.match(text, m.end())
            if after is not None and after.group(1).lower() in NUMBER_WORDS:
                continue
        if raw in _CLAUSE_WORDS:
            # "not because X": the negation carries into the reason. "Costs nothing because X" says X.
            if (
                raw in _CARRY_OPENERS
                and out
                and out[-1].norm == NOT
                and out[-1].raw not in _OBJECT_NEGATIONS
                and out[-1].clause == clause
            ):
                carried.add(clause + 1)
            new_clause(raw)
            if raw == "nor":
                carried.add(clause)
            continue
        if raw in MULTIPLIERS and out and out[-1].number is not None and out[-1].sentence == sentence:
            last = out[-1]
            if (parts := spelled.get(len(out) - 1)) is not None:
                # "eight hundred and twenty thousand": "hundred" scales the group being written,
                # "thousand" and above close it.
                high, low = parts
                parts = (high, low * 100) if raw == "hundred" else (high + (low or 1) * MULTIPLIERS[raw], 0.0)
                spelled[len(out) - 1] = parts
                last.number = sum(parts)
            else:
                last.number = (last.number or 0.0) * MULTIPLIERS[raw]
            last.end = m.end()
            continue
        if raw in NUMBER_WORDS:
            value = NUMBER_WORDS[raw]
            parts = spelled.get(len(out) - 1)
            if (
                parts is not None
                and out[-1].sentence == sentence
                and _adds_to(parts, value)
                and _JOINS_NUMBER.fullmatch(text, out[-1].end, m.start())
            ):
                # "twenty-four", "two hundred and forty": one number, written in words.
                parts = (parts[0], parts[1] + value)
                spelled[len(out) - 1] = parts
                out[-1].number = sum(parts)
                out[-1].end = m.end()
                continue
            spelled[len(out)] = (0.0, value)
            out.append(_Raw("#", value, m.start(), m.end(), sentence, clause, raw, segment))
            continue
        if raw in ("times", "x") and out and out[-1].number is not None and out[-1].end >= m.start() - 1:
            out.append(_Raw(MULT, None, m.start(), m.end(), sentence, clause, raw, segment))
            continue
        for word in _SHORTHAND.get(raw, (raw,)):
            norm = _normal_word(word)
            if norm in _STOPWORDS or word in _STOPWORDS:
                continue
            out.append(_Raw(norm, None, m.start(), m.end(), sentence, clause, word, segment))
    return out, openers, carried, referring


def _rejects_before(sentence: str) -> bool:
    """The sentence does nothing but reject: "They don't.", "That's a myth.", "Neither is right."."""
    m = _REJECTS_BEFORE.fullmatch(sentence)
    if m is None:
        return False
    # A bare subject ("They.") or "right" with no "neither" or "none" before it rejects nothing.
    words = re.findall(r"[a-z'’]+", sentence.lower())
    if len(words) == 1 and words[0] not in ("no", "nope", "wrong", "false", "untrue"):
        return False
    return bool(words) and (words[-1] != "right" or words[0] in ("neither", "none"))


def _rejected_sentences(text: str, raw: list[_Raw]) -> dict[int, int]:
    """Sentence → the first clause from which it rejects (every clause of a bullet under a heading)."""
    out: dict[int, int] = {}
    for t in raw:
        if t.raw in _REJECTING and t.sentence not in out:
            out[t.sentence] = t.clause
    for m in _REJECTING_PHRASES.finditer(text):
        if _ASIDE_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue  # "X, contrary to what people assume": X is the writer's own claim
        at = next((t for t in raw if t.end > m.start()), None)
        if at is not None and at.sentence not in out:
            out[at.sentence] = at.clause
    # A short sentence that only rejects ("They don't.", "Neither is right.") rejects the one before.
    # Sentences are numbered as the tokens are: by the sentence ends before them.
    ends = sorted(m.start() for m in _SENTENCE_END.finditer(text))
    bounds = [0, *(end + 1 for end in ends), len(text)]
    for sentence in range(1, len(bounds) - 1):
        said = text[bounds[sentence] : bounds[sentence + 1]].strip()
        if said and (
            (len(said.split()) <= 4 and _rejects_before(said)) or _REJECTS_BEFORE_OPENING.match(said)
        ):
            out[sentence - 1] = -1
    # Bullets under "Mistakes to avoid:" (up to a blank line) are rejected whole.
    for heading in re.finditer(r"^[^\n]*$", text, re.MULTILINE):
        if not _REJECTING_HEADING.search(heading.group(0)):
            continue
        block_end = text.find("\n\n", heading.end())
        block_end = len(text) if block_end < 0 else block_end
        for t in raw:
            if heading.end() < t.start < block_end:
                out.setdefault(t.sentence, -1)
                out[t.sentence] = -1
    return out


def tokens(text: str) -> list[Token]:
    """The text's tokens, filler dropped, numbers read by value, negation and rejection scoped."""
    raw, openers, carried, referring = _raw_tokens(text)
    rejecting = _rejected_sentences(text, raw)
    negating_clauses = set(carried)
    out: list[Token] = []
    # A rejection stops at the first clause of its sentence that turns ("but", "actually"...).
    turned: dict[int, int] = {}
    claim_in: dict[int, int] = {}  # clause → its tokens that are not the frame's own words
    for t in raw:
        if t.raw not in _REJECTING and t.raw not in _FRAME_WORDS:
            claim_in[t.clause] = claim_in.get(t.clause, 0) + 1
    # A frame that ends its sentence on its own ("..., not once per sequence — a common
    # misunderstanding") judges the clause right before it, not the whole sentence.
    clauses: dict[int, list[int]] = {}  # sentence → its clauses that hold a word, in order
    for t in raw:
        held = clauses.setdefault(t.sentence, [])
        if not held or held[-1] != t.clause:
            held.append(t.clause)
    trailing = {
        sentence: held[-2]
        for sentence, first in rejecting.items()
        if len(held := clauses.get(sentence, [])) > 1 and held[-1] == first and not claim_in.get(first, 0)
    }
    verdicts: dict[int, int] = {}  # sentence → the clause of its verdict ("that's wrong")
    for m in _VERDICT.finditer(text):
        at = next((t for t in raw if t.end > m.start()), None)
        if at is not None:
            verdicts.setdefault(at.sentence, at.clause)
    for t in raw:
        first = rejecting.get(t.sentence)
        if first is None or t.sentence in turned:
            continue
        opener = openers.get(t.clause, "")
        if opener in _CARRY_OPENERS and t.clause > verdicts.get(t.sentence, t.clause):
            turned[t.sentence] = t.clause  # "that's wrong, because <the writer's reason>"
            continue
        # A colon turns only once the rejected claim has been said ("X is a myth: in fact ...").
        claim_said = opener != ":" or any(claim_in.get(c, 0) for c in range(first, t.clause))
        if t.clause > first >= 0 and opener in _TURNS and claim_said:
            turned[t.sentence] = t.clause
        if t.raw in _TURNS and t.clause > first >= 0:
            turned.setdefault(t.sentence, t.clause)
    denied = [
        (m.start(), end.start() if (end := _denial_end(m).search(text, m.end())) else len(text))
        for m in _DENYING_FRAME.finditer(text)
    ]
    dismissed: set[int] = set()  # tokens (by position in ``raw``) a later predicate dismisses
    for m in _DISMISSING.finditer(text):
        where = next((i for i, t in enumerate(raw) if t.end > m.start()), None)
        if where is None:
            continue
        clause = raw[where].clause
        i = where - 1
        while i >= 0 and raw[i].clause == clause:
            dismissed.add(i)
            i -= 1
    seen_negation: set[int] = set()
    near_neither: dict[int, int] = {}  # clause → tokens still covered by a "neither" in it
    previous_clause = -1
    unlike: dict[int, bool] = {}  # clause → its short negation is "unlike"
    for position, t in enumerate(raw):
        if t.clause != previous_clause:
            # "rather than A or B", "unlike sparse or low-rank attention": the alternatives set aside
            # go on past "or", within what is left of the reach.
            if openers.get(t.clause) == "or" and near_neither.get(previous_clause, 0) > 0:
                near_neither[t.clause] = near_neither[previous_clause]
                unlike[t.clause] = unlike.get(previous_clause, False)
            previous_clause = t.clause
        if unlike.get(t.clause) and t.raw in _ENDS_UNLIKE:
            near_neither[t.clause] = 0
        negated = (
            t.clause in negating_clauses or t.clause in seen_negation or near_neither.get(t.clause, 0) > 0
        )
        if t.clause in near_neither:
            # A figure ends a short alternative ("instead of 2 halves it" sets aside the 2 alone).
            near_neither[t.clause] = 0 if t.number is not None else near_neither[t.clause] - 1
        if t.raw == "neither":
            # "neither X nor Y": "neither" covers its own few words, "nor" the clause it opens.
            near_neither[t.clause] = _NEITHER_REACH
        elif t.raw in _SHORT_NEGATIONS:
            unlike[t.clause] = t.raw == "unlike"
            # "1 byte instead of 2 halves it": the alternative set aside is a short phrase (a few
            # words, or one figure), and what follows it is said.
            near_neither[t.clause] = _SHORT_NEGATION_REACH
        elif t.norm == NOT:
            seen_negation.add(t.clause)
        first = rejecting.get(t.sentence)
        turn = turned.get(t.sentence)
        in_denial = any(start <= t.start < end for start, end in denied)
        judged = first is not None and t.clause >= trailing.get(t.sentence, 0)
        rejected = (judged and (turn is None or t.clause < turn)) or in_denial
        out.append(
            Token(
                t.norm,
                t.number,
                t.start,
                t.end,
                t.sentence,
                t.clause,
                t.raw,
                negated,
                rejected,
                t.segment,
                refers=t.clause in referring,
                denied=in_denial,
                dismissed=position in dismissed,
            )
        )
    return out


def _same_number(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=NUMBER_REL_TOL, abs_tol=1e-12)


def _max_edits(word: str) -> int:
    if len(word) >= FUZZY_TWO_EDITS_LETTERS:
        return 2
    return 1 if len(word) >= FUZZY_MIN_LETTERS else 0


class Text:
    """A text prepared for matching many phrases: its tokens and an index of its words."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokens(text)
        self._raw_words = sorted(
            {t.raw for t in self.tokens if t.number is None and t.raw.isalpha() and len(t.raw) >= 5}
        )
        self._near: dict[str, frozenset[str]] = {}
        # Where each word stands, so that a phrase is looked for only where its first word is.
        self._by_norm: dict[str, list[int]] = {}
        self._by_raw: dict[str, list[int]] = {}
        self._numbers: list[int] = []
        self._start_cache: dict[tuple[str, str, float | None], list[int]] = {}
        for position, token in enumerate(self.tokens):
            if token.number is not None:
                self._numbers.append(position)
                continue
            self._by_norm.setdefault(token.norm, []).append(position)
            self._by_raw.setdefault(token.raw, []).append(position)

    def _starts(self, want: Token) -> list[int]:
        """The positions of the tokens that are the same as ``want``, in order (see :meth:`_same`)."""
        key = (want.norm, want.raw, want.number)
        if (known := self._start_cache.get(key)) is not None:
            return known
        found = self._find_starts(want)
        self._start_cache[key] = found
        return found

    def _find_starts(self, want: Token) -> list[int]:
        if want.number is not None:
            number = want.number
            return [p for p in self._numbers if _same_number(self.tokens[p].number or 0.0, number)]
        found = set(self._by_norm.get(want.norm, ()))
        for raw in self._near_spellings(want.raw):
            found.update(self._by_raw.get(raw, ()))
        return sorted(found)

    def _near_spellings(self, raw: str) -> frozenset[str]:
        """The text's raw words within the allowed edits of ``raw`` (a phrase word as written)."""
        if raw not in self._near:
            edits = _max_edits(raw)
            found: set[str] = set()
            if edits and raw.isalpha():
                near = process.extract(
                    raw, self._raw_words, scorer=DamerauLevenshtein.distance, score_cutoff=edits, limit=None
                )
                found.update(c for c, _, _ in near if len(c) >= FUZZY_MIN_LETTERS - 1)
            self._near[raw] = frozenset(found)
        return self._near[raw]

    def _same(self, token: Token, want: Token) -> bool:
        if want.number is not None:
            return token.number is not None and _same_number(token.number, want.number)
        if token.number is not None:
            return False
        return token.norm == want.norm or token.raw in self._near_spellings(want.raw)

    def find(
        self, phrase: Iterable[Token], *, negatable: bool = True, dismissable: bool = False
    ) -> list[Match]:
        """Every place the phrase's tokens occur, un-negated and un-rejected unless told otherwise.

        A negation the phrase itself holds is part of it ("does not help"): then only a negation
        before it in the clause, or a rejecting frame, keeps it from counting.
        """
        want = list(phrase)
        if not want:
            return []
        starts = self._starts(want[0])
        if not starts:
            return []  # most phrases of a rubric are not in a given text: done before anything else
        phrase_negates = any(w.negation for w in want)
        matches: list[Match] = []
        for begin in starts:
            token = self.tokens[begin]
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
                # A negation skipped over in a gap negates the phrase ("more bandwidth won't help").
                if not phrase_negates and any(t.negation for t in self.tokens[position + 1 : step]):
                    ok = False
                    break
                position = step
            if not ok:
                continue
            if negatable and self._blocked(
                begin, position, phrase_negates=phrase_negates, dismissable=dismissable
            ):
                continue
            matches.append(Match(begin, position, token.start, self.tokens[position].end))
        return matches

    def denies(self, match: Match, *, phrase_negates: bool) -> bool:
        """The match stands under its own clause's negation or a denying frame ("it is false that"),
        not merely in a sentence that rejects something: what its sentence says is the match's opposite."""
        span = self.tokens[match.first : match.last + 1]
        if any(t.denied for t in span):
            return True
        if phrase_negates:
            return span[0].negated
        return any(t.negated for t in span)

    def _blocked(self, first: int, last: int, *, phrase_negates: bool, dismissable: bool) -> bool:
        span = self.tokens[first : last + 1]
        if any(t.rejected for t in span):
            return True
        if phrase_negates:
            # "does not help" negated again ("it is not that X does not help") is rare; only the
            # negation before the phrase's own counts.
            head = self.tokens[first]
            return head.negated
        return any(t.negated or t.negation or (dismissable and t.dismissed) for t in span)


#: Room for every phrase of the shipped rubrics with their lexicon forms (about 7,200) and a user's own
#: bank beside them: a cache smaller than the phrases evicts them in turn and every check pays again.
PHRASE_CACHE = 32_768


@functools.lru_cache(maxsize=PHRASE_CACHE)
def phrase_tokens(phrase: str) -> tuple[Token, ...]:
    """A rubric phrase as tokens (cached: rubrics are few and reused)."""
    return tuple(t for t in tokens(phrase))
