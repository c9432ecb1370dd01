"""The practice problem on screen, kept in the page's address so that a browser refresh shows the same
numbers, and the choice of what "Another variant" practises. No Streamlit here."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from question_bank import Bank, generate
from ui.practice import Current

#: Query-string parameters: the template id, its seed, and ``extra=1`` for practice off the schedule.
CARD_PARAM = "card"
SEED_PARAM = "seed"
EXTRA_PARAM = "extra"
PARAMS = (CARD_PARAM, SEED_PARAM, EXTRA_PARAM)


def to_query(current: Current) -> dict[str, str]:
    """The query-string parameters that bring ``current`` back after a refresh."""
    params = {CARD_PARAM: current.template_id, SEED_PARAM: str(current.seed)}
    if not current.scheduled:
        params[EXTRA_PARAM] = "1"
    return params


def from_query(params: Mapping[str, str], bank: Bank, *, now: datetime) -> Current | None:
    """The problem a refreshed page showed, or None when the address names none the bank still has."""
    template_id = str(params.get(CARD_PARAM, ""))
    seed = str(params.get(SEED_PARAM, ""))
    known = template_id in {t.id for t in bank.templates} or bank.is_scenario(template_id)
    if not seed.isdigit() or len(seed) > 12 or not known:
        return None
    return Current(template_id, int(seed), scheduled=params.get(EXTRA_PARAM) != "1", started_at=now)


def variant_template_id(bank: Bank, template_id: str, *, seed: int) -> str | None:
    """What "Another variant" practises: the same template when it has numbers to vary; else another
    template of the same checklist item and kind (another recall question of the item); else None."""
    template = bank.get(template_id)
    if varies(bank, template_id):
        return template_id
    others = [
        t.id for t in bank.by_checklist(template.checklist) if t.id != template_id and t.kind == template.kind
    ]
    return random.Random(seed).choice(others) if others else None


def varies(bank: Bank, template_id: str) -> bool:
    """Whether the template draws different problems for different seeds (numbers, a symptom, options)."""
    template = bank.get(template_id)
    if template.params:
        return True
    drawn = {(p.prompt, tuple(c.text for c in p.choices)) for p in (generate(template, s) for s in range(4))}
    return len(drawn) > 1


def checklist_of(bank: Bank, template_id: str) -> str | None:
    """The checklist item of a template, or None when the bank no longer has it."""
    try:
        return bank.get(template_id).checklist
    except KeyError:
        return None
