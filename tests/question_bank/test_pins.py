"""Generation with pinned params: the pinned values are drawn, the seed's other draws stay, and a pin a
template cannot take is refused with the reason."""

from __future__ import annotations

import pytest
from bank_kit import CATALOG, GOOD

from question_bank import generate, load_bank
from question_bank.errors import PinError
from question_bank.generation_checks import generate_scenario_checked

FIXTURES = load_bank([GOOD], include_shipped=False, catalog=CATALOG)
SHIPPED = load_bank()
CHAT = "scenario-chat-latency-budget"


@pytest.mark.parametrize("seed", range(40))
def test_a_pin_sets_its_param_and_every_other_draw_is_the_seeds(seed: int) -> None:
    # decode-time's require list holds the weights to memory: the context and batch never decide it,
    # so pinning them redraws nothing and every other param is the seed's own draw.
    template = FIXTURES.get("decode-time")
    free = generate(template, seed, catalog=CATALOG)
    pinned = generate(template, seed, catalog=CATALOG, pins={"ctx": 1000, "batch": 3})
    assert pinned.params["ctx"] == 1000 and pinned.params["batch"] == 3
    others = {k: v for k, v in free.params.items() if k not in {"ctx", "batch"}}
    assert {k: pinned.params[k] for k in others} == others
    assert "decodes 3 sequences of 1,000 tokens" in pinned.prompt


def test_pinning_a_param_to_its_own_draw_changes_nothing() -> None:
    template = FIXTURES.get("decode-time")
    for seed in range(20):
        free = generate(template, seed, catalog=CATALOG)
        drawn = {k: free.params[k] for k in ("gpu", "dtype", "n_params", "batch", "ctx", "util")}
        assert generate(template, seed, catalog=CATALOG, pins=drawn) == free


def test_a_pinned_scenario_holds_the_pins_in_its_setup_and_every_step() -> None:
    pins = {"model": "llama3_8b", "gpu": "a100_80gb_sxm", "prompt": 1000, "output": 200, "mfu": 1.0}
    scenario = generate_scenario_checked(SHIPPED.scenario(CHAT), 11, pins=pins)
    for step in scenario.steps:
        assert {k: step.params[k] for k in pins} == pins
    assert "**Llama-3-8B**" in scenario.setup and "**NVIDIA A100 80GB SXM4**" in scenario.setup
    assert "**1,000-token prompt**" in scenario.setup and "**200-token answer**" in scenario.setup
    # The time to first token is the setup's: 2 · P · prompt at the bf16 peak (MFU 1).
    ttft = scenario.steps[0]
    model_params, peak = 8_030_261_248, 312e12
    assert ttft.answer == pytest.approx(2 * model_params * 1000 / peak, rel=1e-6)


@pytest.mark.parametrize(
    ("pins", "reason"),
    [
        ({"model": "llama2_13b"}, "the model Llama-2-13B is not one it draws (it draws Llama-3-8B"),
        ({"gpu": "t4"}, "the accelerator NVIDIA T4 16GB is not one it draws"),
        ({"prompt": 1.5}, "`prompt` = 1.5 is not a whole number"),
        ({"prompt": -4}, "`prompt` = -4 is not a positive number"),
        ({"weights": 3}, "`weights` is not a value it draws"),  # a derived param: worked out, not drawn
        ({"model": "llama3_8b", "prompt": 100_000}, "a context of 100,200 beyond Llama-3-8B's 8,192"),
    ],
)
def test_a_pin_the_scenario_cannot_take_is_refused_with_the_reason(pins: dict, reason: str) -> None:
    with pytest.raises(PinError) as refused:
        generate_scenario_checked(SHIPPED.scenario(CHAT), 3, pins={"output": 200, **pins})
    assert reason in refused.value.reason


def test_a_dtype_pin_must_be_one_the_param_draws() -> None:
    with pytest.raises(PinError, match="it draws bf16, int8 only"):
        generate(FIXTURES.get("decode-time"), 0, catalog=CATALOG, pins={"dtype": "fp8"})
