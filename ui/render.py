"""Drawing problems, verdicts and derivations; shared by the practice and mock-interview pages."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from grader import Verdict, VerdictStatus
from grader.derivation import Step
from grader.problem import Problem
from grader.units import readable


def derivation_markdown(steps: Sequence[Step]) -> str:
    """The worked steps as a Markdown table: what, formula, with the numbers, result."""
    rows = ["| step | formula | with the numbers | result |", "|---|---|---|---|"]
    for s in steps:
        cells = (s.label, s.formula, s.substituted, readable(s.value, s.unit))
        rows.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    # A bar would end the cell; the formulas never need one, but a user's bank might.
    return text.replace("|", "\\|")


def show_derivation(steps: Sequence[Step], *, expanded: bool = True) -> None:
    """The derivation in an expander (nothing when there are no steps)."""
    if not steps:
        return
    with st.expander("Worked derivation", expanded=expanded):
        # Markdown rather than a dataframe: the same table for a fraction of the render cost.
        st.markdown(derivation_markdown(steps))


def show_verdict(problem: Problem, verdict: Verdict) -> None:
    """Correct or not, the exact answer and range, the slip, the derivation and the reading."""
    if verdict.status is VerdictStatus.CORRECT:
        st.success(verdict.message, icon=":material/check_circle:")
    else:
        st.error(verdict.message, icon=":material/cancel:")
    if verdict.diagnosis:
        st.warning(f"**Slip: {verdict.diagnosis}.** {verdict.diagnosis_text}", icon=":material/lightbulb:")
    show_derivation(verdict.derivation)
    if problem.explanation:
        st.markdown(problem.explanation)
    if problem.references:
        st.caption("Revisit: " + "; ".join(problem.references))
