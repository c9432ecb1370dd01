"""AppTest of the practice page: one behaviour per test, widgets found by key, state seeded."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.etree import ElementTree

import pytest
from streamlit.testing.v1 import AppTest

from grader import Kind
from grader.units import format_quantity
from progress import Settings, Store
from question_bank import Bank, generate, load_bank, load_checklist
from ui import state_keys as keys
from ui.choice_view import PICK_FIRST
from ui.practice.loop import Current

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "practice.py")
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


def _page(db: Path, *, current: Current | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.RNG_SEED] = 7
    if current is not None:
        at.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
    return at.run()


def _first(bank: Bank, kind: Kind, *, with_slips: bool = False) -> str:
    for template in bank.templates:
        if template.kind != kind:
            continue
        if with_slips and not generate(template, 1).slips:
            continue
        return template.id
    raise AssertionError(f"the shipped bank has no {kind} template")


def _current(template_id: str, seed: int = 1) -> Current:
    return Current(template_id=template_id, seed=seed, scheduled=True, started_at=NOW - timedelta(seconds=40))


def _refreshed(at: AppTest, db: Path) -> AppTest:
    """The page after a browser refresh: a new session that keeps only the address."""
    refreshed = AppTest.from_file(PAGE, default_timeout=60)
    refreshed.session_state[keys.DB_PATH] = str(db)
    refreshed.session_state[keys.CLOCK] = lambda: NOW
    refreshed.session_state[keys.RNG_SEED] = 99  # a different chain of seeds
    for name, value in at.query_params.items():
        refreshed.query_params[name] = value
    return refreshed.run()


SVG = "{http://www.w3.org/2000/svg}"


def _roofline_pictures(at: AppTest) -> list[ElementTree.Element]:
    """The SVG documents the page shows as Markdown images, parsed."""
    found = re.findall(
        r"\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)\)", "".join(md.value for md in at.markdown)
    )
    return [ElementTree.fromstring(base64.b64decode(data)) for data in found]


def test_a_new_user_gets_a_problem_and_todays_counts(tmp_path: Path) -> None:
    at = _page(tmp_path / "p.db")
    assert not at.exception
    assert keys.PRACTICE_CURRENT in at.session_state
    [counts] = [md.value for md in at.markdown if md.value.startswith("Due ")]
    assert re.fullmatch(
        r"Due \*\*\d+\*\* · New today \*\*[1-9]\d*\*\* · Done today \*\*0\*\* · Streak \*\*0 days\*\*", counts
    ), counts


def test_right_answer_is_recorded_and_scheduled(tmp_path: Path, bank: Bank) -> None:
    template_id = _first(bank, Kind.NUMERIC)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    problem = generate(bank.get(template_id), 1)
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert not at.exception
    assert at.success, "a right answer shows a success message"
    store = Store(tmp_path / "p.db")
    [attempt] = store.attempts()
    assert (attempt.template_id, attempt.status, attempt.duration_s) == (template_id, "correct", 40.0)
    assert at.button(key=keys.PRACTICE_NEXT)
    # Under the verdict, the derivation, the reading and the references are one Markdown text.
    [reading] = [md.value for md in at.markdown if md.value.startswith("**Worked derivation**")]
    assert problem.derivation and all(step.label in reading for step in problem.derivation)
    assert problem.explanation in reading
    assert problem.references and all(reference in reading for reference in problem.references)


def test_wrong_answer_names_the_slip(tmp_path: Path, bank: Bank) -> None:
    from grader.diagnosis import slip_label

    template_id = _first(bank, Kind.NUMERIC, with_slips=True)
    problem = generate(bank.get(template_id), 1)
    slip = problem.slips[0]
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(slip.value, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert not at.exception
    assert at.error, "a wrong answer is shown as wrong"
    # Named in words on screen (forgot K and V), stored by its id.
    assert any(f"Slip: {slip_label(slip.name)}." in warning.value for warning in at.warning)
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert (attempt.status, attempt.diagnosis) == ("incorrect", slip.name)


def test_unparsable_answer_says_what_to_type_and_is_not_an_attempt(tmp_path: Path, bank: Bank) -> None:
    at = _page(tmp_path / "p.db", current=_current(_first(bank, Kind.NUMERIC)))
    at.text_input(key=keys.PRACTICE_ANSWER).input("about a lot")
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert not at.exception
    assert any("Type" in warning.value for warning in at.warning)
    assert Store(tmp_path / "p.db").attempts() == []
    assert at.text_input(key=keys.PRACTICE_ANSWER), "the answer box stays for another try"


def test_the_answer_box_says_how_answers_are_read_until_answered(tmp_path: Path, bank: Bank) -> None:
    from ui.answer_help_view import HELP_MARKDOWN

    template_id = _first(bank, Kind.NUMERIC)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    [help_box] = [e for e in at.expander if e.label == "How answers are read"]
    assert [md.value for md in help_box.markdown] == [HELP_MARKDOWN.strip()]
    problem = generate(bank.get(template_id), 1)
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert at.success
    assert not [e for e in at.expander if e.label == "How answers are read"], "the feedback takes its place"


def test_recall_problem_is_self_rated(tmp_path: Path, bank: Bank) -> None:
    template_id = _first(bank, Kind.RECALL)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.button(key=keys.PRACTICE_REVEAL).click().run()
    assert any("Key points" in md.value for md in at.markdown)
    at.button(key=keys.PRACTICE_RATE_PREFIX + "good").click().run()
    assert not at.exception
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert (attempt.response, attempt.status) == ("good", "correct")
    assert at.button(key=keys.PRACTICE_NEXT)


def test_choice_problem_is_graded(tmp_path: Path, bank: Bank) -> None:
    template_id = _first(bank, Kind.CHOICE)
    problem = generate(bank.get(template_id), 1)
    right = next(i for i, choice in enumerate(problem.choices) if choice.correct)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.button(key=f"{keys.PRACTICE_OPTION_PREFIX}{right}").click().run()
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert not at.exception
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.status == "correct"


def test_a_choice_is_picked_by_its_number_key_and_checked_with_enter(tmp_path: Path, bank: Bank) -> None:
    template_id = _first(bank, Kind.CHOICE)
    problem = generate(bank.get(template_id), 1)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    options = [at.button(key=f"{keys.PRACTICE_OPTION_PREFIX}{i}") for i in range(len(problem.choices))]
    assert [o.proto.shortcut for o in options] == [str(i + 1) for i in range(len(problem.choices))]
    assert at.button(key=keys.PRACTICE_SUBMIT).proto.shortcut == "enter"
    wrong = next(i for i, choice in enumerate(problem.choices) if not choice.correct)
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert PICK_FIRST in [w.value for w in at.warning], "Check with nothing picked says what to do"
    at.button(key=f"{keys.PRACTICE_OPTION_PREFIX}{wrong}").click().run()
    assert at.session_state[keys.PRACTICE_CHOICE] == wrong
    assert not Store(tmp_path / "p.db").attempts(), "a pick alone is not an answer"
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert (attempt.response, attempt.status) == (str(wrong), "incorrect")


def test_empty_queue_shows_the_session_summary(tmp_path: Path) -> None:
    store = Store(tmp_path / "p.db")
    store.save_settings(Settings(daily_new_limit=0))
    at = _page(tmp_path / "p.db")
    assert not at.exception
    assert keys.PRACTICE_CURRENT not in at.session_state
    assert any("Nothing is due" in s.value for s in at.success)
    assert at.button(key=keys.PRACTICE_EXTRA)


def test_filter_limits_the_queue_to_one_item(tmp_path: Path, bank: Bank) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(tmp_path / "p.db")
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.PRACTICE_FILTER_ITEM] = "kv-cache"
    at.run()
    assert not at.exception
    current = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    assert bank.get(current.template_id).checklist == "kv-cache"


def test_roofline_is_drawn_under_a_roofline_question(tmp_path: Path, bank: Bank) -> None:
    template_id = "ridge-point-bf16"
    problem = generate(bank.get(template_id), 1)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert not at.exception
    [picture] = _roofline_pictures(at)
    assert picture.find(f"{SVG}title").text.startswith("Roofline of the "), "the GPU's roofline is drawn"
    [text] = [md.value for md in at.markdown if "roofline of the" in md.value]
    assert "your answer: " in text.split("data:image/svg+xml")[1], "the exact figures under the picture"


def test_a_broken_user_bank_is_named_left_out_and_progress_is_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "mine.yaml").write_text("templates:\n  - id: mine\n    checklist: not-an-item\n")
    monkeypatch.setenv("DRILL_BANK_DIRS", str(folder))
    store = Store(tmp_path / "p.db")
    store.save_settings(Settings(daily_new_limit=3))
    at = _page(tmp_path / "p.db")
    assert not at.exception
    assert not at.error
    [note] = [e for e in at.expander if "left out" in e.label]
    assert "left out, the rest of the bank works" in note.label
    assert any("mine.yaml" in block.value for block in at.code)
    assert at.session_state[keys.PRACTICE_CURRENT]["template_id"] != "mine"  # practice goes on
    assert store.settings().daily_new_limit == 3


def test_the_roofline_labels_its_points_marks_the_ridge_and_needs_no_legend(
    tmp_path: Path, bank: Bank
) -> None:
    template_id = "ridge-point-bf16"
    problem = generate(bank.get(template_id), 1)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer * 3, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    [picture] = _roofline_pictures(at)
    drawn = [text.text or "" for text in picture.iter(f"{SVG}text")]
    assert "your answer" in drawn, "the answer is named on the chart"
    assert any(text.startswith("ridge ") for text in drawn), "the ridge is named on the chart"
    assert "FLOP/s" in drawn and "Arithmetic intensity (FLOP/B)" in drawn
    ticks = [text for text in drawn if text[:1].isdigit() and text[-1:] in "kMGTPE"]
    assert len(ticks) >= 3, "the FLOP/s axis ticks once per decade"
    assert not at.main.get("vega_lite_chart"), "nothing for the browser to compile before the feedback shows"


def test_the_filter_decides_the_problem_on_screen(tmp_path: Path, bank: Bank) -> None:
    at = _page(tmp_path / "p.db", current=_current("kv-bytes-per-token"))
    at.selectbox(key=keys.PRACTICE_FILTER_ITEM).set_value("three-regimes").run()
    assert not at.exception
    current = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    assert bank.get(current.template_id).checklist == "three-regimes"
    # The counts are the filter's now, and their line says whose.
    title = next(i.title for i in load_checklist() if i.id == "three-regimes")
    assert any(m.value.startswith(f"*{title}:* Due **") for m in at.markdown)


def test_an_item_opened_from_readiness_is_practised_when_todays_new_cards_are_used(
    tmp_path: Path, bank: Bank
) -> None:
    Store(tmp_path / "p.db").save_settings(Settings(daily_new_limit=0))
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(tmp_path / "p.db")
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.PRACTICE_CURRENT] = _current("kv-bytes-per-token").to_dict()  # on screen before
    at.session_state[keys.PRACTICE_FILTER_ITEM] = "decode-batch-threshold"  # what "Practise it" sets
    at.run()
    assert not at.exception
    assert not any("Nothing is due" in s.value for s in at.success)
    current = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    assert bank.get(current.template_id).checklist == "decode-batch-threshold"
    assert not current.scheduled
    assert "extra practice" in at.info[0].value


def test_a_refresh_keeps_the_problem_on_screen(tmp_path: Path) -> None:
    at = _page(tmp_path / "p.db")
    shown = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    refreshed = _refreshed(at, tmp_path / "p.db")
    again = Current.from_dict(refreshed.session_state[keys.PRACTICE_CURRENT])
    assert (again.template_id, again.seed) == (shown.template_id, shown.seed)
    assert refreshed.markdown[0].value == at.markdown[0].value  # the same numbers in the prompt


def test_once_answered_a_refresh_moves_on(tmp_path: Path, bank: Bank) -> None:
    template_id = _first(bank, Kind.NUMERIC)
    at = _page(tmp_path / "p.db", current=_current(template_id))
    assert at.query_params["card"] == template_id
    problem = generate(bank.get(template_id), 1)
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer or 0, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    # An answer leaves the address as it is; the stored answer tells a refresh to move on.
    assert (at.query_params["card"], at.query_params["seed"]) == (template_id, "1")
    refreshed = _refreshed(at, tmp_path / "p.db")
    assert not refreshed.exception
    again = Current.from_dict(refreshed.session_state[keys.PRACTICE_CURRENT])
    assert (again.template_id, again.seed) != (template_id, 1)
    assert (refreshed.query_params["card"], refreshed.query_params["seed"]) == (
        again.template_id,
        str(again.seed),
    )
    assert len(Store(tmp_path / "p.db").attempts()) == 1  # graded once


def test_an_answer_elsewhere_to_the_same_template_does_not_move_a_refresh_on(
    tmp_path: Path, bank: Bank
) -> None:
    template_id = _first(bank, Kind.NUMERIC)
    other_draw = _page(tmp_path / "p.db", current=_current(template_id, seed=2))
    problem = generate(bank.get(template_id), 2)
    other_draw.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer or 0, problem.unit))
    other_draw.button(key=keys.PRACTICE_SUBMIT).click().run()
    at = _page(tmp_path / "p.db", current=_current(template_id))  # seed 1, not answered
    refreshed = _refreshed(at, tmp_path / "p.db")
    again = Current.from_dict(refreshed.session_state[keys.PRACTICE_CURRENT])
    assert (again.template_id, again.seed) == (template_id, 1)


@pytest.mark.parametrize(
    ("template_id", "offered"),
    [
        ("two-p-justify", None),
        ("kv-cache-formula-recall", "prefix-caching-why"),
        ("three-regimes-define", "three-regimes-measure"),
    ],
)
def test_another_variant_of_a_recall_card_is_another_question_or_none(
    tmp_path: Path, template_id: str, offered: str | None
) -> None:
    at = _page(tmp_path / "p.db", current=_current(template_id))
    at.button(key=keys.PRACTICE_REVEAL).click().run()
    at.button(key=keys.PRACTICE_RATE_PREFIX + "good").click().run()
    variants = [b for b in at.button if b.key == keys.PRACTICE_VARIANT]
    if offered is None:
        assert not variants
        assert any("nothing to vary" in c.value for c in at.caption)
        return
    assert variants[0].label == "Another recall question on this item (not scheduled)"
    variants[0].click().run()
    assert Current.from_dict(at.session_state[keys.PRACTICE_CURRENT]).template_id == offered


@pytest.mark.parametrize(("item", "scope"), [("fusion", "Operator fusion"), (None, "all ten items")])
def test_sidebar_offers_the_anki_deck_of_the_filtered_item(
    tmp_path: Path, item: str | None, scope: str
) -> None:
    at = AppTest.from_file("../../pages/practice.py", default_timeout=30)
    at.session_state[keys.DB_PATH] = str(tmp_path / "progress.db")
    at.session_state[keys.PRACTICE_FILTER_ITEM] = item
    at.run()
    assert not at.exception
    (button,) = [b for b in at.get("download_button") if b.proto.id.endswith(keys.PRACTICE_ANKI_DOWNLOAD)]
    assert button.proto.label == f"Anki deck: {scope}"


def test_no_chart_library_is_needed_before_or_with_the_first_roofline(tmp_path: Path, bank: Bank) -> None:
    # A Vega-Lite chart (or an image element) loads its script in the browser the first time a session
    # draws one, which made the first roofline of a session the slowest feedback; the roofline is a
    # Markdown image instead, drawn by what the page has already loaded.
    problem = generate(bank.get("ridge-point-bf16"), 1)
    at = _page(tmp_path / "p.db", current=_current("ridge-point-bf16"))
    assert not at.get("vega_lite_chart")
    at.text_input(key=keys.PRACTICE_ANSWER).input(format_quantity(problem.answer, problem.unit))
    at.button(key=keys.PRACTICE_SUBMIT).click().run()
    assert _roofline_pictures(at)
    assert not at.get("vega_lite_chart") and not at.get("image")
