"""AppTest of Explore: the address sets the setup, and every figure on the page is the estimator's."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from question_bank import load_hardware, load_models
from tests.ui.explore_expected import direct_figures
from ui import state_keys as keys
from ui.explore.figures import Setup, compute_figures
from ui.explore.text import figure_text

ADDRESS = {"model": "llama2_70b", "gpu": "h100_sxm", "chips": "2", "weights": "int8", "kv": "fp8",
           "batch": "8", "prompt": "2000", "output": "300"}  # fmt: skip
SETUP = Setup(
    model="llama2_70b", gpu="h100_sxm", chips=2, weights="int8", kv="fp8", batch=8, prompt=2000, output=300
)


def page(db: Path, address: dict[str, str]) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    at.query_params.update(address)
    at.switch_page("pages/explore.py")
    return at.run()


@pytest.fixture(scope="module")
def at(tmp_path_factory: pytest.TempPathFactory) -> AppTest:
    return page(tmp_path_factory.mktemp("explore") / "progress.db", ADDRESS)


def _shown(at: AppTest) -> dict[str, str]:
    # An expander reads "label: **figure**".
    return {
        label: shown.removesuffix("**")
        for label, _, shown in (e.label.partition(": **") for e in at.expander)
        if shown
    }


def test_the_address_sets_every_input(at: AppTest) -> None:
    assert not at.exception
    assert at.selectbox(key=keys.EXPLORE_MODEL).value == "llama2_70b"
    assert at.selectbox(key=keys.EXPLORE_GPU).value == "h100_sxm"
    assert at.selectbox(key=keys.EXPLORE_WEIGHTS).value == "int8"
    assert at.selectbox(key=keys.EXPLORE_KV).value == "fp8"
    boxes = (keys.EXPLORE_CHIPS, keys.EXPLORE_BATCH, keys.EXPLORE_PROMPT, keys.EXPLORE_OUTPUT)
    assert [at.number_input(key=k).value for k in boxes] == [2, 8, 2000, 300]


def test_every_figure_shown_is_the_estimators_called_directly(at: AppTest) -> None:
    shown = _shown(at)
    figures = compute_figures(SETUP, models=load_models(), hardware=load_hardware())
    expected = direct_figures(SETUP)
    assert len(shown) == len(expected)
    for key, value in expected.items():
        figure = figures.figures[key]
        assert figure.value == pytest.approx(value, rel=1e-12), key
        assert shown[figure.label] == figure_text(figure), key


def test_a_changed_input_is_written_back_to_the_address(at: AppTest) -> None:
    at.number_input(key=keys.EXPLORE_BATCH).set_value(32).run()
    assert not at.exception
    assert at.query_params["batch"] in ("32", ["32"])
    figures = compute_figures(
        Setup(**{**SETUP.__dict__, "batch": 32}), models=load_models(), hardware=load_hardware()
    )
    assert _shown(at)[figures.figures["tpot"].label] == figure_text(figures.figures["tpot"])


def test_bad_values_are_named_and_the_page_draws_with_the_defaults(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", {"model": "gpt9", "batch": "²", "weights": "fp64"})
    assert not at.exception
    notices = " ".join(i.value for i in at.info)
    assert "`model` (`gpt9`)" in notices and "`batch` (`²`)" in notices and "`weights` (`fp64`)" in notices
    default = compute_figures(Setup(), models=load_models(), hardware=load_hardware())
    assert _shown(at)["Weights per chip"] == figure_text(default.figures["weights_per_chip"])


def test_an_unrealistic_setup_is_warned_about(tmp_path: Path) -> None:
    at = page(
        tmp_path / "p.db", {"model": "llama2_70b", "gpu": "a100_40gb_sxm", "chips": "3", "prompt": "5000"}
    )
    warnings = " ".join(w.value for w in at.warning)
    assert "beyond Llama-2-70B's 4,096" in warnings and "split over 3 chips" in warnings
    assert at.error and "does not fit" in at.error[0].value


def test_side_by_side_gives_the_ratio_of_each_figure(at: AppTest) -> None:
    at.toggle(key=keys.EXPLORE_COMPARE).set_value(True).run()
    at.selectbox(key=keys.EXPLORE_B_WEIGHTS).set_value("bf16").run()
    assert not at.exception
    table = next(m.value for m in at.markdown if m.value.startswith("| figure | this setup"))
    weights_row = next(line for line in table.splitlines() if line.startswith("| Weights per chip"))
    assert weights_row.endswith("| 2× |")


def test_custom_figures_give_the_estimators_figures_for_that_shape(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", {})
    at.selectbox(key=keys.EXPLORE_MODEL).set_value("custom").run()
    at.number_input(key=keys.EXPLORE_CUSTOM_PREFIX + "n_params").set_value(20_000_000_000).run()
    at.number_input(key=keys.EXPLORE_CUSTOM_PREFIX + "n_kv_heads").set_value(8).run()
    assert not at.exception
    shown = _shown(at)
    assert shown["Weights per chip"].startswith("40 GB")
    start = load_models()[Setup().model]  # the other figures start at the default model's
    kv_per_token = 2 * start.n_layers * 8 * start.head_dim * 2
    assert shown["KV cache per token"].endswith(f"({kv_per_token // 1024} KiB)")
    assert "model" not in at.query_params  # the address holds presets only


def test_a_price_adds_the_cost_per_million_tokens(tmp_path: Path) -> None:
    at = page(tmp_path / "p.db", ADDRESS)
    at.number_input(key=keys.EXPLORE_PRICE).set_value(2.5).run()
    assert not at.exception
    expected = direct_figures(Setup(**{**SETUP.__dict__, "price_per_chip_hour": 2.5}))["cost_per_million"]
    assert _shown(at)["Cost per million tokens ($)"] == f"${expected:,.3g}"


DRILLED = {"model": "llama3_8b", "gpu": "h100_sxm", "chips": "1", "weights": "bf16", "kv": "bf16",
           "batch": "1", "prompt": "3000", "output": "100"}  # fmt: skip


def test_drill_this_setup_opens_a_scenario_on_the_setups_numbers_that_counts(tmp_path: Path) -> None:
    from grader.units import format_quantity
    from progress import Store
    from question_bank import load_bank
    from ui.practice.scenario import scenario_for

    db = tmp_path / "progress.db"
    at = page(db, DRILLED)
    at.button(key=keys.EXPLORE_DRILL).click().run()
    assert not at.exception
    assert at.query_params["card"] == "scenario-chat-latency-budget"
    assert at.query_params["pins"] == "model:llama3_8b,gpu:h100_sxm,prompt:3000,output:100,mfu:1.0"
    setup = next(m.value for m in at.markdown if m.value.startswith("A chat product serves"))
    for shown in ("**Llama-3-8B**", "**NVIDIA H100 SXM5 80GB**", "**3,000-token prompt**"):
        assert shown in setup
    assert "**100-token answer**" in setup
    # The first step asks for Explore's own time to first token, and the answer counts like any other.
    seed = int(at.query_params["seed"])
    pins = (("model", "llama3_8b"), ("gpu", "h100_sxm"), ("prompt", 3000), ("output", 100), ("mfu", 1.0))
    ttft = scenario_for(load_bank(), "scenario-chat-latency-budget", seed, pins).steps[0]
    drilled = Setup(model="llama3_8b", gpu="h100_sxm", prompt=3000, output=100)
    figures = compute_figures(drilled, models=load_models(), hardware=load_hardware())
    assert ttft.answer == pytest.approx(figures.value("ttft"), rel=1e-9)
    box = next(t for t in at.text_input if t.key.startswith(keys.PRACTICE_STEP_ANSWER_PREFIX))
    box.input(format_quantity(ttft.answer or 0, ttft.unit))
    at.button(key=keys.PRACTICE_STEP_SUBMIT).click().run()
    assert not at.exception
    [attempt] = Store(db).attempts()
    assert attempt.template_id == "scenario-chat-latency-budget" and attempt.status == "correct"
    assert {k: attempt.params[k] for k, _ in pins} == dict(pins)


def test_a_setup_no_drill_takes_says_why_and_stays_on_explore(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db", {**DRILLED, "model": "llama2_13b"})
    at.button(key=keys.EXPLORE_DRILL).click().run()
    assert not at.exception
    [refusal] = [w.value for w in at.warning if "No scenario of the bank takes this setup" in w.value]
    assert "not Llama-2-13B" in refusal and "*A chat latency budget* takes one chip, batch 1" in refusal
    assert at.query_params["model"] == "llama2_13b" and "card" not in at.query_params


def test_an_unrealistic_setup_is_not_drilled(tmp_path: Path) -> None:
    at = page(tmp_path / "progress.db", {**DRILLED, "model": "llama2_70b", "gpu": "l4"})
    at.button(key=keys.EXPLORE_DRILL).click().run()
    [refusal] = [w.value for w in at.warning if w.value.startswith("A drill is built only")]
    assert "does not fit" in refusal
