"""Pinned draws: a template or scenario drawn with some of its params set to given values.

A pin names a drawn param (a preset, a dtype, a choice, a number range) and the value it takes, in the
form a problem's ``params`` shows it: a preset id, a dtype name, a number. Generation still makes every
draw the seed makes and then puts the pinned values in, so the params that are not pinned keep the
seed's own draws; the draw rules and the ``require`` list then hold the pinned draw as any other.

What a pin may ask for:

- a preset or a dtype the param draws (one of its ids or names, a preset meeting the ``require``
  entries on it alone): a question is only checked on those;
- for a numeric choice, any positive number of the same kind (a whole number where every choice is
  one): the list is what the bank draws from, not all a question can be asked with;
- for a number range, a number inside the range.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from question_bank.catalog import Dtype, PresetCatalog, select_presets
from question_bank.params import ChoiceParam, DtypeParam, FloatParam, IntParam, PresetParam
from question_bank.templates import ScenarioTemplate, Template

#: A pinned value as a problem's params show it: a preset id, a dtype name or a number.
PinValue = str | int | float
Pins = Mapping[str, PinValue]

_PRESET_WORDS = {"models": "the model", "hardware": "the accelerator"}


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def drawable_presets(template: Template | ScenarioTemplate, name: str, catalog: PresetCatalog) -> list[str]:
    """The ids of the presets param ``name`` of ``template`` can draw: those its spec selects that meet
    every ``require`` entry bound to that preset alone (``model.n_kv_heads < model.n_heads``)."""
    spec = template.params[name]
    assert isinstance(spec, PresetParam)
    own = [r for r in template.require if all(_on_preset(b, name) for b in (r.lhs, r.rhs))]
    return [
        preset_id
        for preset_id, preset in select_presets(spec, catalog.lists[spec.preset])
        if all(r.met(_resolve(r.lhs, preset), _resolve(r.rhs, preset)) for r in own)
    ]


def _on_preset(binding: Any, name: str) -> bool:
    return _is_number(binding) or (isinstance(binding, str) and binding.startswith(name + "."))


def _resolve(binding: Any, preset: Any) -> Any:
    return getattr(preset, binding.partition(".")[2]) if isinstance(binding, str) else binding


def pin_issue(template: Template | ScenarioTemplate, pins: Pins, catalog: PresetCatalog) -> str | None:
    """Why ``pins`` cannot be put into a draw of ``template``, as a phrase; None if they can."""
    params = template.params
    for name, value in pins.items():
        spec = params.get(name)
        if isinstance(spec, PresetParam):
            allowed = drawable_presets(template, name, catalog)
            if value not in allowed:
                presets = catalog.lists[spec.preset]
                names = ", ".join(getattr(presets[i], "name", i) for i in allowed)
                asked = getattr(presets.get(str(value)), "name", f"`{value}`")
                what = _PRESET_WORDS.get(spec.preset, spec.preset)
                return f"{what} {asked} is not one it draws (it draws {names})"
        elif isinstance(spec, DtypeParam):
            if value not in spec.dtype:
                return f"`{name}` in {value}: it draws {', '.join(spec.dtype)} only"
        elif isinstance(spec, ChoiceParam):
            issue = _choice_issue(name, spec, value)
            if issue:
                return issue
        elif isinstance(spec, IntParam | FloatParam):
            bounds = spec.int_ if isinstance(spec, IntParam) else spec.float_
            whole = isinstance(spec, IntParam)
            if not _is_number(value) or (whole and not float(value).is_integer()):
                return f"`{name}` = {value!r} is not a {'whole ' if whole else ''}number"
            if not bounds.low <= float(value) <= bounds.high:
                return f"`{name}` = {value:,} is outside {bounds.low:,}–{bounds.high:,}"
        else:
            return f"`{name}` is not a value it draws"
    return None


def _choice_issue(name: str, spec: ChoiceParam, value: PinValue) -> str | None:
    if not all(_is_number(c) for c in spec.choice):
        return None if value in spec.choice else f"`{name}` = {value!r} is not one of {spec.choice}"
    if not _is_number(value) or float(value) <= 0:
        return f"`{name}` = {value!r} is not a positive number"
    if all(float(c).is_integer() for c in spec.choice) and not float(value).is_integer():
        return f"`{name}` = {value} is not a whole number"
    return None


def pinned_value(spec: Any, value: PinValue, catalog: PresetCatalog) -> tuple[Any, Any]:
    """The value a pin puts into a draw and its shown form (as ``generation._draw`` returns them).

    ``value`` has passed :func:`pin_issue`.
    """
    if isinstance(spec, PresetParam):
        return catalog.lists[spec.preset][str(value)], value
    if isinstance(spec, DtypeParam):
        return Dtype.named(str(value)), value
    if _is_number(value) and float(value).is_integer() and _whole(spec):
        return int(value), int(value)
    return value, value


def _whole(spec: Any) -> bool:
    if isinstance(spec, IntParam):
        return True
    return isinstance(spec, ChoiceParam) and all(_is_number(c) and float(c).is_integer() for c in spec.choice)
