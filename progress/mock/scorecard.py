"""The Markdown scorecard of a finished mock: what a user downloads and keeps."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from grader.derivation_text import derivation_markdown
from grader.diagnosis import slip_label
from grader.problem import Problem
from grader.wording import counted
from progress.mock.config import MockConfig
from progress.mock.debrief import Debrief, Outcome, Result, answer_heading, exact_answer_text, response_text

_RESULT_WORDS = {
    Result.CORRECT: "correct",
    Result.INCORRECT: "wrong",
    Result.UNANSWERED: "no answer",
    Result.UNPARSABLE: "unreadable",
    Result.AWAITING_RATING: "to self-rate",
}


@dataclass(frozen=True)
class MockFacts:
    """When a mock ran and with which settings (times aware UTC, durations in seconds)."""

    mock_id: int
    started_at: datetime
    finished_at: datetime
    config: MockConfig


def cell(text: str) -> str:
    """Text made safe inside one Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|") or "—"


def code_span(text: str) -> str:
    """``text`` on one line as a Markdown code span, so that nothing in it is read as Markdown.

    The fence is one backtick longer than the longest run inside, so no backtick typed can close it.
    """
    line = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", line)), default=0) + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def typed_answer(problem: Any, response: str | None, *, quote: Callable[[str], str] = code_span) -> str:
    """The answer as shown back: an option's text for a choice, what was typed otherwise, through ``quote``.

    ``quote`` makes what was typed inert as Markdown (by default a code span): an image or a link in it
    stays text in any Markdown viewer.
    """
    shown = response_text(problem, response)
    if not (response or "").strip() or shown != (response or "").strip():
        return shown  # "(no answer)", or the text of the option picked (bank text, checked)
    return quote(shown)


def minutes_seconds(seconds: float) -> str:
    """A duration in seconds as ``12m 05s`` (or ``45s`` under a minute)."""
    whole = round(max(seconds, 0.0))
    minutes, rest = divmod(whole, 60)
    return f"{minutes}m {rest:02d}s" if minutes else f"{rest}s"


def result_word(outcome: Outcome) -> str:
    """How the problem ended, in a word or two; a step right on the user's own earlier values says so."""
    carried = getattr(outcome.verdict, "carried_from", ())
    if outcome.result is Result.CORRECT and carried:
        return "correct, carried forward from step " + ", ".join(str(step) for step in carried)
    return _RESULT_WORDS[outcome.result]


def problem_title(problem: Any) -> str:
    """A problem's title; a scenario step's names its scenario and its place in the chain."""
    title = getattr(problem, "title", "") or problem.template_id
    step = getattr(problem, "step", None)
    if step is None:
        return title
    scenario = getattr(problem, "scenario_title", "") or problem.template_id
    return f"{scenario}, step {step} of {getattr(problem, 'n_steps', step)}: {title}"


def item_verdict(*, asked: int, correct: int) -> str:
    """A few words on how a checklist item went in this mock."""
    if correct == asked:
        return "solid"
    if correct == 0:
        return "revisit"
    return "shaky"


def exact_text(outcome: Outcome) -> str:
    """The exact answer as a person reads it: the number as practice's feedback writes it, the option,
    the key points."""
    return exact_answer_text(outcome.problem, outcome.verdict)


def derivation_text(outcome: Outcome) -> str:
    """An outcome's worked derivation as a Markdown table, in the question's units ("" when none)."""
    problem: Problem = outcome.problem
    return derivation_markdown(problem.derivation, answer_unit=problem.unit) if problem.derivation else ""


