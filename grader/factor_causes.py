"""Which factors of 2 a problem's derivation holds, so that a factor-2 hint names only real causes.

A worked step pairs a formula with the same formula with numbers put in
(``2 (K and V) · layers · KV heads · head dim · bytes per element`` with ``2 · 32 · 8 · 128 · 2 B``).
The factors of the two are lined up; a 2 counts as a cause when the formula says what it is:

- ``2 (K and V)``: keys and values, both cached;
- ``2 (read + write)``: every element read once and written once;
- ``4 · ... (Q·Kᵀ and A·V)``: two products, each at 2 FLOPs per multiply-add;
- any other literal 2 (``2 · P``, ``2 · m · k · n``, ``2 · batch``, ``/ (2 · bandwidth)``): 2 FLOPs
  per multiply-add;
- a ``bytes ...`` factor whose number is 2: 2 bytes per 16-bit value; one whose number is 1: 1 byte
  per 8-bit value (stored in 16 bits it takes 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from grader.estimator.derivation import Step

KEYS_AND_VALUES = "K and V (keys and values are both cached)"
TWO_PRODUCTS = "two products (Q·Kᵀ and the weighted sum over V)"
READ_AND_WRITE = "a read and a write of every element"
FLOPS_PER_MULTIPLY_ADD = "2 FLOPs per multiply-add"
BYTES_PER_16_BIT = "2 bytes per 16-bit value"
BYTES_PER_8_BIT = "1 byte per 8-bit value (2 would be 16-bit)"

# A note in brackets that explains a literal factor, and the causes of a factor of 2 it names.
_ANNOTATED = {
    "K and V": (KEYS_AND_VALUES,),
    "read + write": (READ_AND_WRITE,),
    "Q·Kᵀ and A·V": (TWO_PRODUCTS, FLOPS_PER_MULTIPLY_ADD),
}
_ANNOTATION = re.compile(r"\s*\(([^()]*)\)")
# Operators between factors; a "/" inside a unit (FLOP/s) has no space before it and is kept.
_SPLIT = re.compile(r"\s*(?:·|\s/|\(|\)|(?<!e)\+|−|,\s|\bmax\b|\bmin\b|⌊|⌋)\s*")
_NUMBER = re.compile(r"^(?P<number>[\d,]*\.?\d+(?:e[+-]?\d+)?)\s*[A-Za-z/]*$")


def _factors(text: str) -> list[str]:
    return [part for part in _SPLIT.split(text) if part.strip()]


def _number(text: str) -> float | None:
    match = _NUMBER.match(text.strip())
    return float(match.group("number").replace(",", "")) if match else None


def _step_causes(step: Step) -> list[str]:
    notes = [note for note in _ANNOTATED if f"({note})" in step.formula]
    causes = [cause for note in notes for cause in _ANNOTATED[note]]
    formula = _ANNOTATION.sub(lambda m: "" if m.group(1) in _ANNOTATED else m.group(0), step.formula)
    names, numbers = _factors(formula), _factors(step.substituted)
    if len(names) != len(numbers):  # not a product lined up term by term: only the annotations count
        return causes
    annotated_twos = sum(1 for note in notes if _ANNOTATED[note][0] in (KEYS_AND_VALUES, READ_AND_WRITE))
    for name, number in zip(names, numbers, strict=True):
        if _number(number) == 1 and name.strip().startswith("bytes"):
            causes.append(BYTES_PER_8_BIT)
        if _number(number) != 2:
            continue
        if name.strip() == "2":
            if annotated_twos:
                annotated_twos -= 1  # this 2 is the one its note explains
            else:
                causes.append(FLOPS_PER_MULTIPLY_ADD)
        elif name.strip().startswith("bytes"):
            causes.append(BYTES_PER_16_BIT)
    return causes


def factor_two_causes(derivation: Iterable[Step]) -> tuple[str, ...]:
    """The causes of a factor of 2 that ``derivation`` holds, each once, in the order met."""
    found: list[str] = []
    for step in derivation:
        for cause in _step_causes(step):
            if cause not in found:
                found.append(cause)
    return tuple(found)
