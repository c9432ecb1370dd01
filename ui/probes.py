"""A key point's follow-up question as a problem to ask: the bank's template at the same seed, or inline.

No Streamlit here: :mod:`ui.explanation_view` draws it.
"""

from __future__ import annotations

from grader import Problem
from question_bank import Bank, generate


def probe_problem(problem: Problem, index: int, bank: Bank) -> Problem | None:
    """The follow-up that tests ``problem``'s key point ``index``; None when it has none (or it is gone)."""
    probes = problem.key_point_probes
    probe = probes[index] if index < len(probes) else None
    if probe is None:
        return None
    if not probe.template_id:
        return probe.as_problem(problem)
    if probe.template_id not in bank.ids:
        return None
    return generate(bank.get(probe.template_id), problem.seed)
