"""The Explore page's drawing: the setup's inputs, its figures each with its derivation, the roofline,
one layer's operations, the sweeps, the side-by-side comparison and the Markdown export."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from grader.derivation_text import derivation_lines
from grader.estimator import attainable_flops
from grader.markdown import markdown_table
from question_bank import load_hardware, load_models
from question_bank.presets import ModelConfig, standard_attention_models
from ui import state_keys as keys
from ui.bank_view import bank_or_stop
from ui.context import new_seed, now
from ui.explore.address import setup_from_address, to_query
from ui.explore.drill import drill_for
from ui.explore.figures import (
    CUSTOM,
    DEFAULT_MODEL,
    DTYPES,
    LIMITS,
    Figures,
    Setup,
    compute_figures,
    custom_model,
    with_changes,
)
from ui.explore.sweeps import batch_chart, batch_sweep, context_chart, context_sweep, kv_chart
from ui.explore.text import (
    OP_HALVES,
    SECTIONS,
    figure_text,
    model_note,
    op_half,
    op_rows,
    report_markdown,
    setup_line,
)
from ui.practice.address import to_query as to_practice_query
from ui.practice.loop import Current
from ui.practice.scenario import filter_keeps
from ui.practice_link_view import PRACTICE_PAGE
from ui.query_params import Address
from ui.roofline_svg import Role, roofline_svg, svg_data_uri

#: Which widget holds which Setup field.
_WIDGETS: Mapping[str, str] = {
    "model": keys.EXPLORE_MODEL, "gpu": keys.EXPLORE_GPU, "chips": keys.EXPLORE_CHIPS,
    "weights": keys.EXPLORE_WEIGHTS, "activations": keys.EXPLORE_ACTIVATIONS, "kv": keys.EXPLORE_KV,
    "batch": keys.EXPLORE_BATCH, "prompt": keys.EXPLORE_PROMPT, "output": keys.EXPLORE_OUTPUT,
}  # fmt: skip


def read_address_once(address: Address) -> None:
    """Put the address's setup into the widgets on the session's first visit; later the widgets lead."""
    if st.session_state.get(keys.EXPLORE_ADDRESS_READ):
        return
    st.session_state[keys.EXPLORE_ADDRESS_READ] = True
    st.session_state[keys.EXPLORE_NOTICES] = address.notices
    setup = setup_from_address(address)
    for name, key in _WIDGETS.items():
        st.session_state[key] = getattr(setup, name)


#: A custom model's figures: (field, label).
_CUSTOM_FIELDS = (
    ("n_params", "Parameters"), ("n_layers", "Layers"), ("d_model", "d_model"), ("n_heads", "Heads"),
    ("n_kv_heads", "KV heads"), ("head_dim", "Head dim"), ("d_ff", "MLP width (d_ff)"),
    ("vocab_size", "Vocabulary"),
)  # fmt: skip


def _custom_inputs() -> ModelConfig:
    """A custom model's figure boxes, drawn (starting from the default preset's); the model they give."""
    start = load_models()[DEFAULT_MODEL]
    columns = st.columns(4)
    figures = {
        name: int(columns[i % 4].number_input(
            label, min_value=1, value=int(getattr(start, name)), step=1,
            key=keys.EXPLORE_CUSTOM_PREFIX + name,
        ))
        for i, (name, label) in enumerate(_CUSTOM_FIELDS)
    }  # fmt: skip
    return custom_model(**figures)


def setup_inputs() -> tuple[Setup, dict[str, ModelConfig]]:
    """The setup's widgets, drawn; the setup they hold and the models it may name (a custom one included)."""
    # Only models whose KV the page computes as 2 · layers · KV heads · head_dim (no latent attention).
    models, hardware = standard_attention_models(), load_hardware()
    names = {**{m: models[m].name for m in models}, CUSTOM: "Custom figures…"}
    for notice in st.session_state.get(keys.EXPLORE_NOTICES, ()):
        st.info(notice + " The page uses its default instead.")
    top = st.columns(2)
    model = top[0].selectbox("Model", list(names), format_func=names.__getitem__, key=keys.EXPLORE_MODEL)
    gpu = top[1].selectbox(
        "Accelerator", list(hardware), format_func=lambda g: hardware[g].name, key=keys.EXPLORE_GPU
    )
    if model == CUSTOM:
        models[CUSTOM] = _custom_inputs()
    dtypes = st.columns(3)
    weights = dtypes[0].selectbox("Weights", DTYPES, key=keys.EXPLORE_WEIGHTS)
    activations = dtypes[1].selectbox("Activations", DTYPES, key=keys.EXPLORE_ACTIVATIONS)
    kv = dtypes[2].selectbox("KV cache", DTYPES, key=keys.EXPLORE_KV)
    counts = st.columns(4)
    whole = {}
    for column, (name, label) in zip(
        counts, (("chips", "Chips (tensor parallel)"), ("batch", "Batch"), ("prompt", "Prompt tokens"),
                 ("output", "Output tokens")), strict=True,
    ):  # fmt: skip
        low, high = LIMITS[name]
        whole[name] = int(
            column.number_input(label, min_value=low, max_value=high, step=1, key=_WIDGETS[name])
        )
    extra = st.columns(2)
    mfu = extra[0].number_input(
        "Prefill MFU",
        0.05,
        1.0,
        1.0,
        0.05,
        key=keys.EXPLORE_MFU,
        help="The fraction of peak a prefill reaches.",
    )
    price = extra[1].number_input(
        "Price per chip-hour ($, 0 for none)", 0.0, 1000.0, 0.0, 0.1, key=keys.EXPLORE_PRICE
    )
    setup = Setup(
        model=model, gpu=gpu, weights=weights, activations=activations, kv=kv, mfu=float(mfu),
        price_per_chip_hour=float(price) or None, **whole,
    )  # fmt: skip
    return setup, models


