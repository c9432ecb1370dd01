"""Grading a response to a problem: numeric (with slip diagnosis), choice, or self-rated recall.

:func:`grade` and :func:`check_numeric` never raise. Text that cannot be read gives an
``unparsable`` verdict whose message says what to type; it is not an attempt. A failure inside
the grader itself is logged on the ``grader`` logger and also answered as ``unparsable``, so a
page can never crash on what a user typed.
"""

from __future__ import annotations

import logging
import math
import re
from typing import TypedDict

from grader.bare_numbers import asks_in_base_unit, read_as_message, said_unit
from grader.choosing import option_named
from grader.derivation_text import is_binary, large_count_text
from grader.diagnosis import band, diagnose, unit_left_off, within
from grader.errors import GradingError, WrongDimensionError
from grader.estimator.derivation import Step
from grader.hints import answer_hint
from grader.parsing import parse_quantity
from grader.problem import AcceptedValue, Choice, Kind, Problem, SlipValue, Tolerance, ToleranceKind
from grader.tidying import MAX_CHARS, too_long
from grader.two_part import grade_two_part, grade_with_remark
from grader.units import (
    base_units,
    format_display,
    format_number,
    format_quantity,
    readable,
    round_sig,
    si_per_display,
    to_display,
    unit_symbol,
)
from grader.verdict import Verdict, VerdictStatus

_log = logging.getLogger("grader")


class _Figures(TypedDict):
    """The fields every numeric verdict shares: what was read, what counts, and how it is derived."""

    value: float
    accepted_range: tuple[float, float]
    exact: float
    unit: str
    derivation: tuple[Step, ...]


#: Self-ratings of a recall answer and their scores; "again" is the one that counts as wrong.
RECALL_SCORES: dict[str, float] = {"again": 0.0, "hard": 0.5, "good": 1.0, "easy": 1.0}
# FSRS numbers its ratings 1..4 in the same order.
_RECALL_NUMBERS = dict(zip(("1", "2", "3", "4"), RECALL_SCORES, strict=True))

_ECHO_CHARS = 60
#: The longest response graded, per kind, counted after Unicode normalisation: a number with its
#: unit (and a verdict), an option's text, a self-rating or a typed explanation.
MAX_RESPONSE_CHARS: dict[Kind, int] = {Kind.NUMERIC: MAX_CHARS, Kind.CHOICE: 500, Kind.RECALL: 20_000}
_UNREADABLE = "**Could not read that answer.**"
# A readable answer of the wrong kind is not an attempt either; it was read, so it says so.
_NOT_COUNTED = "**Not counted: wrong kind of answer.**"
# A bare number right only in another unit than the box's, where the question does not ask in it.
_READ_IN_BOX = "**Not counted.**"
_FAILED = "Something went wrong while grading this answer; it was not counted. Try typing it again."


def _echo(response: str) -> str:
    """The response as safe inline code: one line, no backticks, at most 60 characters."""
    text = " ".join("".join(c for c in response if c.isprintable() and c != "`").split())
    if len(text) > _ECHO_CHARS:
        text = text[: _ECHO_CHARS - 1] + "…"
    return f"`{text}`" if text else "nothing"


def _unparsable(
    reason: str, *, unit: str = "", derivation: tuple[Step, ...] = (), heading: str = _UNREADABLE
) -> Verdict:
    return Verdict(
        status=VerdictStatus.UNPARSABLE,
        unit=unit,
        derivation=derivation,
        message=f"{heading} {reason}".strip(),
    )


#: From this many display units on, an exact answer also shows the same size with a larger prefix.
_LONG_FIGURE = 10_000


def exact_text(exact: float, answer_si: float, unit: str) -> str:
    """The exact answer in the question's unit and, when that takes five digits or more, in the unit
    a person would say: ``33,640 MB (33.64 GB)``; a count of a million or more with a prefix
    (``272.6 M``), as the derivation writes it."""
    count = large_count_text(exact, unit)
    if count is not None:
        return count
    shown = format_display(exact, unit)
    if abs(exact) < _LONG_FIGURE:
        return shown
    try:
        base = unit_symbol(base_units(unit))
        said = readable(answer_si, base, binary=is_binary(unit))
    except Exception:  # a unit pint does not know (a user's bank), a figure past float range: the
        return shown  # question's own unit is enough
    # The same number again (a count in tokens, seconds at the top of their ladder) says nothing new.
    return shown if said.rsplit(" ", 1)[0] == shown.rsplit(" ", 1)[0] else f"{shown} ({said})"


def exact_answer(answer_si: float, unit: str) -> str:
    """A numeric question's exact answer (``answer_si`` in SI units) as its feedback writes it: rounded
    in the question's ``unit`` and worded by ``exact_text``."""
    return exact_text(round_sig(to_display(answer_si, unit)), answer_si, unit)


