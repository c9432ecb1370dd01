"""The placeholder grammar: what parses, what is refused, and how values render."""

from __future__ import annotations

import pytest

from grader.units import format_quantity
from question_bank.catalog import Dtype
from question_bank.rendering import BadPlaceholder, Placeholder, format_value, parse, render


def test_the_three_forms_parse() -> None:
    found = parse("{model} has {model.n_layers} layers and {gpu.mem_bandwidth|TB/s} bandwidth")
    assert [(p.name, p.field, p.unit) for p in found if isinstance(p, Placeholder)] == [
        ("model", None, None),
        ("model", "n_layers", None),
        ("gpu", "mem_bandwidth", "TB/s"),
    ]
    assert [p.offset for p in found] == [0, 12, 40]


@pytest.mark.parametrize(
    "text",
    [
        "{model.name:>10}",
        "{model['name']}",
        "{model.name()}",
        "{a.b.c}",
        "{}",
        "{ 1x }",
        "{x|}",
        "open { only",
        "close } only",
    ],
)
def test_anything_else_is_a_bad_placeholder(text: str) -> None:
    assert any(isinstance(p, BadPlaceholder) for p in parse(text))


def test_doubled_braces_are_literal() -> None:
    assert parse("{{model}} and }}") == []
    assert render("{{model}} is {x}", lambda p: "7") == "{model} is 7"


def test_values_render_as_people_read_them() -> None:
    assert format_value(13_015_864_320, None) == "13,015,864,320"
    assert format_value(0.123456, None) == "0.1235"
    assert format_value(True, None) == "true"
    assert format_value(Dtype.named("bf16"), None) == "bf16"
    assert format_value(1.555e12, "TB/s") == format_quantity(1.555e12, "TB/s")


def test_a_preset_renders_as_its_name() -> None:
    class Preset:
        name = "NVIDIA A100 40GB SXM4"

    assert format_value(Preset(), None) == "NVIDIA A100 40GB SXM4"


# --- the words around a placeholder agree with what it renders as ---------------------------------


def _rendered(text: str, **values: object) -> str:
    return render(text, lambda p: format_value(values[p.name], p.unit))


def test_the_article_before_a_drawn_name_agrees_with_it() -> None:
    assert _rendered("on a **{gpu}**", gpu="NVIDIA L4") == "on an **NVIDIA L4**"
    assert _rendered("on a {gpu}", gpu="Google TPU v5e") == "on a Google TPU v5e"
    assert _rendered("An {gpu} here", gpu="Google TPU v5e") == "A Google TPU v5e here"
    assert _rendered("A {n}-minute mock", n=8) == "An 8-minute mock"


def test_a_count_of_one_takes_the_singular_noun() -> None:
    assert _rendered("a batch of **{b}** sequences", b=1) == "a batch of **1** sequence"
    assert _rendered("a batch of **{b}** sequences", b=4) == "a batch of **4** sequences"
    assert _rendered("{n} bytes ({d})", n=1, d="int8") == "1 byte (int8)"


def test_a_name_with_its_own_parenthesis_shares_the_next_one() -> None:
    text = "**{gpu}** ({peak|TFLOP/s} dense)"
    assert _rendered(text, gpu="Google TPU v5e (per chip)", peak=197e12) == (
        "**Google TPU v5e** (per chip; 197 TFLOP/s dense)"
    )
    assert _rendered("{gpu} is fast", gpu="Google TPU v5e (per chip)") == "Google TPU v5e (per chip) is fast"


@pytest.mark.parametrize(
    "value,unit,shown",
    [
        (4.5 * 2**20, "KiB", "4.5 MiB"),
        (5e-6, "ms", "5 µs"),
        (0.6e12, "TB/s", "600 GB/s"),
        (819200, "KiB", "800 KiB"),
        (1.555e12, "TB/s", "1.555 TB/s"),
        (0.5, "%", "50%"),
    ],
)
def test_a_figure_outside_its_units_range_takes_the_prefix_people_use(
    value: float, unit: str, shown: str
) -> None:
    assert format_value(value, unit) == shown
