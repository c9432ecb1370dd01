"""Every page's query-string parameters, read in one place: any text never raises; a value that cannot
be used falls back (None) with a notice naming the parameter; a usable one reads back as written."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from question_bank import load_bank
from ui.practice.address import from_query, to_query
from ui.practice.loop import Current
from ui.query_params import CARD, EXTRA, PAGES, PINS, SEED, read_address

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
BANK = load_bank()
# Any text an address can carry, digits of every script and the characters that break parsers included.
TEXT = st.text(st.characters(codec="utf-8"), max_size=60) | st.sampled_from(
    ["²", "٣", "1e3", " 7", "-1", "0", "99999999999999999999", "１２", "7\n", "`x`", "1.0", "", "00001"]
)


def test_every_page_has_its_parameters_listed() -> None:
    assert set(PAGES) == {path.stem for path in (ROOT / "pages").glob("*.py")}


@st.composite
def addresses(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    page = draw(st.sampled_from(sorted(PAGES)))
    names = [param.name for param in PAGES[page]]
    params = draw(st.dictionaries(st.sampled_from(names), TEXT)) if names else {}
    extra = draw(st.dictionaries(st.text(max_size=8), TEXT, max_size=2))
    return page, {**extra, **params}


@given(addresses())
@example(("practice", {"card": "kv-bytes-per-token", "seed": "²"}))
@example(("mock_interview", {"mock": "²", "problem": "99999999999999999999"}))
def test_any_text_in_any_pages_address_is_read_or_ignored_with_a_notice(
    address: tuple[str, dict[str, str]],
) -> None:
    page, params = address
    read = read_address(page, params)
    for param in PAGES[page]:
        if param.name not in params:
            assert read.get(param.name) is None
            continue
        value = read.get(param.name)
        named = [n for n in read.notices if n.startswith(f"The address's `{param.name}` ")]
        assert (value is None) == bool(named), (param.name, params[param.name], read)
    assert all("\n" not in notice and "ignored" in notice for notice in read.notices)
    assert len(read.notices) <= len(PAGES[page])


@given(TEXT)
@example("²")
def test_practice_restores_a_draw_only_from_a_seed_of_ascii_digits(seed: str) -> None:
    restored, notices = from_query(
        read_address("practice", {CARD: "kv-bytes-per-token", SEED: seed}), BANK, now=T0
    )
    if seed.isascii() and seed.isdigit() and len(seed) <= 12:
        assert restored is not None and restored.seed == int(seed) and not notices
    else:
        assert restored is None and any("`seed`" in notice for notice in notices)


@given(st.integers(min_value=0, max_value=2**31 - 1), st.booleans())
def test_the_practice_address_reads_back_the_draw_it_was_written_for(seed: int, scheduled: bool) -> None:
    current = Current("kv-bytes-per-token", seed, scheduled=scheduled, started_at=T0)
    restored, notices = from_query(read_address("practice", to_query(current)), BANK, now=T0)
    assert restored == current and not notices


def test_a_question_the_bank_no_longer_has_is_named() -> None:
    restored, notices = from_query(read_address("practice", {CARD: "gone-away", SEED: "3"}), BANK, now=T0)
    assert restored is None and notices == (
        "The address names the question `gone-away`, which the question bank no longer has.",
    )


def test_an_unreadable_extra_flag_keeps_the_draw_and_says_so() -> None:
    address = read_address("practice", {CARD: "kv-bytes-per-token", SEED: "3", EXTRA: "yes"})
    restored, notices = from_query(address, BANK, now=T0)
    assert restored is not None and restored.scheduled
    assert notices and "`extra`" in notices[0]


PIN_VALUES = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True).filter(lambda v: not v.isdigit()),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False),
)


@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True), PIN_VALUES, min_size=1, max_size=8
    ),
    st.integers(min_value=0, max_value=2**31 - 1),
)
def test_a_pinned_draws_address_reads_back_its_pins(pins: dict[str, object], seed: int) -> None:
    """A drilled setup's pins survive the address: same names, same values, numbers of the same kind."""
    current = Current(CHAT, seed, scheduled=True, started_at=T0, pins=tuple(pins.items()))
    restored, notices = from_query(read_address("practice", to_query(current)), BANK, now=T0)
    assert restored == current and not notices
    assert [type(v) for _, v in restored.pins] == [type(v) for v in pins.values()]


CHAT = "scenario-chat-latency-budget"


def test_a_drill_link_brings_back_the_same_numbers() -> None:
    """A refresh or a shared link of a drilled scenario draws it again with the same numbers."""
    from ui.practice.scenario import scenario_for

    link = {CARD: CHAT, SEED: "77", PINS: "model:qwen25_7b,gpu:h100_sxm,prompt:3000,output:150,mfu:0.45"}
    restored, notices = from_query(read_address("practice", link), BANK, now=T0)
    assert restored is not None and not notices
    assert dict(restored.pins) == {
        "model": "qwen25_7b", "gpu": "h100_sxm", "prompt": 3000, "output": 150, "mfu": 0.45,
    }  # fmt: skip
    drawn = scenario_for(BANK, restored.template_id, restored.seed, restored.pins)
    again = scenario_for(BANK, CHAT, 77, tuple(read_address("practice", to_query(restored)).get(PINS)))
    assert drawn.params == again.params
    assert {k: drawn.params[k] for k in dict(restored.pins)} == dict(restored.pins)
    assert "**3,000-token prompt**" in drawn.setup and "**45% MFU**" in drawn.setup


@pytest.mark.parametrize(
    "text", ["model", "model:", "a:1,a:2", "Model:x", "x:" + "9" * 70, ",".join(f"a{i}:1" for i in range(17))]
)
def test_an_unreadable_pins_parameter_is_ignored_with_a_notice(text: str) -> None:
    read = read_address("practice", {CARD: CHAT, SEED: "1", PINS: text})
    assert read.get(PINS) is None and any("`pins`" in n for n in read.notices)
