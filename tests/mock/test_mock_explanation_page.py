"""AppTest of the mock debrief's key-point checks: shown, overruled, stored, scored and on the scorecard."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from progress import Store
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.rows import list_mocks, mock_answers
from progress.mock.session import finish, start, submit
from question_bank import generate, load_bank
from ui import state_keys as keys

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "mock_interview.py")
T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
PARTIAL = (
    "Element-wise ops are memory-bound: their time is the bytes moved over the bandwidth. Run unfused, "
    "each kernel writes the intermediate back to HBM and reads it again."
)


@dataclass
class FakeClock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now


def _debrief(db: Path, answers: list[str]) -> AppTest:
    """A finished two-problem mock of recall answers typed under the clock, opened at its debrief."""
    store = Store(db)
    config = MockConfig.from_minutes(duration_min=15, n_problems=len(answers))
    refs = [ProblemRef("fusion-why", 1), ProblemRef("prefill-vs-decode-why", 1)][: len(answers)]
    session = start(store, config=config, problems=refs, now=T0)
    for position, text in enumerate(answers):
        submit(store, mock_id=session.id, position=position, response=text, now=T0 + timedelta(minutes=1),
               time_spent_s=60.0)  # fmt: skip
    finish(store, mock_id=session.id, now=T0 + timedelta(minutes=3))
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = FakeClock(T0 + timedelta(minutes=4))
    at.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
    return at.run()


def _point(position: int, index: int) -> str:
    return f"{keys.MOCK_POINT_PREFIX}{position}_{index}"


def test_debrief_shows_checks_and_the_score_counts_points_made(tmp_path: Path) -> None:
    full = generate(load_bank().get("prefill-vs-decode-why"), 1).model_answer
    at = _debrief(tmp_path / "p.db", [PARTIAL, full])
    assert not at.exception
    assert [at.checkbox(key=_point(0, i)).value for i in range(4)] == [True, True, False, False]
    assert all(at.checkbox(key=_point(1, i)).value for i in range(5))
    primary = {
        b.key for b in at.button if b.key.startswith(keys.MOCK_RATE_PREFIX) and b.proto.type == "primary"
    }
    assert primary == {f"{keys.MOCK_RATE_PREFIX}0_hard", f"{keys.MOCK_RATE_PREFIX}1_good"}
    at.button(key=f"{keys.MOCK_RATE_PREFIX}0_hard").click().run()
    at.button(key=f"{keys.MOCK_RATE_PREFIX}1_good").click().run()
    assert not at.exception
    [mock] = list_mocks(Store(tmp_path / "p.db"))
    assert mock.score == pytest.approx((2 / 4 + 5 / 5) / 2)
    assert mock.scorecard is not None and "2 of 4 made" in mock.scorecard and "5 of 5 made" in mock.scorecard
    assert "  - missed: Fused, the intermediate stays in registers" in mock.scorecard
    attempts = Store(tmp_path / "p.db").attempts()
    assert [a.explanation["made"] for a in attempts if a.explanation] == [
        [True, True, False, False],
        [True] * 5,
    ]


def test_an_overruled_point_counts_at_the_debrief(tmp_path: Path) -> None:
    at = _debrief(tmp_path / "p.db", [PARTIAL])
    at.checkbox(key=_point(0, 2)).check().run()
    rates = [b for b in at.button if b.key.startswith(f"{keys.MOCK_RATE_PREFIX}0_")]
    assert [b.key for b in rates if b.proto.type == "primary"] == [f"{keys.MOCK_RATE_PREFIX}0_hard"]
    at.button(key=f"{keys.MOCK_RATE_PREFIX}0_hard").click().run()
    assert not at.exception
    [answer] = mock_answers(Store(tmp_path / "p.db"), list_mocks(Store(tmp_path / "p.db"))[0].id)
    assert answer.explanation is not None
    assert answer.explanation["overrides"] == {"2": True} and answer.explanation["made"] == [
        True,
        True,
        True,
        False,
    ]
    [mock] = list_mocks(Store(tmp_path / "p.db"))
    assert mock.score == pytest.approx(3 / 4)
    assert any("Key points made: 3 of 4" in m.value for m in at.markdown)
