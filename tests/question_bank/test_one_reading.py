"""Items a competent candidate could read two ways say what rules the other reading out.

A fusion speed-up fits an overhead-bound chain as well as a bandwidth-bound one (fusing saves launches
too), unless the item says the ops ran far longer than their launches. "Counted in 2P" for the
embedding table is right only if the item says P counts the table.
"""

from __future__ import annotations

import pytest

from question_bank import load_bank
from question_bank.choices import PoolRef


@pytest.fixture(scope="module")
def bank():  # type: ignore[no-untyped-def]
    return load_bank()


def _scenarios(bank, template_id: str):  # type: ignore[no-untyped-def]
    scenarios = bank.get(template_id).scenarios
    return bank.pools[scenarios.pool] if isinstance(scenarios, PoolRef) else scenarios


@pytest.mark.parametrize("template_id", ["overhead-or-bandwidth", "regime-from-symptom", "regime-from-fix"])
def test_a_fusion_keyed_bandwidth_rules_out_launch_overhead(bank, template_id: str) -> None:  # type: ignore[no-untyped-def]
    scenarios = _scenarios(bank, template_id)
    fusions = [s for s in scenarios if s.text.startswith("Fusing") and s.answer == "bandwidth"]
    assert fusions
    for scenario in fusions:
        assert "launch cost" in scenario.text, scenario.text


def test_the_embedding_table_item_says_p_counts_the_table(bank) -> None:  # type: ignore[no-untyped-def]
    (item,) = [s for s in _scenarios(bank, "two-p-what-it-counts") if "embedding table" in s.text]
    assert item.answer == "counted" and "P counting every parameter" in item.text
