"""Choosing a mock's problems: turn-taking over checklist items, the difficulty filter, seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from progress.mock.config import Mix, MockConfig, ProblemRef
from progress.mock.selection import Candidate, NoCandidatesError, select_problems

ITEMS = ("three-regimes", "arithmetic-intensity", "fusion", "kv-cache")
CANDIDATES = [
    Candidate(f"{item}-{n}", item, difficulty) for item in ITEMS for n, difficulty in ((1, 1), (2, 2), (3, 3))
]


def _config(**kw: object) -> MockConfig:
    return MockConfig(duration_s=900, **kw)  # type: ignore[arg-type]


def _items(refs: list[ProblemRef]) -> list[str]:
    return [ref.template_id.rsplit("-", 1)[0] for ref in refs]


def test_every_item_mix_takes_turns_so_no_item_repeats_before_all_were_asked() -> None:
    refs = select_problems(
        CANDIDATES, config=_config(n_problems=8), rng=random.Random(1), checklist_order=ITEMS
    )
    items = _items(refs)
    assert len(refs) == 8
    assert sorted(items[:4]) == sorted(ITEMS)
    assert Counter(items) == dict.fromkeys(ITEMS, 2)
    assert len({ref.template_id for ref in refs}) == 8  # no template twice while unused ones remain


def test_same_random_source_same_mock_and_another_gives_another() -> None:
    config = _config(n_problems=6)
    first = select_problems(CANDIDATES, config=config, rng=random.Random(7), checklist_order=ITEMS)
    again = select_problems(CANDIDATES, config=config, rng=random.Random(7), checklist_order=ITEMS)
    other = select_problems(CANDIDATES, config=config, rng=random.Random(8), checklist_order=ITEMS)
    assert first == again
    assert first != other


def test_weakest_first_orders_items_by_strength_and_unpractised_counts_as_weakest() -> None:
    strength = {"three-regimes": 0.9, "arithmetic-intensity": 0.2, "fusion": 0.5}
    refs = select_problems(
        CANDIDATES,
        config=_config(n_problems=3, mix=Mix.WEAKEST_FIRST),
        rng=random.Random(3),
        checklist_order=ITEMS,
        strength=strength,
    )
    assert _items(refs) == ["kv-cache", "arithmetic-intensity", "fusion"]


def test_difficulty_range_filters_templates() -> None:
    refs = select_problems(
        CANDIDATES,
        config=_config(n_problems=8, difficulty=(3, 3)),
        rng=random.Random(2),
        checklist_order=ITEMS,
    )
    assert {ref.template_id.rsplit("-", 1)[1] for ref in refs} == {"3"}


def test_templates_repeat_with_fresh_seeds_only_when_the_pool_runs_out() -> None:
    few = [Candidate("kv-a", "kv-cache", 1), Candidate("kv-b", "kv-cache", 1)]
    refs = select_problems(few, config=_config(n_problems=5), rng=random.Random(4))
    assert Counter(ref.template_id for ref in refs[:2]) == {"kv-a": 1, "kv-b": 1}
    assert len(refs) == 5
    assert len({ref.seed for ref in refs}) == 5


def test_no_template_in_range_is_refused_with_the_range_named() -> None:
    only_easy = [Candidate("a", "fusion", 1)]
    with pytest.raises(NoCandidatesError, match=r"2\.\.3"):
        select_problems(only_easy, config=_config(difficulty=(2, 3)), rng=random.Random(0))


@pytest.mark.parametrize(
    "kw",
    [
        {"n_problems": 0},
        {"n_problems": 41},
        {"difficulty": (3, 1)},
        {"difficulty": (0, 2)},
        {"duration_s": 0},
    ],
)
def test_config_refuses_impossible_settings(kw: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        MockConfig(**{"duration_s": 60.0, **kw})  # type: ignore[arg-type]


def test_config_round_trips_through_its_stored_form() -> None:
    config = MockConfig.from_minutes(
        duration_min=0.5, n_problems=2, mix=Mix.WEAKEST_FIRST, difficulty=(2, 3), updates_schedule=True
    )
    assert config.duration_s == 30.0
    assert MockConfig.from_dict(config.to_dict(), duration_s=30.0) == config
    assert ProblemRef.from_dict(ProblemRef("kv-a", 12).to_dict()) == ProblemRef("kv-a", 12)


# --- a recall question in the mix, and numbers never asked twice -----------------------------------
WITH_RECALL = [*CANDIDATES, Candidate("fusion-why", "fusion", 2, recall=True)]


@pytest.mark.parametrize("seed", range(12))
def test_the_every_item_mix_asks_a_recall_question_in_place_of_one_of_its_item(seed: int) -> None:
    plain = select_problems(CANDIDATES, config=_config(n_problems=10), rng=random.Random(seed))
    refs = select_problems(WITH_RECALL, config=_config(n_problems=10), rng=random.Random(seed))
    assert [r.template_id for r in refs].count("fusion-why") >= 1
    assert Counter(_items(refs)) == Counter(_items(plain)), "the items asked stay those of the turn-taking"


def test_the_weakest_first_mix_is_left_to_the_weakest_items() -> None:
    strength = {"fusion": 1.0}  # the strongest: its recall question is not pulled in
    config = _config(n_problems=3, mix=Mix.WEAKEST_FIRST)
    refs = select_problems(
        WITH_RECALL, config=config, rng=random.Random(2), checklist_order=ITEMS, strength=strength
    )
    assert "fusion-why" not in [r.template_id for r in refs]


def test_a_seed_whose_numbers_were_asked_in_this_mock_or_the_last_ones_is_drawn_again() -> None:
    # Each template draws only four distinct problems; the last mocks asked two of kv-cache-1's.
    def numbers(template_id: str, seed: int) -> tuple[str, int]:
        return template_id, seed % 4

    seen = {("kv-cache-1", 0), ("kv-cache-1", 1)}
    few = [Candidate("kv-cache-1", "kv-cache", 1)]
    refs = select_problems(
        few, config=_config(n_problems=2), rng=random.Random(3), numbers=numbers, seen=seen
    )
    asked = [numbers(r.template_id, r.seed) for r in refs]
    assert len(set(asked)) == 2 and not set(asked) & seen
