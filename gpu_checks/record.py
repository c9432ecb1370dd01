"""The stored form of result dataclasses: plain JSON-ready dicts, and back.

A frozen dataclass that inherits :class:`Record` gets ``to_dict`` (nested dataclasses become
dicts, tuples become lists, enums their values) and ``from_dict`` (driven by the field type
hints, so nested results, ``X | None``, ``tuple[X, ...]`` and ``dict[str, X]`` come back typed).
Keys a reader does not know are ignored, so older readers accept newer files; a value of the wrong
type (text where a number belongs, a list where a name does) raises ``TypeError``.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any, Self


def to_plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dicts, lists, str, int, float, bool or None."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    return value


def from_plain(hint: Any, data: Any) -> Any:
    """Rebuild a value of type ``hint`` from :func:`to_plain` output."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if data is None:
            return None
        inner = [arg for arg in args if arg is not type(None)]
        return from_plain(inner[0], data)
    if origin is tuple:
        return tuple(from_plain(args[0], item) for item in data)
    if origin is dict:
        return {str(key): from_plain(args[1], item) for key, item in data.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        known = {f.name for f in dataclasses.fields(hint) if f.init}
        return hint(**{name: from_plain(hints[name], data[name]) for name in known if name in data})
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data)
    if hint is float and data is not None:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise TypeError(f"expected a number, got {type(data).__name__}")
        return float(data)
    if hint in (str, int, bool) and not _is_exactly(hint, data):
        # A damaged or hand-edited file: refuse the record rather than hand a list to code expecting a name.
        raise TypeError(f"expected {hint.__name__}, got {type(data).__name__}")
    return data


def _is_exactly(hint: type, data: Any) -> bool:
    """Whether ``data`` is a ``hint`` (a bool is not an int here, nor an int a bool)."""
    if hint is int:
        return isinstance(data, int) and not isinstance(data, bool)
    return isinstance(data, hint)


class Record:
    """Mixin for frozen dataclasses: ``to_dict`` and ``from_dict`` through :func:`to_plain`."""

    def to_dict(self) -> dict[str, Any]:
        """This record as a JSON-ready dict."""
        plain: dict[str, Any] = to_plain(self)
        return plain

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The record ``to_dict`` produced; unknown keys are ignored, missing ones take defaults."""
        built: Self = from_plain(cls, data)
        return built
