"""The practice problem on screen, kept in the page's address so that a browser refresh shows the same
numbers, and the choice of what "Another variant" practises. No Streamlit here."""

from __future__ import annotations

import random
from datetime import datetime

from question_bank import Bank, generate
from ui.practice.loop import Current
from ui.query_params import CARD, EXTRA, PINS, SEED, Address, pins_query

PARAMS = (CARD, SEED, EXTRA, PINS)


def to_query(current: Current) -> dict[str, str]:
    """The query-string parameters that bring ``current`` back after a refresh (its pins included, so
    a drilled setup keeps its numbers)."""
    params = {CARD: current.template_id, SEED: str(current.seed)}
    if not current.scheduled:
        params[EXTRA] = "1"
    if current.pins:
        params[PINS] = pins_query(current.pins)
    return params


def from_query(address: Address, bank: Bank, *, now: datetime) -> tuple[Current | None, tuple[str, ...]]:
    """The problem a refreshed page showed (None when the address names none the bank still has), and
    the notices to show: a parameter that could not be read, or a question the bank no longer has."""
    template_id, seed = address.get(CARD), address.get(SEED)
    if not isinstance(template_id, str) or not isinstance(seed, int):
        return None, address.notices
    if template_id not in {t.id for t in bank.templates} and not bank.is_scenario(template_id):
        gone = f"The address names the question `{template_id}`, which the question bank no longer has."
        return None, (*address.notices, gone)
    pins = address.get(PINS)
    current = Current(
        template_id,
        seed,
        scheduled=address.get(EXTRA) is not True,
        started_at=now,
        pins=pins if isinstance(pins, tuple) else (),
    )
    return current, address.notices


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
