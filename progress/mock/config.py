"""What a mock interview is made of: its settings and the problems it drew, with their stored forms."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import NotRequired, TypedDict

#: The durations the setup offers, in minutes; any other positive length is a custom one.
PRESET_MINUTES: tuple[int, ...] = (15, 30, 45)
DEFAULT_N_PROBLEMS = 8
MAX_N_PROBLEMS = 40
MIN_DIFFICULTY = 1
MAX_DIFFICULTY = 3


class Mix(StrEnum):
    """How the problems are spread over the checklist.

    ``every-item``: one problem per checklist item in turn (items in random order), so a short
    mock still touches as many items as it has problems. ``weakest-first``: the same turn-taking,
    but items ordered from least to most ready, so the weakest come first and, when there are
    fewer problems than items, only the weakest are asked. ``interview``: a scenario's chain of
    steps (two scenarios from :data:`TWO_SCENARIOS_FROM_S` on), then single problems as in
    ``every-item``, the way an interviewer follows one setup before moving on.
    """

    EVERY_ITEM = "every-item"
    WEAKEST_FIRST = "weakest-first"
    INTERVIEW = "interview"


#: From this duration (seconds) on, an ``interview`` mock asks two scenarios instead of one.
TWO_SCENARIOS_FROM_S = 40 * 60.0


class MockConfigDict(TypedDict):
    """The stored form of a :class:`MockConfig` (the ``mocks.config`` JSON column)."""

    n_problems: int
    mix: str
    difficulty: list[int]
    updates_schedule: bool


@dataclass(frozen=True)
class MockConfig:
    """The settings a mock is started with.

    ``duration_s`` is in seconds; ``difficulty`` is the inclusive range of template difficulties
    (1 warm-up .. 3 interview-hard) to draw from; ``updates_schedule`` says whether the mock's
    answers also move the spaced-repetition cards (they always count for readiness).
    """

    duration_s: float
    n_problems: int = DEFAULT_N_PROBLEMS
    mix: Mix = Mix.EVERY_ITEM
    difficulty: tuple[int, int] = (MIN_DIFFICULTY, MAX_DIFFICULTY)
    updates_schedule: bool = False

    def __post_init__(self) -> None:
        if not math.isfinite(self.duration_s) or self.duration_s <= 0:
            raise ValueError(f"a mock needs a positive duration in seconds, got {self.duration_s!r}")
        if not 1 <= self.n_problems <= MAX_N_PROBLEMS:
            raise ValueError(f"a mock has 1 to {MAX_N_PROBLEMS} problems, got {self.n_problems}")
        low, high = self.difficulty
        if not MIN_DIFFICULTY <= low <= high <= MAX_DIFFICULTY:
            raise ValueError(
                f"difficulty is a range within {MIN_DIFFICULTY}..{MAX_DIFFICULTY}, got {self.difficulty}"
            )

    @staticmethod
    def from_minutes(
        *,
        duration_min: float,
        n_problems: int = DEFAULT_N_PROBLEMS,
        mix: Mix = Mix.EVERY_ITEM,
        difficulty: tuple[int, int] = (MIN_DIFFICULTY, MAX_DIFFICULTY),
        updates_schedule: bool = False,
    ) -> MockConfig:
        """A config whose duration is given in minutes (fractions allowed)."""
        return MockConfig(
            duration_s=float(duration_min) * 60.0,
            n_problems=n_problems,
            mix=mix,
            difficulty=difficulty,
            updates_schedule=updates_schedule,
        )

    def to_dict(self) -> MockConfigDict:
        return MockConfigDict(
            n_problems=self.n_problems,
            mix=self.mix.value,
            difficulty=list(self.difficulty),
            updates_schedule=self.updates_schedule,
        )

    @staticmethod
    def from_dict(data: MockConfigDict, *, duration_s: float) -> MockConfig:
        # The duration has its own column in ``mocks``; the JSON holds the rest.
        low, high = data.get("difficulty", [MIN_DIFFICULTY, MAX_DIFFICULTY])
        return MockConfig(
            duration_s=float(duration_s),
            n_problems=int(data["n_problems"]),
            mix=Mix(data.get("mix", Mix.EVERY_ITEM.value)),
            difficulty=(int(low), int(high)),
            updates_schedule=bool(data.get("updates_schedule", False)),
        )


class ProblemRefDict(TypedDict):
    """The stored form of a :class:`ProblemRef` (one entry of the ``mocks.problems`` JSON list)."""

    template_id: str
    seed: int
    step: NotRequired[int]


@dataclass(frozen=True)
class ProblemRef:
    """One problem of a mock, by the template it comes from and the seed that draws its numbers.

    ``step`` (1-based) is set for one step of a scenario; the scenario's id is the template id.
    """

    template_id: str
    seed: int
    step: int | None = None

    def to_dict(self) -> ProblemRefDict:
        data = ProblemRefDict(template_id=self.template_id, seed=self.seed)
        if self.step is not None:
            data["step"] = self.step
        return data

    @staticmethod
    def from_dict(data: ProblemRefDict) -> ProblemRef:
        step = data.get("step")
        return ProblemRef(
            template_id=str(data["template_id"]),
            seed=int(data["seed"]),
            step=int(step) if step is not None else None,
        )
