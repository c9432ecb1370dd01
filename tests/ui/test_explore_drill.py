"""Which bank scenario drills an Explore setup, with which pins, and what a setup none takes is told."""

from __future__ import annotations

from question_bank import load_bank
from question_bank.generation_checks import generate_scenario_checked
from ui.explore.drill import Drill, drill_for
from ui.explore.figures import CUSTOM, Setup

BANK = load_bank()


def test_a_long_context_batch_is_drilled_on_its_context_and_batch() -> None:
    setup = Setup(model="qwen25_7b", gpu="h200_sxm", batch=4, prompt=30_000, output=2_768)
    drill = drill_for(setup, BANK, seed=9)
    assert isinstance(drill, Drill) and drill.template_id == "scenario-long-context-kv"
    assert dict(drill.pins) == {"model": "qwen25_7b", "gpu": "h200_sxm", "batch": 4, "context": 32_768}
    scenario = generate_scenario_checked(BANK.scenario(drill.template_id), 9, pins=dict(drill.pins))
    assert "batch of **4** sequences, each **32,768 tokens** long" in scenario.setup


def test_the_default_setup_drills_the_chat_budget_on_its_own_figures() -> None:
    setup = Setup()
    drill = drill_for(setup, BANK, seed=0)
    assert isinstance(drill, Drill) and drill.template_id == "scenario-chat-latency-budget", drill
    pins = {"model": setup.model, "gpu": setup.gpu, "prompt": setup.prompt, "output": setup.output}
    assert pins.items() <= dict(drill.pins).items()
    scenario = generate_scenario_checked(BANK.scenario(drill.template_id), 0, pins=dict(drill.pins))
    assert f"**{setup.prompt:,}-token prompt**" in scenario.setup


def test_the_chat_budget_draws_no_model_whose_kv_heads_are_its_query_heads() -> None:
    """Its KV step's query-heads slip would be graded right on multi-head attention (Llama-2-13B)."""
    said = drill_for(Setup(model="llama2_13b"), BANK, seed=0)
    assert isinstance(said, str) and "not Llama-2-13B." in said


def test_batch_one_on_one_chip_is_the_chat_budget_with_the_setups_mfu() -> None:
    setup = Setup(model="mistral_7b", gpu="h100_pcie", prompt=2000, output=50, mfu=0.55)
    drill = drill_for(setup, BANK, seed=2)
    assert isinstance(drill, Drill) and drill.template_id == "scenario-chat-latency-budget"
    assert dict(drill.pins)["mfu"] == 0.55 and dict(drill.pins)["prompt"] == 2000


def test_a_setup_none_takes_names_what_each_scenario_takes_and_what_differs() -> None:
    said = drill_for(Setup(model="llama3_8b", chips=2, weights="int8"), BANK, seed=1)
    assert isinstance(said, str) and said.startswith("No scenario of the bank takes this setup as it is:")
    assert "*A chat latency budget* takes one chip, batch 1, bf16 throughout" in said
    assert "not 2 chips or int8 weights." in said
    assert "not 2 chips, int8 weights or Llama-3-8B." in said  # the long-context one draws Qwen2.5-7B only


def test_custom_figures_and_unrealistic_setups_are_not_drilled() -> None:
    custom = drill_for(Setup(model=CUSTOM), BANK, seed=1)
    assert isinstance(custom, str) and "pick a preset model" in custom
    warning = ("fp8 on NVIDIA A100, which has no FP8",)
    warned = drill_for(Setup(model="llama3_8b"), BANK, seed=1, warnings=warning)
    assert isinstance(warned, str) and warned.startswith("A drill is built only on a setup an interviewer")
