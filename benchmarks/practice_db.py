"""The practice database the browser benchmark answers against: one card due, the rest reviewed today.

Used by ``benchmarks/answer_browser.py``; kept apart so the timing harness stays one noun.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fsrs import Card, Rating  # noqa: E402
from readiness_scale import fill, template_ids_by_item  # noqa: E402

from progress import Store  # noqa: E402
from progress.scheduling import review  # noqa: E402
from progress.utc import to_iso  # noqa: E402
from question_bank import Bank  # noqa: E402


def prepared_db(path: Path, *, bank: Bank, template_id: str, n_answers: int) -> Path:
    """A database where ``template_id`` is the one card due now, with ``n_answers`` older answers."""
    if n_answers:
        fill(path, n_answers, template_ids_by_item())
    store, now = Store(path), datetime.now(UTC)
    for template in bank.templates:
        if template.id != template_id:
            review(store, template_id=template.id, checklist_item=template.checklist, rating=Rating.Good,
                   now=now, enable_fuzzing=False)  # fmt: skip
    make_due(path, bank=bank, template_id=template_id)
    return path


def make_due(path: Path, *, bank: Bank, template_id: str) -> None:
    """Make ``template_id``'s card due again, as if the session had not answered it.

    A card never reviewed gets a review long ago. A reviewed card has its due date moved back: a review
    dated before the card's last one would schedule it from the wrong state, and after a few sessions of
    right answers the card would not be due at all.
    """
    store, past = Store(path), datetime.now(UTC) - timedelta(days=1)
    with store.connect() as conn:
        row = conn.execute("SELECT card FROM cards WHERE template_id = ?", (template_id,)).fetchone()
        if row is not None:
            card = Card.from_json(row["card"])
            card.due = past
            conn.execute(
                "UPDATE cards SET card = ?, due = ? WHERE template_id = ?",
                (card.to_json(), to_iso(past), template_id),
            )
            return
    template = bank.get(template_id)
    review(store, template_id=template_id, checklist_item=template.checklist, rating=Rating.Good,
           now=past - timedelta(days=400), enable_fuzzing=False)  # fmt: skip
