"""A question tests the slip it is about: a draw whose declared slip lands inside the band is drawn again.

A slip graded right teaches nothing: the candidate who forgot the KV read, the all-reduce or the
weights is told they are correct. In a single template, a draw where any declared slip's value lies
inside the answer's band is drawn again (``generate``'s ``slips_apart``). A scenario's steps share
one draw, so there the share of draws whose slip falls outside is checked instead
(:mod:`question_bank.slip_checks`), and met with ``require`` or better ranges.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from grader.diagnosis import band, within
from grader.estimator.derivation import recording
from question_bank.templates import NumericTemplate, Template


def slip_inside(template: Template, values: Mapping[str, Any]) -> str | None:
    """The first declared slip whose value lies inside the answer's band for this draw (a phrase), or None."""
    if not isinstance(template, NumericTemplate) or not template.slips:
        return None
    from question_bank.answer_extras import rebound_value

    spec = template.answer
    with recording():
        answer = rebound_value(spec, spec, values, 0.0)
        if not math.isfinite(answer):
            return None
        exact = band(answer, spec.tolerance.to_tolerance(), spec.unit)
        for slip in template.slips:
            value = rebound_value(slip, spec, values, answer)
            if math.isfinite(value) and within(value, exact):
                return f"the slip {slip.name!r} inside the answer's band"
    return None
