"""AppTest of the readiness page on an empty database and on a seeded one."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Rating
from streamlit.testing.v1 import AppTest

from progress import Attempt, Mode, Settings, Status, Store, StoreError
from progress.scheduling import review
from question_bank import load_bank, load_checklist
from ui import state_keys as keys
from ui.readiness.plan_view import PLAN_COLUMNS

NOW = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


def page(db: Path) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.switch_page("pages/readiness.py")
    return at.run()


def seed(db: Path, *, mastered: str = "kv-cache", started: str = "fusion") -> None:
    """Each template of ``mastered`` right for ten days and well reviewed; one miss on ``started``."""
    store = Store(db, clock=lambda: NOW)
    bank = load_bank()
    templates = [t.id for t in bank.by_checklist(mastered)]
    attempts = [
        Attempt(
            created_at=NOW - timedelta(days=day, hours=1),
            template_id=template_id,
            checklist_item=mastered,
            seed=day,
            response="ok",
            status=Status.CORRECT,
            score=1.0,
            mode=Mode.PRACTICE,
            duration_s=45.0,
        )
        for day in range(10)
        for template_id in templates
    ]
    other = bank.by_checklist(started)
    other_id = other[0].id if other else f"{started}-first"
    attempts.append(
        Attempt(
            created_at=NOW - timedelta(days=1),
            template_id=other_id,
            checklist_item=started,
            seed=7,
            response="no idea",
            status=Status.INCORRECT,
            score=0.0,
            duration_s=300.0,
        )
    )
    store.record_attempts(attempts)
    for template_id in templates:
        for days_ago in (20, 20, 18, 6):
            when = NOW - timedelta(days=days_ago)
            review(store, template_id=template_id, checklist_item=mastered, rating=Rating.Good, now=when)
    with store.connect() as conn:
        finished = (NOW - timedelta(days=2)).isoformat()
        conn.execute(
            "INSERT INTO mocks (created_at, started_at, deadline, finished_at, duration_s, config, problems, "
            "status, score) VALUES (?, ?, ?, ?, 900, '{}', '[]', 'finished', 0.6)",
            (finished, finished, finished, finished),
        )


def texts(elements: object) -> str:
    return "\n".join(str(e.value) for e in elements)  # type: ignore[attr-defined]


def test_an_empty_database_shows_what_to_do_first(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db")
    assert not at.exception
    info = texts(at.info)
    assert "No answers yet" in info
    assert "Mock interview page" in info
    assert "Set your interview date" in info
    assert len(at.get("vega_lite_chart")) == 1  # readiness per item, all zero
    assert at.button(key=keys.READY_START)
    assert len([b for b in at.button if b.key.startswith(keys.READY_PRACTICE_PREFIX)]) == len(
        load_checklist()
    )


def test_the_ten_items_use_the_topic_cards_wording(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db")
    markdown = texts(at.markdown)
    for item in load_checklist():
        assert item.ready_when in markdown


def test_a_seeded_database_shows_scores_factors_and_what_holds_it_back(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    seed(db)
    at = page(db)
    assert not at.exception
    assert "No answers yet" not in texts(at.info)
    assert "Not ready yet" in texts(at.warning)
    kv = next(i for i, item in enumerate(load_checklist()) if item.id == "kv-cache")
    assert int(at.metric[kv].value) >= 50
    # One Markdown table per item (light to send, where a data grid sent an Arrow table each).
    factor_tables = [m.value for m in at.markdown if m.value.startswith("| factor | value | weight |")]
    assert len(factor_tables) == len(load_checklist())
    assert [row.split("|")[1].strip() for row in factor_tables[0].splitlines()[2:]] == [
        "accuracy",
        "recall",  # retrievability, as the page names it
        "stability",
        "mocks",
        "coverage",
        "time",
    ]
    # Readiness per item, accuracy, the review calendar, mock scores and time per answer.
    assert len(at.get("vega_lite_chart")) == 5


def test_saving_a_near_interview_date_warns_and_plans(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    seed(db)
    at = page(db)
    at.date_input(key=keys.READY_INTERVIEW_DATE).set_value(NOW.date() + timedelta(days=2))
    at.number_input(key=keys.READY_MINUTES_PER_DAY).set_value(20)
    at.button(key=keys.READY_SAVE_SETTINGS).click().run()
    assert not at.exception
    saved = Store(db).settings()
    assert (saved.interview_date, saved.minutes_per_day) == (NOW.date() + timedelta(days=2), 20)
    assert "too close" in texts(at.error)
    plan_table = at.dataframe[-1].value
    days = [NOW.date(), NOW.date() + timedelta(days=1)]
    assert list(plan_table["day"]) == [f"{d:%a} {d.day} {d:%b}" for d in days]


def test_the_plan_table_fits_a_phone_with_its_minutes(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    seed(db)
    at = page(db)
    at.date_input(key=keys.READY_INTERVIEW_DATE).set_value(NOW.date() + timedelta(days=7))
    at.number_input(key=keys.READY_MINUTES_PER_DAY).set_value(60)
    at.button(key=keys.READY_SAVE_SETTINGS).click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table.columns) == ["day", "new", "reviews", "extra", "min"]
    # Every cell of a row, headers included, is short: five narrow columns fit 390 px with no scrolling.
    widest = [max(len(str(name)), *(len(str(v)) for v in table[name])) for name in table.columns]
    assert max(widest) <= 10 and sum(widest) <= 32, widest
    widths = [plan_column.get("width") for plan_column in PLAN_COLUMNS.values()]
    assert all(isinstance(w, int) for w in widths) and sum(widths) <= 358 - 32, widths  # 390 px less margins


def test_saving_the_plan_reruns_the_plan_alone(tmp_path: Path) -> None:
    # Nothing above the plan reads the settings, so a save re-sends the plan and nothing else. AppTest
    # builds its tree from one run's messages: after the save, that is the plan fragment's run alone.
    db = tmp_path / "progress.db"
    seed(db)
    at = page(db)
    assert len(at.metric) == len(load_checklist()) and not at.dataframe
    at.date_input(key=keys.READY_INTERVIEW_DATE).set_value(NOW.date() + timedelta(days=20))
    at.button(key=keys.READY_SAVE_SETTINGS).click().run()
    assert not at.exception
    assert [t.value for t in at.toast] == ["Plan settings saved."]
    assert len(at.dataframe[-1].value) == 20  # the new plan, day by day
    assert not at.metric and not at.get("vega_lite_chart") and not at.button  # not the page around it
    at.run()
    assert len(at.metric) == len(load_checklist()) and len(at.dataframe[-1].value) == 20


def test_a_failed_save_says_why_above_the_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "progress.db"
    at = page(db)

    def refuse(self: Store, settings: Settings) -> None:
        raise StoreError("the disk is full", path=db)

    monkeypatch.setattr(Store, "save_settings", refuse)
    at.number_input(key=keys.READY_MINUTES_PER_DAY).set_value(45)
    at.button(key=keys.READY_SAVE_SETTINGS).click().run()
    assert not at.exception
    assert "the disk is full" in texts(at.error)
    assert not at.toast
    at.run()
    assert "the disk is full" not in texts(at.error)  # said once, not on every later run


def test_a_far_interview_date_gets_a_plan_without_warning(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    Store(db).save_settings(Settings(interview_date=date(2027, 1, 31), minutes_per_day=60))
    at = page(db)
    assert not at.exception
    assert not at.error
    assert "every item can be ready" in texts(at.success)
    assert len(at.dataframe[-1].value) == (date(2027, 1, 31) - NOW.date()).days


@pytest.mark.parametrize("item", ["fusion", "kv-cache"])
def test_practise_buttons_open_practice_filtered_on_the_item(tmp_path: Path, item: str) -> None:
    at = page(tmp_path / "progress.db")
    at.button(key=keys.READY_PRACTICE_PREFIX + item).click().run()
    assert at.session_state[keys.PRACTICE_FILTER_ITEM] == item
    assert at.selectbox(key=keys.PRACTICE_FILTER_ITEM).value == item


def test_the_verdict_links_the_weakest_item_to_practice(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    seed(db)
    at = page(db)
    first = next(b for b in at.button if b.key.startswith(keys.READY_NEXT_PREFIX))
    item = first.key.removeprefix(keys.READY_NEXT_PREFIX)
    assert item != "kv-cache"  # the seeded, well-practised item is not the weakest
    first.click().run()
    assert at.session_state[keys.PRACTICE_FILTER_ITEM] == item


def test_both_exports_are_offered(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db")
    labels = {b.key: b.label for b in at.download_button}
    assert labels == {keys.READY_EXPORT_CSV: "Attempts as CSV", keys.READY_EXPORT_JSON: "Attempts as JSON"}


def test_the_daily_new_cards_and_the_recall_aimed_for_are_set_here(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    at = page(db)
    at.number_input(key=keys.READY_DAILY_NEW_LIMIT).set_value(25)
    at.slider(key=keys.READY_DESIRED_RETENTION).set_value(85)
    at.button(key=keys.READY_SAVE_SETTINGS).click().run()
    assert not at.exception
    saved = Store(db).settings()
    assert (saved.daily_new_limit, saved.desired_retention) == (25, pytest.approx(0.85))


def _cramming_page(db: Path) -> AppTest:
    week = NOW.date() + timedelta(days=7)
    Store(db).save_settings(Settings(interview_date=week, minutes_per_day=240, daily_new_limit=10))
    return page(db)


def test_the_plans_line_gives_the_tables_own_cards_and_minutes_a_day(tmp_path: Path) -> None:
    at = _cramming_page(tmp_path / "progress.db")
    assert not at.exception
    table = at.dataframe[-1].value
    views = table["new"] + table["reviews"] + table["extra"]
    low, high = int(views.min()), int(views.max())
    line = next(c.value for c in at.caption if c.value.startswith("The plan uses"))
    assert line.startswith(f"The plan uses {low}–{high} cards and ")
    assert f"{table['min'].min()}–{table['min'].max()} minutes a day" in line
    assert "capped at 10 a day" in line, "minutes left over, and the line says why"
    assert (table["extra"] <= 1 + table["extra"].min()).all(), "extras spread, not piled"


def test_with_a_date_set_the_plan_proposes_the_new_card_limit_that_meets_every_type_and_applies_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "progress.db"
    at = _cramming_page(db)
    offer = next(i.value for i in at.info if "question types before" in i.value)
    met, total = (int(n) for n in re.search(r"meets (\d+) of (\d+) question types", offer).groups())
    assert met < total
    button = at.button(key=keys.READY_APPLY_NEW_LIMIT)
    limit = int(re.search(r"Use (\d+) new cards a day", button.label).group(1))
    assert limit > 10 and f"**{limit} a day** meets every one" in offer
    button.click().run()
    assert not at.exception
    assert Store(db).settings().daily_new_limit == limit
    assert at.number_input(key=keys.READY_DAILY_NEW_LIMIT).value == limit, "the form shows it too"
    assert not [i for i in at.info if "question types before" in i.value], "every type is now met"
    table = at.dataframe[-1].value
    assert int(table["new"].sum()) == total
