"""Checks that a template's names refer to real things.

The schema checks shape; this checks meaning: the checklist id exists, every estimator function
named is in ``grader.estimator.FUNCTIONS``, every binding keyword is a parameter of its function
and every required one is bound, every binding and placeholder refers to a parameter drawn
earlier (and to a field that parameter has), preset ids and pools exist, option ids match, and
every rubric phrase of a recall template has a word or number to look for.
Each finding goes to a :class:`Reporter`, which turns a path inside the template into a line.

The checks live in :mod:`question_bank.template_checker` (the walk over one template),
:mod:`question_bank.names` (what names may refer to, and the names checked before the schema)
and :mod:`question_bank.reporter`; this module is their public face, and runs the checker on a
template (:func:`check_template`).
"""

from __future__ import annotations

from question_bank.names import Context, check_names, signature, suggest
from question_bank.reporter import Reporter
from question_bank.template_checker import ANSWER, SCENARIO, TemplateChecker
from question_bank.templates import Template

__all__ = [
    "ANSWER",
    "SCENARIO",
    "Context",
    "Reporter",
    "check_names",
    "check_template",
    "signature",
    "suggest",
]


def check_template(template: Template, context: Context, report: Reporter) -> None:
    """Report every broken reference in ``template``."""
    TemplateChecker(template, context, report).run()
