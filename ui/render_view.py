"""Drawing problems, verdicts and derivations; shared by the practice and mock-interview pages."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from grader import Verdict, VerdictStatus
from grader.derivation_text import derivation_lines
from grader.diagnosis import slip_label
from grader.estimator.derivation import Step
from grader.problem import Problem


def show_derivation(steps: Sequence[Step], *, expanded: bool = True, answer_unit: str = "") -> None:
    """The derivation in an expander (nothing when there are no steps), in the question's ``answer_unit``."""
    if not steps:
        return
    with st.expander("Worked derivation", expanded=expanded):
        # A Markdown list rather than a table or dataframe: it wraps on a phone and renders fast.
        st.markdown(derivation_lines(steps, answer_unit=answer_unit))


def revisit_line(references: Sequence[str]) -> str:
    """The sources to read again, as one line (the same under a practice answer, a scenario step and a
    mock's debrief)."""
    return "Revisit: " + "; ".join(references)


def show_verdict_alerts(verdict: Verdict) -> None:
    """Correct or not, with the exact answer and range; the slip when one was diagnosed."""
    if verdict.status is VerdictStatus.CORRECT:
        st.success(verdict.message, icon=":material/check_circle:")
    else:
        st.error(verdict.message, icon=":material/cancel:")
    if verdict.diagnosis:
        show_slip(verdict.diagnosis, verdict.diagnosis_text)


def show_slip(name: str, text: str) -> None:
    """The slip a wrong answer most likely came from, named in words, and what to do about it."""
    st.warning(f"**Slip: {slip_label(name)}.** {text}", icon=":material/lightbulb:")


def reading_markdown(problem: Problem, verdict: Verdict) -> str:
    """The derivation under its heading, the problem's explanation and its references, as one Markdown
    text: one element for the browser to draw where the feedback is waited for (the practice page)."""
    parts = []
    if verdict.derivation:
        parts.append(
            "**Worked derivation**\n\n" + derivation_lines(verdict.derivation, answer_unit=problem.unit)
        )
    if problem.explanation:
        parts.append(problem.explanation)
    if problem.references:
        parts.append(revisit_line(problem.references))
    return "\n\n".join(parts)


def show_verdict(problem: Problem, verdict: Verdict) -> None:
    """Correct or not, the exact answer and range, the slip, the derivation (in an expander, which a
    scenario's earlier steps can fold away) and the reading."""
    show_verdict_alerts(verdict)
    show_derivation(verdict.derivation, answer_unit=problem.unit)
    if problem.explanation:
        st.markdown(problem.explanation)
    if problem.references:
        st.caption(revisit_line(problem.references))