def _grade_quantity(
    response: str,
    *,
    answer_si: float,
    unit: str,
    tolerance: Tolerance,
    slips: tuple[SlipValue, ...],
    derivation: tuple[Step, ...],
    accepted: tuple[AcceptedValue, ...] = (),
    prompt: str = "",
) -> Verdict:
    """``prompt``: the question's text, which says whether a bare number right only in the base unit
    counts (see grader.bare_numbers); without one it never does."""
    try:
        parsed = parse_quantity(response, unit=unit)
    except GradingError as exc:
        # The error's own hint says what to type when it has one; else an example of the kind asked for.
        reason = f"{exc.reason} {exc.hint or answer_hint(unit)}"
        heading = _NOT_COUNTED if isinstance(exc, WrongDimensionError) else _UNREADABLE
        return _unparsable(reason, unit=unit, derivation=derivation, heading=heading)
    bounds = band(answer_si, tolerance, unit)
    low, high = (round_sig(to_display(b, unit)) for b in bounds)
    exact = round_sig(to_display(answer_si, unit))
    yours = format_quantity(parsed.value_si, unit)
    echo = _echo(response)
    # Echo what was typed only when it says something the display-unit figure does not.
    same = re.sub(r"[\s,]", "", echo.strip("`")) == re.sub(r"[\s,]", "", yours)
    # Working that ends in the figure it is read as ("26 GB / 1.555 TB/s ≈ 16.7 ms") is quoted once,
    # not followed by "= 16.7 ms" again.
    stated_last = re.split(r"[=≈≥]", echo.strip("`"))[-1]
    ends_with_it = re.sub(r"[\s,]", "", stated_last) == re.sub(r"[\s,]", "", yours)
    said = echo if ends_with_it else f"{echo} = {yours}"
    shown = parsed.has_unit or parsed.scaled
    common: _Figures = {
        "value": parsed.value_si,
        "accepted_range": (low, high),
        "exact": exact,
        "unit": unit,
        "derivation": derivation,
    }
    if within(parsed.value_si, bounds):
        read_as = f"{said}; t" if shown and not same else "T"
        message = f"**Correct.** {read_as}he exact answer is **{exact_text(exact, answer_si, unit)}**."
        return Verdict(status=VerdictStatus.CORRECT, score=1.0, message=message, **common)
    other = _accepted_match(parsed.value_si, accepted, tolerance=tolerance, unit=unit)
    if other is not None:
        read_as = f"{said}. " if shown and not same else ""
        message = f"**Correct.** {read_as}{other.note}"
        return Verdict(
            status=VerdictStatus.CORRECT, score=1.0, message=message, accepted_as=other.name, **common
        )
    bare = None if shown else echo.strip("`")
    if (
        bare is not None
        and (
            meant := unit_left_off(
                parsed.value_si, answer_si=answer_si, unit=unit, tolerance=tolerance, bare=bare
            )
        )
        is not None
    ):
        # Right only in the base unit: it counts where the prompt itself asks in that unit, and is then
        # stored as what it was graded as; anywhere else it is the x1000 slip, neither counted nor stored.
        base = unit_symbol(base_units(unit))
        value_in_base = parsed.value_si / si_per_display(unit)
        if not asks_in_base_unit(prompt, base_unit=base):
            reason = read_as_message(bare, unit=unit, base_unit=base, value_in_base=value_in_base)
            return _unparsable(reason, unit=unit, derivation=derivation, heading=_READ_IN_BOX)
        message = (
            f"**Correct.** {meant.diagnosis} It counts, as the question asks for {said_unit(base)}; "
            f"the exact answer is **{exact_text(exact, answer_si, unit)}**."
        )
        in_base: _Figures = {**common, "value": value_in_base}
        return Verdict(
            status=VerdictStatus.CORRECT,
            score=1.0,
            message=message,
            accepted_as=meant.name,
            **in_base,
        )
    answered = f"You answered {said}" if shown and not same else f"You answered {yours}"
    also = ", or " + ", ".join(format_quantity(a.value, unit) for a in accepted) if accepted else ""
    summary = (
        f"{answered}; the exact answer is **{exact_text(exact, answer_si, unit)}** "
        f"(accepted: {format_number(low)} to {format_display(high, unit)}{also})."
    )
    slip = diagnose(
        parsed.value_si,
        answer_si=answer_si,
        unit=unit,
        tolerance=tolerance,
        slips=slips,
        bare=bare,
        derivation=derivation,
    )
    # The slip is not repeated in the message: pages show diagnosis_text beside it.
    return Verdict(
        status=VerdictStatus.INCORRECT,
        diagnosis=slip.name if slip else None,
        diagnosis_text=slip.diagnosis if slip else "",
        message=f"**Not quite.** {summary}",
        **common,
    )


def _accepted_match(
    value_si: float, accepted: tuple[AcceptedValue, ...], *, tolerance: Tolerance, unit: str
) -> AcceptedValue | None:
    """The first other accepted answer ``value_si`` matches: the number itself, or inside its band."""
    for other in accepted:
        bounds = (other.value, other.value) if other.exactly else band(other.value, tolerance, unit)
        if within(value_si, bounds):
            return other
    return None


def _chosen_index(choices: tuple[Choice, ...], response: str) -> int | None:
    text = response.strip()
    if re.fullmatch(r"[0-9]{1,6}", text):
        index = int(text)
        return index if index < len(choices) else None
    return option_named([c.text for c in choices], text)


