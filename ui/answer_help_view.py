"""How the answer box reads what is typed, shown under every box that takes a figure.

Every answer the help quotes (each one in backticks) is listed in ``EXAMPLES`` with the question it
answers, and the tests grade each through the grader: the help cannot promise what the grader refuses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st


@dataclass(frozen=True)
class Example:
    """An answer the help quotes, and the question it is read against."""

    unit: str  #: the question's display unit: a bare number is read in it
    expected: float  #: the right answer, in SI base units
    right: bool  #: read and graded right; False: refused, not counted
    remark: bool = False  #: a figure with a remark, on a question that asks only for the figure


EXAMPLES: dict[str, Example] = {
    "16.7 ms": Example("ms", 0.0167, right=True),
    "800 KiB": Example("KiB", 800 * 1024, right=True),
    "312 TFLOP/s": Example("TFLOP/s", 312e12, right=True),
    "1.555 TB/s": Example("TB/s", 1.555e12, right=True),
    "40 tokens/s": Example("tokens/s", 40, right=True),
    "16.7": Example("ms", 0.0167, right=True),
    "26 GB / 1.555 TB/s ≈ 16.7 ms": Example("ms", 26e9 / 1.555e12, right=True),
    "2*13e9 B": Example("GB", 26e9, right=True),
    "1.6e-2 s": Example("ms", 0.016, right=True),
    "1,555,000": Example("tokens", 1_555_000, right=True),
    "about 20": Example("tokens", 20, right=True),
    "~17 ms": Example("ms", 0.017, right=True),
    "n = 740": Example("requests", 740, right=True),
    "740+": Example("requests", 740, right=True),
    "17 ms, bandwidth-bound": Example("ms", 0.017, right=True, remark=True),
    "16-17 ms": Example("ms", 0.0165, right=False),
    "26 gb": Example("GB", 26e9, right=False),
    "16.7 GB": Example("ms", 0.0167, right=False),
    "0.0167": Example("ms", 0.0167, right=False),
    "0.0167 s": Example("ms", 0.0167, right=True),
}

_HELP = """\
- **A figure with its unit:** `16.7 ms`, `800 KiB`, `312 TFLOP/s`, `1.555 TB/s`, `40 tokens/s`. \
A bare number such as `16.7` is read in the unit the box names.
- **Working is welcome:** the figure stated last is graded, as in `26 GB / 1.555 TB/s ≈ 16.7 ms`. \
Arithmetic and notation read too: `2*13e9 B`, `1.6e-2 s`, `1,555,000`.
- **Say it as you would aloud:** `about 20`, `~17 ms`, `n = 740`, `740+`.
- **A remark after the figure** passes where only the figure is asked for: `17 ms, bandwidth-bound`, \
and the feedback says the remark was not checked. A question that asks for a figure and a verdict \
takes both in that form, and grades both.
- **Units:** KB is 1000 B and KiB 1024 B; B is a byte and b a bit; FLOP is a count and FLOPS a rate.
- **Not read, so not counted:** a range such as `16-17 ms` (give one number), a unit that could mean \
two things such as `26 gb` (bytes or bits?), a figure of the wrong kind such as `16.7 GB` for a time, \
and a bare number right only in another unit, such as `0.0167` on a box in ms (that is 0.0167 ms; for \
seconds type `0.0167 s`), unless the question itself asks in that unit ("how many bytes"). \
You are told what to type instead, and can answer again.
- **How close is right** is the last line of every question: *exact* takes a few percent, *rough* at \
least ±10 %, and a *whole* count (how many fit) takes the floor, the nearest whole number or the unrounded \
quotient, and says which is strict.
"""


def _unbroken(markdown: str) -> str:
    """Each quoted answer kept on one line, its spaces made non-breaking: a phone would otherwise split
    `17 ms` after the figure. The grader reads a non-breaking space as a space, so a copied example
    still reads."""
    return re.sub(r"`[^`]+`", lambda quoted: quoted.group(0).replace(" ", "\u00a0"), markdown)


HELP_MARKDOWN = _unbroken(_HELP)


def show_answer_help() -> None:
    """A closed expander under an answer box: what the box reads, for whoever wonders before typing."""
    with st.expander("How answers are read", icon=":material/help:"):
        st.markdown(HELP_MARKDOWN)
