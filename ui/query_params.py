"""Every query-string parameter of every page, read in one place. No Streamlit here.

An address can hold anything (``?seed=²``, a 20-digit id, text where a number belongs), so each
parameter is read by one small rule: a value it can use, or None with a notice saying what was ignored.
Reading never raises. ``str.isdigit`` is never used: it accepts ``²`` and other digits ``int`` refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from progress.mock.rows import MAX_ROW_ID
from question_bank import load_hardware
from question_bank.model_base import KEBAB_ID
from question_bank.presets import standard_attention_models
from ui import state_keys as keys
from ui.explore.figures import DTYPES, LIMITS

#: Practice: the template id on screen, its seed, and ``extra=1`` for practice off the schedule;
#: ``pins`` for a draw with some params set (``pins=model:llama3_8b,prompt:1000``, a drilled setup).
CARD = "card"
SEED = "seed"
EXTRA = "extra"
PINS = "pins"
#: Mock interview: the mock shown, and its problem on screen (1-based).
MOCK = keys.MOCK_QUERY_PARAM
PROBLEM = keys.MOCK_PROBLEM_QUERY_PARAM

_ASCII_DIGITS = re.compile(r"[0-9]+")
_TEMPLATE_ID = re.compile(KEBAB_ID)
# A practice seed is drawn below 2**31; twelve digits leave room for older draws and fit an int64.
_MAX_SEED_DIGITS = 12
_MAX_ID_CHARS = 200
# A value quoted back in a notice is cut to this many characters.
_SHOWN_CHARS = 40


def _whole_number(text: str, *, low: int, high: int) -> int | None:
    if not _ASCII_DIGITS.fullmatch(text) or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if low <= number <= high else None


def _seed(text: str) -> int | None:
    return _whole_number(text, low=0, high=10**_MAX_SEED_DIGITS - 1)


def _template_id(text: str) -> str | None:
    return text if len(text) <= _MAX_ID_CHARS and _TEMPLATE_ID.match(text) else None


def _flag(text: str) -> bool | None:
    return {"1": True, "0": False}.get(text)


_PIN = re.compile(r"([a-z_][a-z0-9_]{0,39}):([A-Za-z0-9_.+-]{1,60})")
_WHOLE = re.compile(r"-?[0-9]{1,15}")
_NUMBER = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,24})?(e[+-]?[0-9]{1,2})?")
_MAX_PINS = 16


def _pins(text: str) -> tuple[tuple[str, str | int | float], ...] | None:
    """``name:value`` pairs joined by commas: each value a number or a preset id or dtype name."""
    parts = text.split(",")
    if len(parts) > _MAX_PINS:
        return None
    pins: dict[str, str | int | float] = {}
    for part in parts:
        match = _PIN.fullmatch(part)
        if match is None or match.group(1) in pins:
            return None
        name, value = match.groups()
        # A whole number stays whole (``1000``); one written with a point or an exponent is a float.
        if _WHOLE.fullmatch(value):
            pins[name] = int(value)
        else:
            pins[name] = float(value) if _NUMBER.fullmatch(value) else value
    return tuple(pins.items())


def pins_query(pins: tuple[tuple[str, str | int | float], ...]) -> str:
    """The ``pins`` parameter's text for ``pins`` (what :func:`_pins` reads back)."""
    # repr keeps a float's point (``1.0``), so it is read back as a float.
    return ",".join(
        f"{name}:{value!r}" if isinstance(value, float) else f"{name}:{value}" for name, value in pins
    )


def _row_id(text: str) -> int | None:
    return _whole_number(text, low=1, high=MAX_ROW_ID)


def _model(text: str) -> str | None:
    return text if text in standard_attention_models() else None


def _gpu(text: str) -> str | None:
    return text if text in load_hardware() else None


def _dtype(text: str) -> str | None:
    return text if text in DTYPES else None


def _bounded(name: str) -> Callable[[str], int | None]:
    low, high = LIMITS[name]
    return lambda text: _whole_number(text, low=low, high=high)


def _between(name: str) -> str:
    low, high = LIMITS[name]
    return f"a whole number from {low:,} to {high:,}"


@dataclass(frozen=True)
class Param:
    """One query-string parameter: its name, its reading (None: unusable) and what a usable one is."""

    name: str
    read: Callable[[str], object | None]
    meaning: str


#: Each page's parameters, by the page's script name. A page absent here reads none.
PAGES: dict[str, tuple[Param, ...]] = {
    "practice": (
        Param(CARD, _template_id, "a question id such as `kv-bytes-per-token`"),
        Param(SEED, _seed, f"a whole number of up to {_MAX_SEED_DIGITS} digits"),
        Param(EXTRA, _flag, "`1` or `0`"),
        Param(PINS, _pins, "`name:value` pairs joined by commas, such as `model:llama3_8b,prompt:1000`"),
    ),
    "mock_interview": (
        Param(MOCK, _row_id, "a mock's number"),
        Param(PROBLEM, _row_id, "a problem's number"),
    ),
    "readiness": (),
    "cheat_sheet": (),
    "gpu_checks": (),
    # Explore: the setup on screen, so that a link reproduces it.
    "explore": (
        Param("model", _model, "a model preset with standard attention, such as `llama2_13b`"),
        Param("gpu", _gpu, "an accelerator preset such as `a100_80gb_sxm`"),
        Param("chips", _bounded("chips"), _between("chips")),
        Param("weights", _dtype, "one of " + ", ".join(f"`{d}`" for d in DTYPES)),
        Param("kv", _dtype, "one of " + ", ".join(f"`{d}`" for d in DTYPES)),
        Param("batch", _bounded("batch"), _between("batch")),
        Param("prompt", _bounded("prompt"), _between("prompt")),
        Param("output", _bounded("output"), _between("output")),
    ),
}


@dataclass(frozen=True)
class Address:
    """What a page's address asks for: each of its parameters read (None where absent or unusable)."""

    values: Mapping[str, object]
    #: One sentence per parameter that was present but unusable, saying it was ignored.
    notices: tuple[str, ...] = ()

    def get(self, name: str) -> object | None:
        return self.values.get(name)


def read_address(page: str, params: Mapping[str, object]) -> Address:
    """The parameters of ``page`` (a key of :data:`PAGES`) in ``params``, as ``st.query_params`` holds them.

    Any other parameter is left alone (the app's navigation may carry some). Never raises.
    """
    values: dict[str, object] = {}
    notices: list[str] = []
    for param in PAGES[page]:
        raw = params.get(param.name)
        if raw is None:
            continue
        text = raw if isinstance(raw, str) else str(raw)
        value = param.read(text)
        values[param.name] = value
        if value is None:
            notices.append(_ignored(param, text))
    return Address(values, tuple(notices))


def _ignored(param: Param, text: str) -> str:
    shown = text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…"
    # The value is quoted as code, so that nothing typed into an address is drawn as Markdown.
    quoted = "`" + shown.replace("`", "'").replace("\n", " ") + "`" if shown.strip() else "empty"
    return f"The address's `{param.name}` ({quoted}) is not {param.meaning}, so it was ignored."
