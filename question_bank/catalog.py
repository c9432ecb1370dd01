"""What template parameters are drawn from: the preset lists and the number formats.

A template names a preset list (``models`` or ``hardware``) and may bind any field of the
chosen preset (``model.n_layers``, ``gpu.mem_bandwidth``). The shipped catalog comes from
:mod:`question_bank.presets`; tests may pass a smaller one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from grader.estimator import DTYPE_BYTES
from question_bank.params import PRESENT, PresetParam, RangeFilter


@dataclass(frozen=True)
class Dtype:
    """A drawn number format: ``name`` (``bf16``) and ``bytes`` per element (2.0). Renders as its name."""

    name: str
    bytes: float

    @staticmethod
    def named(name: str) -> Dtype:
        return Dtype(name=name, bytes=DTYPE_BYTES[name])

    def __str__(self) -> str:
        return self.name


#: The fields a drawn dtype offers to bindings and placeholders.
DTYPE_FIELDS = frozenset({"name", "bytes"})


@dataclass(frozen=True)
class PresetCatalog:
    """Preset lists by name (``models``, ``hardware``), each a mapping of preset id to preset."""

    lists: Mapping[str, Mapping[str, Any]]

    def fields(self, list_name: str) -> frozenset[str]:
        """The field names every preset of ``list_name`` has."""
        presets = self.lists[list_name]
        if not presets:
            return frozenset()
        return _field_names(type(next(iter(presets.values()))))


def _field_names(cls: type) -> frozenset[str]:
    model_fields = getattr(cls, "model_fields", None)
    if isinstance(model_fields, dict):
        return frozenset(model_fields)
    if is_dataclass(cls):
        return frozenset(f.name for f in fields(cls))
    raise TypeError(f"a preset must be a pydantic model or a dataclass, got {cls.__name__}")


def select_presets(spec: PresetParam, presets: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The (id, preset) pairs ``spec`` allows, sorted by id so that draws do not depend on file order."""
    wanted = spec.ids if spec.ids is not None else presets
    chosen = [
        (preset_id, presets[preset_id])
        for preset_id in sorted(set(wanted))
        if preset_id in presets
        and preset_id not in spec.exclude
        and all(
            _passes(getattr(presets[preset_id], field, None), condition)
            for field, condition in spec.where.items()
        )
    ]
    return chosen


def _passes(value: Any, condition: Any) -> bool:
    if condition == PRESENT:
        return value is not None
    if isinstance(condition, RangeFilter):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return (condition.min is None or value >= condition.min) and (
            condition.max is None or value <= condition.max
        )
    return bool(value == condition)


@functools.cache
def shipped_catalog() -> PresetCatalog:
    """The presets shipped in ``question_bank/data`` (read once per process)."""
    # Imported on first use: a bank loaded with its own catalog (as in tests) never reads the preset files.
    from question_bank.presets import load_hardware, load_models

    return PresetCatalog(lists={"models": load_models(), "hardware": load_hardware()})