def _grade_choice(problem: Problem, response: str) -> Verdict:
    choices = problem.choices
    index = _chosen_index(choices, response)
    if index is None:
        last = max(len(choices) - 1, 0)
        return _unparsable(
            f"{_echo(response)} does not name one of the options. "
            f"Pick one: type its number (0 to {last}), its text, or words only it holds.",
            derivation=problem.derivation,
        )
    chosen = choices[index]
    if chosen.correct:
        message = f"**Correct:** “{chosen.text}”. {chosen.explanation}".strip()
        return Verdict(VerdictStatus.CORRECT, score=1.0, derivation=problem.derivation, message=message)
    right = next((c for c in choices if c.correct), None)
    message = f"**Not quite.** You chose “{chosen.text}”: {chosen.explanation}".strip()
    if right is not None:
        message += f"\n\nThe answer is “{right.text}”: {right.explanation}".rstrip()
    return Verdict(VerdictStatus.INCORRECT, score=0.0, derivation=problem.derivation, message=message)


def _grade_recall(problem: Problem, response: str) -> Verdict:
    word = response.strip().casefold()
    rating = _RECALL_NUMBERS.get(word, word)
    if rating not in RECALL_SCORES:
        return _unparsable(
            "Rate your own answer: type `again`, `hard`, `good` or `easy`.", derivation=problem.derivation
        )
    score = RECALL_SCORES[rating]
    points = "\n".join(f"- {point}" for point in problem.key_points)
    message = f"**You rated this {rating}.**"
    if points:
        message += f" The key points of a full answer:\n\n{points}"
    status = VerdictStatus.INCORRECT if score == 0 else VerdictStatus.CORRECT
    return Verdict(status, score=score, derivation=problem.derivation, message=message)


def _grade(problem: Problem, response: str) -> Verdict:
    if problem.kind == Kind.CHOICE:
        return _grade_choice(problem, response)
    if problem.kind == Kind.RECALL:
        return _grade_recall(problem, response)
    answer = problem.answer
    if answer is None or not math.isfinite(answer):
        return _unparsable(
            "This question has no numeric answer to compare with.", derivation=problem.derivation
        )

    def grade_figure(text: str) -> Verdict:
        return _grade_quantity(
            text,
            answer_si=answer,
            unit=problem.unit,
            tolerance=problem.tolerance,
            slips=problem.slips,
            derivation=problem.derivation,
            accepted=problem.accepted,
            prompt=problem.prompt,
        )

    if problem.choice_part is not None:
        return grade_two_part(
            response, part=problem.choice_part, unit=problem.unit, grade_figure=grade_figure, echo=_echo
        )
    return grade_with_remark(response, grade_figure=grade_figure, echo=_echo)


def grade(problem: Problem, response: str) -> Verdict:
    """Grade ``response`` to ``problem``; never raises.

    Numeric: free text with units, read by :func:`grader.parsing.parse_quantity`; correct when
    inside the tolerance band, otherwise diagnosed (declared slips, then generic ones).
    Choice: the option's index as a decimal string ("0", "1"...) or its exact text (any case
    and spacing). Recall: the self-rating ``again``/``hard``/``good``/``easy`` (or 1-4),
    scored 0, 0.5, 1, 1. The verdict's derivation is ``problem.derivation``.
    """
    text = response if isinstance(response, str) else ""
    try:
        # Before any other work, so that a pasted megabyte costs nothing to refuse.
        limit = MAX_RESPONSE_CHARS.get(problem.kind, MAX_CHARS)
        if (error := too_long(text, max_chars=limit)) is not None:
            reason = f"{error.reason} {error.hint}"
            return _unparsable(reason, unit=problem.unit, derivation=problem.derivation)
        return _grade(problem, text)
    except Exception:  # the last line of defence: a grading bug must not break the page
        _log.exception("grading failed for template %r", getattr(problem, "template_id", "?"))
        return _unparsable(_FAILED)


def check_numeric(response: str, *, expected: float, unit: str, rel_tol: float) -> Verdict:
    """Grade a bare quantity: ``expected`` in SI base units, a bare number read in display ``unit``.

    Correct within ``rel_tol`` (relative); a wrong answer gets a generic slip diagnosis. Never raises.
    """
    text = response if isinstance(response, str) else ""
    try:
        if not math.isfinite(expected):
            return _unparsable("There is no finite answer to compare with.", unit=unit)
        if (error := too_long(text, max_chars=MAX_CHARS)) is not None:
            return _unparsable(f"{error.reason} {error.hint}", unit=unit)
        tolerance = Tolerance(ToleranceKind.RELATIVE, rel_tol)
        return _grade_quantity(
            text, answer_si=expected, unit=unit, tolerance=tolerance, slips=(), derivation=()
        )
    except Exception:  # the last line of defence, as in grade()
        _log.exception("checking %r against %r %s failed", text[:_ECHO_CHARS], expected, unit)
        return _unparsable(_FAILED, unit=unit)
