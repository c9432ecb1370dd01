"""Choosing a mock's problems: which templates, in which order, with which seeds.

Pure: the candidates, the per-item strengths and the random source are all passed in, so the
same inputs always give the same mock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

from progress.mock.config import TWO_SCENARIOS_FROM_S, Mix, MockConfig, ProblemRef

#: Seeds are drawn below this bound (they are stored in an SQLite INTEGER and shown to people).
SEED_BOUND = 2**31
#: How many seeds a problem may draw before one whose numbers are not taken: a template with few
#: distinct draws (a small preset list) then repeats rather than loops.
_SEED_TRIES = 16

#: The numbers a draw poses, by template id and seed (problems with equal keys ask the same thing).
Numbers = Callable[[str, int], Hashable]


@dataclass(frozen=True)
class Candidate:
    """A template a mock may draw from: its id, its checklist item and its difficulty (1..3)."""

    template_id: str
    checklist_item: str
    difficulty: int
    #: A recall question (an explanation), which the every-item and interview mixes ask at least once.
    recall: bool = False


class NoCandidatesError(ValueError):
    """No template fits the mock's difficulty range; the message says which range was asked for."""


def _item_order(
    items: Sequence[str],
    *,
    mix: Mix,
    checklist_order: Sequence[str],
    strength: Mapping[str, float],
    rng: random.Random,
) -> list[str]:
    rank = {item: i for i, item in enumerate(checklist_order)}
    # Items the checklist does not list (user templates) go last, alphabetically, so the base
    # order never depends on dict or set iteration.
    ordered = sorted(items, key=lambda item: (rank.get(item, len(rank)), item))
    if mix is Mix.WEAKEST_FIRST:
        # An item never practised has no strength yet and counts as the weakest of all.
        return sorted(ordered, key=lambda item: strength.get(item, 0.0))
    rng.shuffle(ordered)
    return ordered


def select_problems(
    candidates: Sequence[Candidate],
    *,
    config: MockConfig,
    rng: random.Random,
    checklist_order: Sequence[str] = (),
    strength: Mapping[str, float] | None = None,
    numbers: Numbers | None = None,
    seen: Collection[Hashable] = (),
) -> list[ProblemRef]:
    """``config.n_problems`` problems, taking turns over the checklist items.

    Items take turns in the order the mix gives (see :class:`~progress.mock.config.Mix`); each
    turn draws an unused template of that item at random, and an item's templates repeat
    (with new seeds) only after all of them were used. ``strength`` maps a checklist item to
    how ready the user is on it, 0 (not at all) .. 1 (ready); it orders ``weakest-first``.
    The every-item mix asks at least one recall question when one fits the difficulty range.
    ``numbers`` says what a draw asks (its template and numbers); a seed whose draw asks what this
    mock or ``seen`` (the last mocks' draws) already asked is drawn again.
    Raises :class:`NoCandidatesError` when no candidate lies in the difficulty range.
    """
    low, high = config.difficulty
    fitting = [c for c in candidates if low <= c.difficulty <= high]
    if not fitting:
        raise NoCandidatesError(
            f"no question template has difficulty {low}..{high}; widen the difficulty range"
        )
    by_item: dict[str, list[str]] = {}
    for candidate in sorted(fitting, key=lambda c: c.template_id):
        by_item.setdefault(candidate.checklist_item, []).append(candidate.template_id)
    order = _item_order(
        list(by_item),
        mix=config.mix,
        checklist_order=checklist_order,
        strength=strength or {},
        rng=rng,
    )
    pools: dict[str, list[str]] = {item: [] for item in order}
    chosen: list[ProblemRef] = []
    while len(chosen) < config.n_problems:
        for item in order:
            if len(chosen) == config.n_problems:
                break
            if not pools[item]:
                pools[item] = list(by_item[item])
                rng.shuffle(pools[item])
            chosen.append(ProblemRef(template_id=pools[item].pop(), seed=rng.randrange(SEED_BOUND)))
    if config.mix is not Mix.WEAKEST_FIRST:
        chosen = _with_recall(chosen, fitting, rng=rng)
    return _fresh_numbers(chosen, numbers=numbers, seen=seen, rng=rng) if numbers else chosen


def _with_recall(
    chosen: list[ProblemRef], fitting: Sequence[Candidate], *, rng: random.Random
) -> list[ProblemRef]:
    """``chosen`` with at least one recall question, when one fits: an interviewer asks for an explanation.

    The last problem whose item has a recall question gives way to it, so the items asked stay the same;
    when none has, the last problem does.
    """
    by_id = {c.template_id: c for c in fitting}
    recalls = sorted((c for c in fitting if c.recall), key=lambda c: c.template_id)
    if not recalls or not chosen or any(by_id[r.template_id].recall for r in chosen):
        return chosen
    for position in reversed(range(len(chosen))):
        item = by_id[chosen[position].template_id].checklist_item
        own = [c for c in recalls if c.checklist_item == item]
        if own:
            break
    else:
        position, own = len(chosen) - 1, recalls
    swapped = replace(chosen[position], template_id=rng.choice(own).template_id)
    return [*chosen[:position], swapped, *chosen[position + 1 :]]


def _fresh_numbers(
    chosen: Sequence[ProblemRef], *, numbers: Numbers, seen: Collection[Hashable], rng: random.Random
) -> list[ProblemRef]:
    """``chosen`` with each seed drawn again (a few times at most) while its draw asks what was asked."""
    taken = set(seen)
    fresh = []
    for ref in chosen:
        seed, asked = ref.seed, numbers(ref.template_id, ref.seed)
        for _ in range(_SEED_TRIES):
            if asked not in taken:
                break
            seed = rng.randrange(SEED_BOUND)
            asked = numbers(ref.template_id, seed)
        taken.add(asked)
        fresh.append(replace(ref, seed=seed))
    return fresh


@dataclass(frozen=True)
class ScenarioCandidate:
    """A scenario a mock may ask: its id, how many steps it has and its difficulty (1..3)."""

    template_id: str
    n_steps: int
    difficulty: int


def select_interview(
    scenarios: Sequence[ScenarioCandidate],
    candidates: Sequence[Candidate],
    *,
    config: MockConfig,
    rng: random.Random,
    checklist_order: Sequence[str] = (),
    numbers: Numbers | None = None,
    seen: Collection[Hashable] = (),
) -> list[ProblemRef]:
    """An ``interview`` mock: every step of one scenario (two from 40 minutes), then single problems.

    The scenarios are drawn among those in the difficulty range (any, when none is); each gets one
    seed shared by its steps. ``config.n_problems`` single problems follow, chosen as for
    ``every-item`` (so with a recall question among them, and ``numbers`` and ``seen`` as there).
    Raises :class:`NoCandidatesError` when the bank has no scenario.
    """
    if not scenarios:
        raise NoCandidatesError("the question bank has no scenarios; choose another mix")
    low, high = config.difficulty
    fitting = [s for s in scenarios if low <= s.difficulty <= high] or list(scenarios)
    wanted = 2 if config.duration_s >= TWO_SCENARIOS_FROM_S else 1
    chosen = rng.sample(sorted(fitting, key=lambda s: s.template_id), k=min(wanted, len(fitting)))
    refs: list[ProblemRef] = []
    for scenario in chosen:
        seed = rng.randrange(SEED_BOUND)
        refs += [ProblemRef(scenario.template_id, seed, step=n) for n in range(1, scenario.n_steps + 1)]
    singles = replace(config, mix=Mix.EVERY_ITEM)
    return refs + select_problems(
        candidates, config=singles, rng=rng, checklist_order=checklist_order, numbers=numbers, seen=seen
    )
