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