def scorecard_markdown(
    debrief: Debrief,
    *,
    facts: MockFacts,
    item_titles: Mapping[str, str] | None = None,
    exact_text: Callable[[Outcome], str] = exact_text,
    derivation_text: Callable[[Outcome], str] | None = None,
    zone: tzinfo = UTC,
) -> str:
    """The scorecard as Markdown: totals, one row per checklist item, one row per problem, the slips,
    then each problem in full (its prompt, your answer, the exact answer and the derivation), so the
    file stands alone.

    ``item_titles`` maps checklist ids to readable names; ``exact_text`` formats an outcome's
    exact answer (by default as practice's feedback writes it: :func:`exact_text`);
    ``derivation_text`` writes an outcome's worked derivation (none when absent); dates are shown in
    ``zone``.
    """
    titles = item_titles or {}
    n = len(debrief.outcomes)
    used_s = (facts.finished_at - facts.started_at).total_seconds()
    status = "" if debrief.final else " (provisional: recall problems still to self-rate)"
    lines = [
        f"# Roofline Drill mock interview #{facts.mock_id}",
        "",
        f"- Date: {facts.started_at.astimezone(zone):%Y-%m-%d %H:%M} {zone_name(facts.started_at, zone)}",
        f"- Time: {minutes_seconds(used_s)} used of {minutes_seconds(facts.config.duration_s)}",
        f"- Problems: {n}, mix {facts.config.mix.value}, difficulty "
        f"{facts.config.difficulty[0]}–{facts.config.difficulty[1]}",
        f"- **Score: {debrief.score:.0%}** ({debrief.n_correct} of {n} correct){status}",
        "",
        "## By checklist item",
        "",
        "| Checklist item | Correct | How it went | Slips |",
        "|---|---|---|---|",
    ]
    for item in debrief.items:
        lines.append(
            f"| {cell(titles.get(item.checklist_item, item.checklist_item))} | {item.correct}/{item.asked} "
            f"| {item_verdict(asked=item.asked, correct=item.correct)} "
            f"| {cell(', '.join(map(slip_label, item.slips)))} |"
        )
    lines += [
        "",
        "## Problems",
        "",
        "| # | Problem | Your answer | Exact answer | Result | Slip | Time |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in debrief.outcomes:
        title = problem_title(o.problem)
        yours, exact = typed_answer(o.problem, o.response), exact_text(o)
        if o.problem.key_points:
            # A written explanation and its key points are paragraphs: they are laid out in full in the
            # problem's own section below, so this row stays one line a reader can scan.
            yours = "written answer, in full below" if o.response and o.response.strip() else yours
            exact = f"{counted(len(o.problem.key_points), 'key points')}, listed below"
        lines.append(
            f"| {o.position + 1} | {cell(title)} | {cell(yours)} "
            f"| {cell(exact)} | {result_word(o)} | {cell(slip_label(o.slip) if o.slip else '')} "
            f"| {minutes_seconds(o.time_spent_s)} |"
        )
    slipped = [(o, o.verdict) for o in debrief.outcomes if o.slip and not o.correct and o.verdict is not None]
    if slipped:
        lines += ["", "## Slips to remember", ""]
        lines += [
            f"- **{slip_label(o.slip or '')}** (problem {o.position + 1}): {verdict.diagnosis_text}"
            for o, verdict in slipped
        ]
    lines += ["", "## Each problem", ""]
    set_up: set[tuple[str, int]] = set()  # the scenarios whose setup is already written
    for o in debrief.outcomes:
        scenario = (o.problem.template_id, o.problem.seed)
        setup = getattr(o.problem, "setup", "") if scenario not in set_up else ""
        if setup:
            set_up.add(scenario)
        lines += _problem_section(
            o, exact=exact_text(o), derivation=derivation_text(o) if derivation_text else "", setup=setup
        )
    return "\n".join(lines) + "\n"


def _problem_section(outcome: Outcome, *, exact: str, derivation: str, setup: str = "") -> list[str]:
    """A problem in full; ``setup`` is a scenario's, written before the first of its steps asked."""
    problem = outcome.problem
    title = problem_title(problem)
    lines = [
        f"### {outcome.position + 1}. {title}: {result_word(outcome)}",
        "",
        *([setup.strip(), ""] if setup else []),
        problem.prompt.strip(),
        "",
        *_answer_lines(problem, outcome.response),
    ]
    made = list((outcome.explanation or {}).get("made", []))
    if problem.key_points and len(made) == len(problem.key_points):
        lines.append(f"- **Key points:** {sum(map(bool, made))} of {len(made)} made")
        pairs = zip(made, problem.key_points, strict=True)
        lines += [f"  - {'made' if hit else 'missed'}: {point}" for hit, point in pairs]
        wrong = (outcome.explanation or {}).get("standing_misconceptions", [])
        if wrong:
            lines.append(f"- **Misconceptions:** {'; '.join(map(str, wrong))}")
    elif problem.key_points:
        lines.append("- **Key points:**")
        lines += [f"  - {point}" for point in problem.key_points]
    else:
        lines.append(f"- **{answer_heading(problem)}:** {cell(exact)}")
    if outcome.slip and not outcome.correct and outcome.verdict is not None:
        lines.append(f"- **Slip:** {slip_label(outcome.slip)}. {outcome.verdict.diagnosis_text}")
    if derivation:
        lines += ["", derivation]
    return [*lines, ""]


def _answer_lines(problem: Any, response: str | None) -> list[str]:
    """The user's answer as list lines: a figure or option on one line, a written explanation as a
    quote under it, paragraph by paragraph."""
    text = response_text(problem, response)
    if not problem.key_points or not (response and response.strip()):
        return [f"- **Your answer:** {typed_answer(problem, response)}"]
    # What was typed stays inert as Markdown: each paragraph a code span, quoted.
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    quoted = [line for p in paragraphs for line in (f"  > {code_span(p)}", "  >")][:-1]
    return ["- **Your answer:**", "", *quoted, ""]


def zone_name(moment: datetime, zone: tzinfo) -> str:
    """The short name of ``zone`` at ``moment`` (``UTC``, ``CET``), for a time shown to a person."""
    return moment.astimezone(zone).tzname() or "UTC"