def keep_address(setup: Setup) -> None:
    """Write the setup into the address, so that a link reproduces it (a custom model's figures stay out)."""
    wanted = to_query(setup)
    if setup.model == CUSTOM:
        del wanted["model"]
        st.query_params.pop("model", None)
    if {k: st.query_params.get(k) for k in wanted} != wanted:
        st.query_params.update(wanted)


def figures_of(setup: Setup, models: Mapping[str, ModelConfig]) -> Figures:
    return compute_figures(setup, models=models, hardware=load_hardware())


def show_figures(figures: Figures) -> None:
    """The warnings, then each section's figures, each opening its derivation."""
    st.caption(setup_line(figures))
    for warning in figures.warnings:
        st.warning(f"Not a setup an interviewer would pose: {warning}.")
    note = model_note(figures)
    if note:
        st.info(note)
    fit = "fits" if figures.fits else "does not fit"
    (st.success if figures.fits else st.error)(
        f"The batch of {figures.setup.batch} at {figures.setup.context:,} tokens {fit} in "
        f"{figures.setup.chips} × {figures.gpu.name} "
        f"({figure_text(figures.figures['kv_capacity_sequences'])} sequences would)."
    )
    for title, names in SECTIONS:
        st.subheader(title)
        for name in names:
            figure = figures.figures.get(name)
            if figure is None:
                continue
            with st.expander(f"{figure.label}: **{figure_text(figure)}**"):
                st.markdown(derivation_lines(figure.steps))


def show_roofline(figures: Figures) -> None:
    """The accelerator's roofline with the decode step and the prefill placed on it."""
    gpu = figures.gpu
    roofs = {"peak_flops": gpu.peak_flops, "mem_bandwidth": gpu.mem_bandwidth}
    prefill_tokens = figures.setup.prompt * figures.setup.batch
    placed = (
        (f"decode at batch {figures.setup.batch}", figures.value("decode_intensity"), Role.PROBLEM),
        (f"prefill of {prefill_tokens:,} tokens", figures.value("prefill_intensity"), Role.REFERENCE),
    )
    points = [
        {"label": label, "role": role, "arithmetic_intensity": x,
         "flops_per_s": attainable_flops(arithmetic_intensity=x, **roofs)}
        for label, x, role in placed
    ]  # fmt: skip
    title = f"Roofline of the {gpu.name}"
    picture = roofline_svg(
        peak_flops=gpu.peak_flops, mem_bandwidth=gpu.mem_bandwidth, points=points, title=title
    )
    st.subheader("On the roofline")
    st.markdown(f"![{title}]({svg_data_uri(picture)})")


def show_layer_table(figures: Figures) -> None:
    st.subheader("One layer in a decode step, per chip")
    rows = op_rows(figures)
    # Two tables in columns, which Streamlit stacks on a narrow screen: every figure stays, and none
    # scrolls sideways on a phone.
    for column, half in zip(st.columns(len(OP_HALVES)), OP_HALVES, strict=True):
        column.markdown(markdown_table(*op_half(rows, half)))
    with st.expander("How each operation is counted"):
        for row in figures.ops:
            st.markdown(f"**{row.name}**\n\n" + derivation_lines(row.steps))


