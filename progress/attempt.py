"""An attempt: one answer to one generated problem, as the store keeps it."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Any, TypedDict

from progress.utc import as_utc, from_iso, to_iso


class Mode(StrEnum):
    """Where the answer was given."""

    PRACTICE = "practice"
    MOCK = "mock"


class Status(StrEnum):
    """Whether the answer was right. An unparsable answer is not an attempt and is never stored."""

    CORRECT = "correct"
    INCORRECT = "incorrect"


class AttemptDict(TypedDict):
    """JSON-ready form of an attempt: the ``attempts`` row, with ``params`` decoded. Keys in column order."""

    id: int | None
    created_at: str
    day: str
    template_id: str
    checklist_item: str
    seed: int
    params: dict[str, Any]
    response: str
    value: float | None
    status: str
    score: float
    diagnosis: str | None
    mode: str
    mock_id: int | None
    duration_s: float | None
    explanation: dict[str, Any] | None


#: The ``attempts`` columns, in order; also the export's columns.
COLUMNS: tuple[str, ...] = tuple(AttemptDict.__annotations__)


@dataclass(frozen=True, kw_only=True)
class Attempt:
    """One graded answer.

    ``created_at`` is aware (stored in UTC); ``value`` is the parsed answer in SI units (None for choice and
    recall); ``score`` is 0..1; ``duration_s`` is the seconds spent on the problem; ``params`` are the drawn,
    JSON-serialisable values that regenerate the problem with ``seed``. ``explanation`` is the typed
    explanation of a recall answer as ``grader.ExplanationRecord.to_dict`` stores it (text, checks,
    overrules, points ``made``), None otherwise. ``id`` is set once stored.
    """

    created_at: datetime
    template_id: str
    checklist_item: str
    seed: int
    response: str
    status: Status
    score: float
    params: Mapping[str, Any] = field(default_factory=dict)
    value: float | None = None
    diagnosis: str | None = None
    mode: Mode = Mode.PRACTICE
    mock_id: int | None = None
    duration_s: float | None = None
    explanation: Mapping[str, Any] | None = None
    id: int | None = None

    def __post_init__(self) -> None:
        # Frozen: normalise through object.__setattr__ so equal attempts compare equal.
        object.__setattr__(self, "created_at", as_utc(self.created_at))
        object.__setattr__(self, "status", Status(self.status))
        object.__setattr__(self, "mode", Mode(self.mode))
        object.__setattr__(self, "params", dict(self.params))
        if not self.template_id or not self.checklist_item:
            raise ValueError("an attempt needs a template id and a checklist item")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"score must be within 0..1, got {self.score}")
        if self.duration_s is not None and not (math.isfinite(self.duration_s) and self.duration_s >= 0):
            raise ValueError(f"duration_s must be a finite number of seconds >= 0, got {self.duration_s}")
        if self.value is not None and not math.isfinite(self.value):
            raise ValueError(f"value must be finite, got {self.value}")
        if self.explanation is not None:
            object.__setattr__(self, "explanation", dict(self.explanation))
        json.dumps(self.params)  # raises TypeError now rather than at write time
        json.dumps(self.explanation)

    @property
    def day(self) -> date:
        """The UTC calendar day of the attempt."""
        return self.created_at.date()

    def params_json(self) -> str:
        """``params`` as compact, key-sorted JSON text."""
        return json.dumps(self.params, sort_keys=True, separators=(",", ":"))

    def explanation_json(self) -> str | None:
        """``explanation`` as compact JSON text, or None."""
        return None if self.explanation is None else json.dumps(self.explanation, separators=(",", ":"))

    def to_dict(self) -> AttemptDict:
        """The JSON-ready stored form."""
        return {
            "id": self.id,
            "created_at": to_iso(self.created_at),
            "day": self.day.isoformat(),
            "template_id": self.template_id,
            "checklist_item": self.checklist_item,
            "seed": self.seed,
            "params": dict(self.params),
            "response": self.response,
            "value": self.value,
            "status": self.status.value,
            "score": self.score,
            "diagnosis": self.diagnosis,
            "mode": self.mode.value,
            "mock_id": self.mock_id,
            "duration_s": self.duration_s,
            "explanation": None if self.explanation is None else dict(self.explanation),
        }

    @classmethod
    def from_dict(cls, source: AttemptDict) -> Attempt:
        """An attempt from its stored form (``day`` is derived, so it is not read)."""
        return cls(
            id=source["id"],
            created_at=from_iso(source["created_at"]),
            template_id=source["template_id"],
            checklist_item=source["checklist_item"],
            seed=int(source["seed"]),
            params=source["params"],
            response=source["response"],
            value=source["value"],
            status=Status(source["status"]),
            score=float(source["score"]),
            diagnosis=source["diagnosis"],
            mode=Mode(source["mode"]),
            mock_id=source["mock_id"],
            duration_s=source["duration_s"],
            explanation=source.get("explanation"),
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Attempt:
        """An attempt from an ``attempts`` row (``params`` still JSON text)."""
        source = {name: row[name] for name in COLUMNS}
        source["params"] = json.loads(row["params"])
        source["explanation"] = json.loads(row["explanation"]) if row["explanation"] else None
        return cls.from_dict(source)  # type: ignore[arg-type]
