"""The topic card's 10 "you're ready when" items, which every template drills one of.

Read from ``question_bank/data/checklist.yaml``: for each item its id, a short title, the card's
own ``ready_when`` wording and the reading (and section) that teaches it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

CHECKLIST_FILE = Path(__file__).parent / "data" / "checklist.yaml"


class ChecklistItem(BaseModel):
    """One thing a candidate must be able to do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    title: str
    ready_when: str
    reading: str


class _ChecklistFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    items: list[ChecklistItem] = Field(min_length=1)


@functools.cache
def load_checklist() -> tuple[ChecklistItem, ...]:
    """The checklist items in the topic card's order (read once per process)."""
    data = yaml.safe_load(CHECKLIST_FILE.read_text(encoding="utf-8"))
    return tuple(_ChecklistFile.model_validate(data).items)


def checklist_ids() -> frozenset[str]:
    """The ids templates may name in ``checklist:``."""
    return frozenset(item.id for item in load_checklist())
