"""The explanation checks against the blind-labelled corpus: figures that must not fall back.

The corpus and its figures are described in ``benchmarks/explanation_agreement.py``. The floors
below are what the checks reach today on each split (rounded down), not the goals they are held to
(``GOALS`` there): a change that loses agreement fails here, a change that gains raises the floor.
"""

from __future__ import annotations

import pytest

from benchmarks.explanation_agreement import figures, load_corpus, run
from question_bank import load_bank

FLOORS = {
    "dev": {
        "rating_exact": 0.78,
        "rating_within_one": 0.96,
        "point_precision": 0.88,
        "point_recall": 0.92,
        "unusual_recall": 0.83,
        "misconception_precision": 0.91,
        "misconception_recall": 0.87,
    },
    # Writers H, I and J (22 items each): they wrote blind and nothing was tuned on their texts, so
    # these figures are the honest estimate on new writers.
    "holdout": {
        "rating_exact": 0.63,
        "rating_within_one": 0.93,
        "point_precision": 0.86,
        "point_recall": 0.87,
        "unusual_recall": 0.66,
        "misconception_precision": 0.67,
        "misconception_recall": 0.45,
    },
}
#: Recall items each split covers: every recall item of the bank, in both.
ITEMS = {"dev": 22, "holdout": 22}
BANK = load_bank()


@pytest.mark.parametrize("split", sorted(FLOORS))
def test_agreement_with_the_interviewer_labels_holds(split: str) -> None:
    cases = load_corpus(split)
    assert len({c.item for c in cases}) == ITEMS[split] and len(cases) >= 200
    measured = figures(run(cases, BANK))
    below = {name: round(measured[name], 3) for name, low in FLOORS[split].items() if measured[name] < low}
    assert below == {}


def test_salad_and_wrong_answers_are_never_good_in_the_corpus_beyond_today() -> None:
    cases = load_corpus("dev") + load_corpus("holdout")
    measured = figures(run(cases, BANK))
    assert measured["salad_max_points"] <= 4
    assert measured["bad_rated_good"] <= 37
