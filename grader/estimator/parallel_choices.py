"""Choosing a parallelism: the pipeline bubble and the expert-parallel all-to-all.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
GPipe (Huang et al., 2019) and Megatron-LM (Narayanan et al., 2021) for the bubble of a pipeline
of p stages fed m microbatches; GShard (Lepikhin et al., 2020) and DeepSeek-V3 (arXiv:2412.19437)
for expert parallelism, where each MoE layer dispatches tokens to the chips holding their experts
and combines the results back.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step


def pipeline_bubble_fraction(*, n_stages: int, n_microbatches: int) -> float:
    """Idle fraction of a pipeline's time: (p − 1) / (m + p − 1) (GPipe).

    The first stage waits p − 1 slots for nothing at the end, the last waits p − 1 at the start,
    out of m + p − 1 slots. GPipe's rule of thumb: negligible once m ≥ 4p. At m = 1 (one decode
    batch) it is (p − 1)/p: a pipeline adds chips but not speed to a single sequence. Assumes
    equal stages and ignores the stage-to-stage send time.
    """
    return step(
        "Pipeline bubble fraction",
        "(stages − 1) / (microbatches + stages − 1)",
        f"({num(n_stages)} − 1) / ({num(n_microbatches)} + {num(n_stages)} − 1)",
        (n_stages - 1) / (n_microbatches + n_stages - 1),
        "",
    )


def expert_parallel_alltoall_bytes(
    *, n_tokens: int, d_model: int, n_experts_active: int, bytes_per_element: float, n_chips: int
) -> float:
    """Bytes one MoE layer sends off-chip, dispatch plus combine: 2 · tokens · k · d · bytes · (n − 1)/n.

    Each token goes to its k routed experts and comes back, one hidden vector each way; with
    uniform routing over n chips an expert is remote with probability (n − 1)/n. Ignores shared
    experts (local), DeepSeek-V3's node-limited routing and dispatching in fp8 (which halves the
    dispatch bytes).
    """
    remote = step(
        "Share of experts on another chip",
        "(chips − 1) / chips",
        f"({num(n_chips)} − 1) / {num(n_chips)}",
        (n_chips - 1) / n_chips,
        "",
    )
    one_way = step(
        "Dispatch bytes",
        "tokens · active experts · d_model · bytes · remote share",
        f"{num(n_tokens)} · {num(n_experts_active)} · {num(d_model)} · {num(bytes_per_element)} B · "
        f"{remote:.4g}",
        n_tokens * n_experts_active * d_model * bytes_per_element * remote,
        "B",
    )
    return step(
        "All-to-all bytes per layer",
        "2 · dispatch bytes (dispatch and combine)",
        f"2 · {qty(one_way, 'B')}",
        2 * one_way,
        "B",
    )
