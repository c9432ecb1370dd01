"""Explore's "Drill this setup": a scenario of the bank drawn on exactly the setup's figures. No Streamlit.

A drill is a bank scenario whose params take the setup (model, accelerator, token counts, batch, MFU)
as pins (:mod:`question_bank.pins`); what the scenario states and does not draw (one chip, bf16
throughout) must be the setup's too. Its other draws (the targets a chat budget is held to) stay the
seed's. A setup that no drill takes gets a sentence saying why and what would do, never a different drill.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from question_bank import Bank
from question_bank.catalog import shipped_catalog
from question_bank.errors import GenerationError, PinError
from question_bank.generation_checks import generate_scenario_checked
from question_bank.pins import PinValue, drawable_presets, pin_issue
from question_bank.schema import ScenarioTemplate
from ui.explore.figures import CUSTOM, Setup


@dataclass(frozen=True)
class DrillShape:
    """How one bank scenario takes a setup: the Setup fields it states (and so needs as they are), and
    its params worked out from the setup."""

    template_id: str
    #: Setup field -> the value the scenario states (its prompt says "one GPU", "bf16").
    states: Mapping[str, object]
    pins: Callable[[Setup], dict[str, PinValue]]


_BF16 = {"weights": "bf16", "activations": "bf16", "kv": "bf16"}

#: The scenarios Explore drills, tried in order.
DRILLS: tuple[DrillShape, ...] = (
    DrillShape(
        "scenario-chat-latency-budget",
        states={"chips": 1, "batch": 1, **_BF16},
        pins=lambda s: {"model": s.model, "gpu": s.gpu, "prompt": s.prompt, "output": s.output, "mfu": s.mfu},
    ),
    DrillShape(
        "scenario-long-context-kv",
        states={"chips": 1, **_BF16},
        pins=lambda s: {"model": s.model, "gpu": s.gpu, "batch": s.batch, "context": s.context},
    ),
)

_FIELD_WORDS: Mapping[str, Callable[[object], str]] = {
    "chips": lambda n: "one chip" if n == 1 else f"{n} chips", "batch": lambda n: f"batch {n}",
    "weights": lambda d: f"{d} weights", "activations": lambda d: f"{d} activations",
    "kv": lambda d: f"a {d} KV cache",
}  # fmt: skip


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _stated_words(states: Mapping[str, object]) -> list[str]:
    """What a scenario states, in words; three bf16 formats are "bf16 throughout"."""
    throughout = all(states.get(f) == "bf16" for f in _BF16)
    return [_FIELD_WORDS[f](v) for f, v in states.items() if not (throughout and f in _BF16)] + (
        ["bf16 throughout"] if throughout else []
    )


@dataclass(frozen=True)
class Drill:
    """A scenario and the pins that draw it on the setup."""

    template_id: str
    title: str
    pins: tuple[tuple[str, PinValue], ...]


def _needs(shape: DrillShape, scenario: ScenarioTemplate) -> str:
    """What a scenario takes, in words: what it states, then the models and accelerators it draws."""
    catalog = shipped_catalog()
    names = {
        param: _either([catalog.lists[kind][i].name for i in drawable_presets(scenario, param, catalog)])
        for param, kind in (("model", "models"), ("gpu", "hardware"))
    }
    return f"{', '.join(_stated_words(shape.states))}, and {names['model']} on {names['gpu']}"


def _differences(shape: DrillShape, scenario: ScenarioTemplate, setup: Setup) -> list[str]:
    """What of ``setup`` the scenario does not take, in words: a stated field, a model or accelerator."""
    catalog = shipped_catalog()
    out = [_FIELD_WORDS[f](getattr(setup, f)) for f, v in shape.states.items() if getattr(setup, f) != v]
    for param, kind in (("model", "models"), ("gpu", "hardware")):
        preset_id = getattr(setup, param)
        if preset_id not in drawable_presets(scenario, param, catalog):
            out.append(catalog.lists[kind][preset_id].name)
    return out


def drill_for(setup: Setup, bank: Bank, *, seed: int, warnings: tuple[str, ...] = ()) -> Drill | str:
    """The drill that takes ``setup`` (drawn with ``seed``), or Markdown saying why none does and what
    to change. ``warnings``: the draw rules the setup breaks (Explore's), which no drill is built on."""
    if setup.model == CUSTOM:
        return "A drill draws a model of the bank: pick a preset model instead of custom figures."
    if warnings:
        return (
            "A drill is built only on a setup an interviewer would pose, and this one is not ("
            + "; ".join(warnings)
            + "). Change what the warnings above name."
        )
    reasons = []
    for shape in DRILLS:
        if not bank.is_scenario(shape.template_id):
            continue
        scenario = bank.scenario(shape.template_id)
        pins = shape.pins(setup)
        differences = _differences(shape, scenario, setup)
        issue = pin_issue(scenario, pins, shipped_catalog()) if not differences else None
        if not differences and issue is None:
            try:
                generate_scenario_checked(scenario, seed, pins=pins)
            except PinError as exc:
                issue = exc.reason
            except GenerationError as exc:
                issue = str(exc)
            else:
                return Drill(shape.template_id, scenario.title, tuple(pins.items()))
        why = f"not {_either(differences)}" if differences else f"but {issue}"
        reasons.append(f"- *{scenario.title}* takes {_needs(shape, scenario)}; {why}.")
    return "\n".join(["No scenario of the bank takes this setup as it is:", *reasons])
