"""Which option a typed answer names: its number, its full text, or the words that set it apart.

People answer a choice the way they would say it: ``bandwidth-bound`` for "Bandwidth-bound; a bigger
batch is nearly free", ``memory-bound`` for "Memory-bandwidth-bound", ``doubles`` for "B* roughly
doubles". Words are compared without case, spacing or punctuation. An answer names an option
when its words appear, in order and side by side, in that option's head (the text before the first
``;``, ``:``, ``(`` or ``,``) and in no other option's head; failing that, in that option's whole
text and no other's. An answer that fits several options, or none, names none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+")
_HEAD_END = re.compile(r"[;:(,]")
# Spellings of one regime: "memory-bound" and "memory-bandwidth-bound" both mean bandwidth-bound.
_SYNONYMS = (
    (re.compile(r"\bmemory(?: bandwidth)?(?= bound\b)"), "bandwidth"),
    (re.compile(r"\bmem(?: bw)?(?= bound\b)"), "bandwidth"),
    (re.compile(r"\bbw(?= bound\b)"), "bandwidth"),
    (re.compile(r"\bmemory bandwidth\b"), "bandwidth"),
)


def words(text: str) -> tuple[str, ...]:
    """The words of ``text``, case-folded, with the regime synonyms made one."""
    joined = " ".join(_WORD.findall(text.casefold()))
    for pattern, replacement in _SYNONYMS:
        joined = pattern.sub(replacement, joined)
    return tuple(joined.split())


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


def _only(matches: list[int]) -> int | None:
    return matches[0] if len(matches) == 1 else None


def option_named(options: Sequence[str], response: str) -> int | None:
    """The index of the one option ``response`` names by its words, or None (see the module docstring)."""
    wanted = words(response)
    if not wanted:
        return None
    full = [words(text) for text in options]
    exact = [i for i, option in enumerate(full) if option == wanted]
    if exact:
        return _only(exact)
    heads = [words(_HEAD_END.split(text, maxsplit=1)[0]) for text in options]
    by_head = [i for i, head in enumerate(heads) if _contains(head, wanted)]
    if by_head:
        return _only(by_head)
    return _only([i for i, option in enumerate(full) if _contains(option, wanted)])
