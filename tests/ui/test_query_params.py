"""Every page's query-string parameters, read in one place: any text never raises; a value that cannot
be used falls back (None) with a notice naming the parameter; a usable one reads back as written."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from question_bank import load_bank
from ui.practice import Current
from ui.practice_address import from_query, to_query
from ui.query_params import CARD, EXTRA, PAGES, SEED, read_address

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
