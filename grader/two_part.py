"""Two-part answers: a figure and a verdict typed together, such as ``2 ms, bandwidth-bound``.

The verdict is found by the words of one of its options (see :mod:`grader.choosing`), wherever it
stands: after a comma, semicolon or dash (``2 ms, bandwidth-bound``), in brackets at the end
(``2 ms (bandwidth)``), before the figure (``bandwidth-bound: 2 ms``), or simply after it
(``2 ms bandwidth-bound``, ``2 ms so bandwidth-bound``). The rest is the figure, graded as any
numeric answer. Each part's result is reported; the score is the share of parts right.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from grader.choosing import option_named
from grader.problem import ChoicePart
from grader.units import dimension_name
from grader.verdict import PartResult, Verdict, VerdictStatus

_DIGIT = re.compile(r"\d")
_TRAILING_BRACKET = re.compile(r"^(?P<figure>.*?)\s*\((?P<verdict>[^()\d]*)\)\s*[.!]?\s*$")
_SEPARATOR = re.compile(r"\s*(?:[,;]|(?<=[^\W\d_]):|\s[-–—]\s|—|→|=>)\s*")
_FILLER = re.compile(r"^(?:and|so|thus|hence|therefore|i\.?e\.?|it'?s|it is|which is|i\.e\.)\s+", re.I)
_HEADING = re.compile(r"^\*\*[^*]+\*\*\s*")


def _verdict_words(text: str) -> str:
    """The verdict without the words that lead into it (``so it's``, ``which is``)."""
    text = text.strip(" .!")
    while (shorter := _FILLER.sub("", text)) != text:
        text = shorter
    return text


def split_answer(response: str, options: tuple[str, ...]) -> tuple[str, int | None, str]:
    """(the figure's text, the index of the option named or None, the verdict's text as typed)."""
    text = response.strip()
    bracket = _TRAILING_BRACKET.match(text)
    if bracket is not None and _DIGIT.search(bracket.group("figure")):
        words = _verdict_words(bracket.group("verdict"))
        return bracket.group("figure"), option_named(options, words), words
    pieces = _SEPARATOR.split(text)
    if len(pieces) > 1:
        figure = [piece for piece in pieces if _DIGIT.search(piece)]
        verdict = " ".join(_verdict_words(piece) for piece in pieces if piece and not _DIGIT.search(piece))
        if figure and verdict:
            return ",".join(figure), option_named(options, verdict), verdict
    # No separator: the verdict is the run of words after the figure that names one option.
    for gap in re.finditer(r"\s+", text):
        head, tail = text[: gap.start()], text[gap.end() :]
        if not _DIGIT.search(head) or _DIGIT.search(tail):
            continue
        words = _verdict_words(tail)
        index = option_named(options, words)
        if index is not None:
            return head, index, words
    return text, None, ""


def grade_with_remark(
    response: str, *, grade_figure: Callable[[str], Verdict], echo: Callable[[str], str]
) -> Verdict:
    """Grade a figure typed with a remark the question does not ask for (``17 ms, bandwidth-bound``).

    An interviewer hears the figure and lets the remark pass; so does this, and says so: the message
    names the words that were not checked. Only when the whole answer is unreadable as a figure, so a
    readable figure is never reinterpreted.
    """
    whole = grade_figure(response)
    if whole.status is not VerdictStatus.UNPARSABLE:
        return whole
    figure_text, _, remark = split_answer(response, ())
    if not remark or figure_text.strip() == response.strip():
        return whole
    figure = grade_figure(figure_text)
    if figure.status is VerdictStatus.UNPARSABLE:
        return figure  # what is wrong with the figure itself (a size for a time), not the comma after it
    note = f"Only the figure is graded on this question; {echo(remark)} was not checked."
    return dataclasses.replace(figure, message=f"{figure.message}\n\n{note}")


def _noun(unit: str) -> str:
    """What the figure is, for a heading: ``time`` for ms, ``figure`` when the unit names nothing plain."""
    try:
        name = dimension_name(unit)
    except ValueError:
        return "figure"
    plain = re.sub(r"^an? ", "", name).split(" (")[0]
    return plain if " " not in plain else "figure"


def grade_two_part(
    response: str,
    *,
    part: ChoicePart,
    unit: str,
    grade_figure: Callable[[str], Verdict],
    echo: Callable[[str], str],
) -> Verdict:
    """Grade a figure and a verdict typed together; unreadable (not counted) when either is missing."""
    figure_text, index, verdict_text = split_answer(response, part.options)
    listed = " or ".join(f"`{option}`" for option in part.options)
    if index is None and not verdict_text:
        figure = grade_figure(figure_text)
        if figure.status is VerdictStatus.UNPARSABLE:
            return figure
        example = f"{figure_text.strip()}, {part.options[0]}"
        return Verdict(
            VerdictStatus.UNPARSABLE,
            unit=unit,
            derivation=figure.derivation,
            message=f"**Not counted yet: the question asks two things.** Add the {part.asks} ({listed}) "
            f"after the figure, like `{example}`.",
        )
    if index is None:
        return Verdict(
            VerdictStatus.UNPARSABLE,
            unit=unit,
            message=f"**Could not read the {part.asks}.** {echo(verdict_text)} names none of {listed}: "
            f"type one of them after the figure, like `{figure_text.strip() or '12'}, {part.options[0]}`.",
        )
    figure = grade_figure(figure_text)
    if figure.status is VerdictStatus.UNPARSABLE:
        return figure
    chosen = part.options[index]
    right = index in part.correct
    answer = " or ".join(f"“{part.options[i]}”" for i in part.correct)
    said = f"“{chosen}” is right." if right else f"You said “{chosen}”; it is {answer}."
    noun = _noun(unit)
    results = (
        PartResult(noun, figure.correct, _HEADING.sub("", figure.message)),
        PartResult(part.asks, right, f"{said} {part.why}".strip()),
    )
    if figure.correct and right:
        heading = "**Correct: both parts.**"
    elif figure.correct or right:
        good, bad = (noun, part.asks) if figure.correct else (part.asks, noun)
        heading = f"**Half right:** the {good} is right, the {bad} is not."
    else:
        heading = "**Not quite: both parts are wrong.**"
    lines = "\n".join(
        f"- **{r.name.capitalize()}** ({'right' if r.correct else 'wrong'}): {r.message}" for r in results
    )
    return dataclasses.replace(
        figure,
        status=VerdictStatus.CORRECT if figure.correct and right else VerdictStatus.INCORRECT,
        score=(figure.correct + right) / 2,
        message=f"{heading}\n\n{lines}",
        parts=results,
    )
