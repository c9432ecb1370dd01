"""Explore's address: a setup written into it reads back as the same setup; what cannot be used is named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from question_bank import load_hardware
from question_bank.presets import standard_attention_models
from ui.explore.address import NAMES, setup_from_address, to_query
from ui.explore.figures import DTYPES, LIMITS, Setup
from ui.query_params import read_address


def _whole(name: str) -> st.SearchStrategy[int]:
    low, high = LIMITS[name]
    return st.integers(min_value=low, max_value=high)


SETUPS = st.builds(
    Setup,
    model=st.sampled_from(sorted(standard_attention_models())),
    gpu=st.sampled_from(sorted(load_hardware())),
    chips=_whole("chips"),
    weights=st.sampled_from(DTYPES),
    kv=st.sampled_from(DTYPES),
    batch=_whole("batch"),
    prompt=_whole("prompt"),
    output=_whole("output"),
)


def test_the_address_names_are_the_contract() -> None:
    assert NAMES == ("model", "gpu", "chips", "weights", "kv", "batch", "prompt", "output")


@given(SETUPS)
def test_a_setup_reads_back_from_its_address(setup: Setup) -> None:
    address = read_address("explore", to_query(setup))
    assert not address.notices
    assert setup_from_address(address) == setup


def test_an_unusable_value_keeps_the_default_and_says_so() -> None:
    address = read_address("explore", {"chips": "65", "kv": "fp4", "prompt": "1000"})
    setup = setup_from_address(address)
    assert (setup.chips, setup.kv, setup.prompt) == (Setup().chips, Setup().kv, 1000)
    assert len(address.notices) == 2
    assert "`chips` (`65`) is not a whole number from 1 to 64" in address.notices[0]


def test_a_latent_attention_model_is_named_and_not_used() -> None:
    # Explore computes KV as 2 · layers · KV heads · head_dim, which DeepSeek-V3's MLA cache is not.
    address = read_address("explore", {"model": "deepseek_v3"})
    assert address.values["model"] is None
    assert "a model preset with standard attention" in address.notices[0]
