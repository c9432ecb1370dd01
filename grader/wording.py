"""Small rules of English for texts put together from parts: the article before a drawn name, a count's noun.

A prompt written once for every draw says "on a {gpu}" and "a batch of {batch} sequences"; the
draw decides whether that reads "an NVIDIA L4" and "1 sequence". Both rules go by how the words
are said: an initialism is read letter by letter ("an L4", "an H100", "a TPU"), a number as a
number ("an 8-minute mock", "an 11-layer model"), a word by its first sound ("a Llama", "an int8").
"""

from __future__ import annotations

import re

# Letters whose names start with a vowel sound (ef, aitch, el, em, en, ar, es, ex, and the vowels).
_VOWEL_SOUND_LETTERS = frozenset("AEFHILMNORSX")
# Words that start with a vowel letter but a consonant sound, and the reverse.
_CONSONANT_SOUND_WORDS = ("one", "once", "uni", "use", "usu", "user", "eu", "ubi", "ura")
_VOWEL_SOUND_WORDS = ("hour", "honest", "honour", "honor", "heir")
_MARKUP = re.compile(r"^[\s*_`]+")
_FIRST_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9,.]*")

#: Plural nouns a count in a text can carry, and their singular (``1 bytes`` → ``1 byte``).
SINGULAR: dict[str, str] = {
    word + "s": word
    for word in (
        "byte", "sequence", "token", "user", "step", "layer", "GPU", "chip", "request", "head",
        "element", "expert", "op", "parameter", "round", "kernel", "card", "minute", "second", "day",
        "question", "problem", "answer", "item", "review", "mock", "draft", "time", "point",
    )
}  # fmt: skip


def indefinite_article(text: str) -> str:
    """``a`` or ``an`` for the words that start ``text`` (markup such as ``**`` is skipped)."""
    match = _FIRST_WORD.search(_MARKUP.sub("", text))
    if match is None:
        return "a"
    return "an" if _vowel_sound(match.group(0)) else "a"


def with_article(text: str) -> str:
    """``text`` after its indefinite article: ``an 8-minute mock``, ``a Llama-2-7B``."""
    return f"{indefinite_article(text)} {text}"


def counted(n: float, noun: str) -> str:
    """``n`` and ``noun`` (given in the plural; its last word counts) agreeing: ``1 sequence``,
    ``4 sequences``, ``1 single problem``."""
    shown = f"{n:,g}" if isinstance(n, float) else f"{n:,}"
    head, _, last = noun.rpartition(" ")
    if n == 1:
        noun = f"{head} {SINGULAR.get(last, last)}".strip()
    return f"{shown} {noun}"


def _vowel_sound(word: str) -> bool:
    if word[0].isdigit():
        return _number_vowel_sound(word)
    letters = re.match(r"[A-Za-z]+", word)
    head = letters.group(0) if letters else word
    # An initialism (NVIDIA, AMD, H100, L4, MI300X, fp16) is said letter by letter; "int8" is a word.
    spelled = (head.isupper() and len(head) <= 6) or (
        len(head) <= 3 and head != word and not re.search(r"[aeiouAEIOU]", head)
    )
    if spelled:
        return head[0].upper() in _VOWEL_SOUND_LETTERS
    lower = head.lower()
    if lower.startswith(_VOWEL_SOUND_WORDS):
        return True
    if lower.startswith(_CONSONANT_SOUND_WORDS):
        return False
    return lower[0] in "aeiou"


def _number_vowel_sound(word: str) -> bool:
    digits = re.match(r"[\d,]+", word)
    if digits is None:
        return False
    groups = digits.group(0).strip(",").split(",")
    lead = groups[0] if len(groups) > 1 else digits.group(0).strip(",")
    if lead.startswith("8"):
        return True  # eight, eighty, eight hundred
    # eleven and eighteen (also as thousands, millions: "an 11,000-token prompt", "an 18k context")
    lead_group = lead if len(groups) > 1 else _leading_group(lead)
    return lead_group in ("11", "18")


def _leading_group(number: str) -> str:
    """The digits said first: ``11000`` → ``11`` (eleven thousand), ``118`` → ``118``."""
    head = len(number) % 3 or 3
    return number[:head]
