"""Why an answer could not be graded, and what to type instead.

One small tree; every error is also a ``ValueError`` and carries two parts that the verdict
message shows: ``reason`` (what went wrong with the text) and ``hint`` (what to type instead).
``str(error)`` is both, joined.

- ``GradingError``: the base.
  - ``ParseError``: the text is not a quantity (no number, stray symbols, ``1,5``, too long).
    - ``UnknownUnitError``: a word that is not a unit the grader knows.
    - ``AmbiguousUnitError``: a unit that could mean two things (``gb``: gigabytes or gigabits?).
    - ``NumberRangeError``: a number too large or too small to be a float, or a bad power.
  - ``WrongDimensionError``: a readable quantity of the wrong kind (a time where bytes are
    asked); ``found`` and ``expected`` name both dimensions.
  - ``DisplayUnitError``: a question's own display unit is unreadable (a bank mistake).
"""

from __future__ import annotations


class GradingError(ValueError):
    """A response the grader cannot read; ``reason`` says why, ``hint`` what to type instead."""

    def __init__(self, reason: str, hint: str = "") -> None:
        self.reason = reason
        self.hint = hint
        super().__init__(f"{reason} {hint}".strip())


class ParseError(GradingError):
    """The text is not a number with a unit."""


class UnknownUnitError(ParseError):
    """A word in the answer is not a unit the grader knows; ``word`` is that word."""

    def __init__(self, reason: str, hint: str = "", *, word: str = "") -> None:
        self.word = word
        super().__init__(reason, hint)


class AmbiguousUnitError(ParseError):
    """A unit that could be read two ways, refused rather than guessed."""


class NumberRangeError(ParseError):
    """A number outside what a float holds, or a power that has no real value."""


class WrongDimensionError(GradingError):
    """A quantity of a different kind from the one the question asks for."""

    def __init__(self, reason: str, hint: str = "", *, found: str, expected: str) -> None:
        self.found = found
        self.expected = expected
        super().__init__(reason, hint)


class DisplayUnitError(GradingError):
    """A question's display unit that the unit registry cannot read."""
