"""AppTest of typed explanations on the practice page: checks, overrules, the suggested rating, storage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from progress import Store
from question_bank import Bank, generate, load_bank
from ui import state_keys as keys
from ui.explanation_view import AT_LIMIT, MAX_EXPLANATION_CHARS
from ui.practice.loop import Current

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "practice.py")
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TEMPLATE = "fusion-why"
PARTIAL = (
    "Element-wise ops are memory-bound: their time is the bytes moved over the bandwidth. Run unfused, "
    "each kernel writes the intermediate back to HBM and reads it again."
)
WRONG = PARTIAL + " Fusion also reduces FLOPs."


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


def _page(db: Path) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.RNG_SEED] = 7
    current = Current(template_id=TEMPLATE, seed=1, scheduled=True, started_at=NOW - timedelta(seconds=50))
    at.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
    return at.run()


def _check(at: AppTest, text: str) -> AppTest:
    at.text_area(key=keys.PRACTICE_EXPLANATION).input(text)
    return at.button(key=keys.PRACTICE_CHECK).click().run()


def _points(at: AppTest, n: int) -> list[bool]:
    return [at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}{i}").value for i in range(n)]


def _suggested(at: AppTest) -> str:
    rates = [b for b in at.button if b.key.startswith(keys.PRACTICE_RATE_PREFIX)]
    primary = [b for b in rates if b.proto.type == "primary"]
    assert len(primary) == 1
    return primary[0].key.removeprefix(keys.PRACTICE_RATE_PREFIX)


def test_full_explanation_hits_every_point_and_suggests_good(tmp_path: Path, bank: Bank) -> None:
    problem = generate(bank.get(TEMPLATE), 1)
    at = _check(_page(tmp_path / "p.db"), problem.model_answer)
    assert not at.exception
    assert _points(at, len(problem.key_points)) == [True] * len(problem.key_points)
    assert _suggested(at) == "good"
    assert any("Model answer" in m.value for m in at.markdown)
    at.button(key=keys.PRACTICE_RATE_PREFIX + "good").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.response == "good" and attempt.score == 1.0
    assert attempt.explanation is not None
    assert attempt.explanation["text"] == problem.model_answer.strip()
    assert attempt.explanation["made"] == [True] * len(problem.key_points)


def test_partial_explanation_shows_hits_and_misses(tmp_path: Path, bank: Bank) -> None:
    at = _check(_page(tmp_path / "p.db"), PARTIAL)
    assert not at.exception
    assert _points(at, 4) == [True, True, False, False]
    assert _suggested(at) == "hard"
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Made in:") and "Element\\-wise ops are memory\\-bound" in c for c in captions)
    assert any("Not found" in c for c in captions)
    highlighted = "".join(m.value for m in at.markdown)
    assert ":blue-background[memory\\-bound]" in highlighted


def test_misconception_is_shown_and_suggests_again(tmp_path: Path) -> None:
    at = _check(_page(tmp_path / "p.db"), WRONG)
    assert not at.exception
    assert any("Misconception: fusion reduces FLOPs" in e.value for e in at.error)
    assert _suggested(at) == "again"


def test_overruling_a_check_changes_the_suggestion_and_is_stored(tmp_path: Path) -> None:
    at = _check(_page(tmp_path / "p.db"), WRONG)
    at.checkbox(key=f"{keys.PRACTICE_MISCONCEPTION_PREFIX}0").uncheck().run()
    assert _suggested(at) == "hard"
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}2").check().run()
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}3").check().run()
    assert _suggested(at) == "good"
    at.button(key=keys.PRACTICE_RATE_PREFIX + "good").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    stored = attempt.explanation
    assert stored is not None
    assert stored["detected"] == [True, True, False, False] and stored["made"] == [True, True, True, True]
    assert stored["overrides"] == {"2": True, "3": True}
    assert stored["misconceptions"] == ["fusion reduces FLOPs"] and stored["standing_misconceptions"] == []
    assert stored["rating"] == "good" and attempt.score == 1.0


def test_empty_explanation_still_reveals_and_self_rates(tmp_path: Path) -> None:
    at = _page(tmp_path / "p.db")
    at.button(key=keys.PRACTICE_CHECK).click().run()
    assert at.warning and "Type your explanation first" in at.warning[0].value
    at.button(key=keys.PRACTICE_REVEAL).click().run()
    at.button(key=keys.PRACTICE_RATE_PREFIX + "hard").click().run()
    assert not at.exception
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.response == "hard" and attempt.explanation is None and attempt.score == 0.5


def test_the_clock_and_the_time_are_stored(tmp_path: Path) -> None:
    at = _page(tmp_path / "p.db")
    at.selectbox(key=keys.PRACTICE_TIMER).select(60).run()
    assert not at.exception
    _check(at, PARTIAL)
    at.button(key=keys.PRACTICE_RATE_PREFIX + "hard").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.explanation is not None and attempt.explanation["time_limit_s"] == 60.0
    assert attempt.explanation["seconds"] == 0.0  # the fixed test clock started the timer at NOW


def _count_line(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Key points**:"))


def test_the_count_follows_the_ticks(tmp_path: Path) -> None:
    at = _check(_page(tmp_path / "p.db"), PARTIAL)
    assert _count_line(at).startswith("**Key points**: 2 of 4 made")
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}2").check().run()
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}3").check().run()
    assert _count_line(at).startswith("**Key points**: 4 of 4 made")
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}0").uncheck().run()
    assert _count_line(at).startswith("**Key points**: 3 of 4 made")


def test_a_misconception_quotes_the_sentence_that_says_it(tmp_path: Path) -> None:
    at = _check(_page(tmp_path / "p.db"), WRONG)
    assert "You wrote: “Fusion also reduces FLOPs”" in [c.value for c in at.caption]


def test_a_wrong_figure_is_named_on_the_page(tmp_path: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(tmp_path / "p.db")
    at.session_state[keys.CLOCK] = lambda: NOW
    current = Current(template_id="ridge-point-recall", seed=1, scheduled=True, started_at=NOW)
    at.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
    at = _check(at.run(), "The ridge is peak / bandwidth = 989e12 / 3.35e12 ≈ 29.5 FLOP/B.")
    assert not at.exception
    assert any(c.value.startswith("Not made: your 29\\.5") and "about 295" in c.value for c in at.caption)


def test_an_explanation_over_the_cap_is_cut_to_it_said_so_and_stored_no_longer(tmp_path: Path) -> None:
    at = _page(tmp_path / "p.db")
    at.session_state[keys.PRACTICE_EXPLANATION] = PARTIAL + " x" * MAX_EXPLANATION_CHARS
    at.button(key=keys.PRACTICE_CHECK).click().run()
    assert not at.exception
    assert any(w.value == AT_LIMIT for w in at.warning)
    at.button(key=keys.PRACTICE_RATE_PREFIX + "hard").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.explanation is not None and attempt.explanation["text"].startswith(PARTIAL)
    assert len(attempt.explanation["text"]) <= MAX_EXPLANATION_CHARS


def test_an_explanation_at_the_cap_is_checked_once_however_often_the_page_reruns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui import explanation_view

    calls: list[int] = []
    real = explanation_view.check_explanation

    def counted(problem: object, text: str) -> object:
        calls.append(len(text))
        return real(problem, text)  # type: ignore[arg-type]

    monkeypatch.setattr(explanation_view, "check_explanation", counted)
    text = (PARTIAL + " ") * (MAX_EXPLANATION_CHARS // (len(PARTIAL) + 1))
    at = _check(_page(tmp_path / "p.db"), text.strip())
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}2").check().run()
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}3").check().run()
    at.button(key=keys.PRACTICE_RATE_PREFIX + "good").click().run()
    assert not at.exception
    assert len(calls) == 1
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.explanation is not None and len(attempt.explanation["text"]) <= MAX_EXPLANATION_CHARS


def test_a_missed_point_offers_its_follow_up_and_a_right_answer_makes_it(tmp_path: Path, bank: Bank) -> None:
    at = _check(_page(tmp_path / "p.db"), PARTIAL)
    assert _points(at, 4) == [True, True, False, False]
    assert any(e.label == "Follow-up question on this point" for e in at.expander)
    probe = generate(bank.get("fusion-fused-time"), 1)  # point 2's follow-up, drawn at the card's seed
    at.text_input(key=f"{keys.PRACTICE_POINT_PREFIX}probe_2").input(f"{probe.answer} s")
    at.button(key=f"{keys.PRACTICE_POINT_PREFIX}probe_2_check").click().run()
    assert not at.exception
    assert any("counts as made on the follow-up" in s.value for s in at.success)
    assert _points(at, 4) == [True, True, True, False]
    assert _count_line(at).startswith("**Key points**: 3 of 4 made")
    at.button(key=keys.PRACTICE_RATE_PREFIX + "hard").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    assert attempt.explanation is not None and attempt.explanation["probes"] == {"2": True}
    assert attempt.explanation["made"] == [True, True, True, False]


def test_a_sum_worked_out_wrong_is_flagged_and_can_be_dismissed(tmp_path: Path) -> None:
    slip = PARTIAL + " For 1e9 elements in fp32 that is 12e9 B / 1.555e12 B/s ≈ 77 ms."
    at = _check(_page(tmp_path / "p.db"), slip)
    assert not at.exception
    [flag] = [e.value for e in at.error if "Arithmetic slip" in e.value]
    assert "is about 7\\.72 ms, not 77 ms" in flag
    assert _suggested(at) == "again"
    at.checkbox(key=f"{keys.PRACTICE_MISCONCEPTION_PREFIX}slip_0").uncheck().run()
    assert _suggested(at) == "hard"
    at.button(key=keys.PRACTICE_RATE_PREFIX + "hard").click().run()
    [attempt] = Store(tmp_path / "p.db").attempts()
    stored = attempt.explanation
    assert stored is not None
    assert stored["slips"] == ["12e9 B / 1.555e12 B/s is about 7.72 ms, not 77 ms"]
    assert stored["slip_overrides"] == {stored["slips"][0]: False}


def test_keyword_salad_is_named_as_such_and_its_points_can_still_be_ticked(tmp_path: Path) -> None:
    salad = (
        "Fusion is all about the interplay of HBM, kernels and FLOPs, and element-wise ops interact with "
        "the memory wall one way or another, at the kernel level."
    )
    at = _check(_page(tmp_path / "p.db"), salad)
    assert not at.exception
    assert any("terms strung together" in w.value for w in at.warning)
    assert sum(_points(at, 4)) <= 1 and _suggested(at) == "again"
    # A partial answer in sentences gets no such warning.
    at = _check(_page(tmp_path / "q.db"), PARTIAL)
    assert not any("terms strung together" in w.value for w in at.warning)
