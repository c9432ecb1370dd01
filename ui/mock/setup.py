"""What the mock setup screen starts from: the settings of the last mock, else the defaults."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from progress.mock.config import DEFAULT_N_PROBLEMS, MAX_DIFFICULTY, MIN_DIFFICULTY, Mix, MockConfig

#: The duration radio's value for a length of the user's own.
CUSTOM = "custom"
_DEFAULT_MINUTES = 30
_DEFAULT_CUSTOM_MINUTES = 20.0


@dataclass(frozen=True)
class SetupDefaults:
    """The setup widgets' starting values: a duration choice (minutes as text, or ``custom``) and the rest."""

    duration_choice: str
    custom_minutes: float
    n_problems: int
    mix: Mix
    difficulty: tuple[int, int]

    @staticmethod
    def of(last: MockConfig | None, *, presets: Sequence[int]) -> SetupDefaults:
        """Start from ``last`` (the most recent mock's settings) so that "New mock" keeps them."""
        if last is None:
            return SetupDefaults(
                str(_DEFAULT_MINUTES if _DEFAULT_MINUTES in presets else presets[0]),
                _DEFAULT_CUSTOM_MINUTES,
                DEFAULT_N_PROBLEMS,
                Mix.EVERY_ITEM,
                (MIN_DIFFICULTY, MAX_DIFFICULTY),
            )
        minutes = last.duration_s / 60.0
        preset = next((m for m in presets if abs(m - minutes) < 1e-9), None)
        return SetupDefaults(
            duration_choice=CUSTOM if preset is None else str(preset),
            custom_minutes=_DEFAULT_CUSTOM_MINUTES if preset is not None else minutes,
            n_problems=last.n_problems,
            mix=last.mix,
            difficulty=last.difficulty,
        )
