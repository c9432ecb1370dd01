"""The Markdown scorecard of a finished mock: what a user downloads and keeps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from progress.mock_config import MockConfig
from progress.mock_debrief import Debrief, Outcome, Result, exact_answer_text, response_text

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


def minutes_seconds(seconds: float) -> str:
    """A duration in seconds as ``12m 05s`` (or ``45s`` under a minute)."""
    whole = round(max(seconds, 0.0))
    minutes, rest = divmod(whole, 60)
    return f"{minutes}m {rest:02d}s" if minutes else f"{rest}s"


def result_word(outcome: Outcome) -> str:
    return _RESULT_WORDS[outcome.result]


def item_verdict(*, asked: int, correct: int) -> str:
    """A few words on how a checklist item went in this mock."""
    if correct == asked:
        return "solid"
    if correct == 0:
        return "revisit"
    return "shaky"


def scorecard_markdown(
    debrief: Debrief,
    *,
    facts: MockFacts,
    item_titles: Mapping[str, str] | None = None,
    exact_text: Callable[[Outcome], str] | None = None,
) -> str:
    """The scorecard as Markdown: totals, one row per checklist item, one row per problem, the slips.

    ``item_titles`` maps checklist ids to readable names; ``exact_text`` formats an outcome's
    exact answer (the app passes one built on ``grader.units``), else the verdict's own figure.
    """
    titles = item_titles or {}
    exact_of = exact_text or (lambda o: exact_answer_text(o.problem, o.verdict))
    n = len(debrief.outcomes)
    used_s = (facts.finished_at - facts.started_at).total_seconds()
    status = "" if debrief.final else " (provisional: recall problems still to self-rate)"
    lines = [
        f"# Roofline Drill mock interview #{facts.mock_id}",
        "",
        f"- Date: {facts.started_at:%Y-%m-%d %H:%M} UTC",
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
            f"| {item_verdict(asked=item.asked, correct=item.correct)} | {cell(', '.join(item.slips))} |"
        )
    lines += [
        "",
        "## Problems",
        "",
        "| # | Problem | Your answer | Exact answer | Result | Slip | Time |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in debrief.outcomes:
        title = getattr(o.problem, "title", "") or o.problem.template_id
        lines.append(
            f"| {o.position + 1} | {cell(title)} | {cell(response_text(o.problem, o.response))} "
            f"| {cell(exact_of(o))} | {result_word(o)} | {cell(o.slip or '')} "
            f"| {minutes_seconds(o.time_spent_s)} |"
        )
    slipped = [o for o in debrief.outcomes if o.slip and not o.correct and o.verdict is not None]
    if slipped:
        lines += ["", "## Slips to remember", ""]
        lines += [f"- **{o.slip}** (problem {o.position + 1}): {o.verdict.diagnosis_text}" for o in slipped]
    return "\n".join(lines) + "\n"