def show_sweeps(figures: Figures) -> None:
    model, gpu = figures.model, figures.gpu
    rows, critical = batch_sweep(figures.setup, model=model, gpu=gpu)
    st.subheader("Sweeps")
    left, right = st.columns(2)
    left.vega_lite_chart(
        batch_chart(rows, critical=critical, y="tpot_ms", title="TPOT (ms)"), width="stretch"
    )
    right.vega_lite_chart(
        batch_chart(rows, critical=critical, y="tokens_per_s", title="Tokens/s"), width="stretch"
    )
    context_rows, crossover = context_sweep(figures.setup, model=model, gpu=gpu)
    left, right = st.columns(2)
    left.vega_lite_chart(kv_chart(context_rows, crossover=crossover), width="stretch")
    right.vega_lite_chart(context_chart(context_rows), width="stretch")


def show_comparison(figures: Figures, models: Mapping[str, ModelConfig]) -> None:
    """A second setup beside the first (other chips, formats or batch), with the ratio of each figure."""
    st.subheader("Side by side")
    if not st.toggle("Compare with a second setup", key=keys.EXPLORE_COMPARE):
        return
    s = figures.setup
    cols = st.columns(4)
    changes = {
        "chips": int(
            cols[0].number_input("Chips", *LIMITS["chips"], value=s.chips, key=keys.EXPLORE_B_CHIPS)
        ),
        "weights": cols[1].selectbox(
            "Weights", DTYPES, index=DTYPES.index(s.weights), key=keys.EXPLORE_B_WEIGHTS
        ),
        "kv": cols[2].selectbox("KV cache", DTYPES, index=DTYPES.index(s.kv), key=keys.EXPLORE_B_KV),
        "batch": int(
            cols[3].number_input("Batch", *LIMITS["batch"], value=s.batch, key=keys.EXPLORE_B_BATCH)
        ),
    }
    other = figures_of(with_changes(s, **changes), models)
    rows = [
        [f.label, figure_text(f), figure_text(other.figures[f.key]),
         f"{other.figures[f.key].value / f.value:.3g}×" if f.value else "–"]
        for f in figures.figures.values()
        if f.key in other.figures
    ]  # fmt: skip
    for warning in other.warnings:
        st.warning(f"The second setup: {warning}.")
    st.markdown(markdown_table(("figure", "this setup", "second setup", "second / this"), rows))


def offer_drill(figures: Figures) -> None:
    """ "Drill this setup": open Practice on a bank scenario drawn on exactly this setup, or say why none
    takes it. The drill is a scheduled draw like any other: its attempts are stored, its card reviewed."""
    clicked = st.button(
        "Drill this setup",
        key=keys.EXPLORE_DRILL,
        type="primary",
        icon=":material/school:",
        help="Practise deriving these figures: a scenario of the bank drawn on exactly this setup.",
    )
    if not clicked:
        return
    bank = bank_or_stop()
    seed = new_seed()  # the draw drill_for has checked is the one Practice shows
    drill = drill_for(figures.setup, bank, seed=seed, warnings=figures.warnings)
    if isinstance(drill, str):
        st.warning(drill, icon=":material/block:")
        return
    current = Current(drill.template_id, seed, scheduled=True, started_at=now(), pins=drill.pins)
    # Practice opens the draw its address names, as it does for a shared link; whatever it showed goes.
    for key in (keys.PRACTICE_CURRENT, keys.PRACTICE_VERDICT, keys.PRACTICE_NOTICE, keys.PRACTICE_REVEALED):
        st.session_state.pop(key, None)
    if not filter_keeps(bank, st.session_state.get(keys.PRACTICE_FILTER_ITEM), drill.template_id):
        st.session_state[keys.PRACTICE_FILTER_ITEM] = None
    st.switch_page(PRACTICE_PAGE, query_params=to_practice_query(current))


def offer_export(figures: Figures) -> None:
    st.download_button(
        "Download these figures (Markdown, with derivations)", report_markdown(figures),
        file_name=f"explore-{figures.setup.model}-{figures.setup.gpu}.md", mime="text/markdown",
        key=keys.EXPLORE_EXPORT,
    )  # fmt: skip
