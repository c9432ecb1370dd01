"""Sharding: what one chip holds when a model is split over several (tensor parallelism).

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
"""

from __future__ import annotations

from grader.derivation import num, step


def bytes_per_chip(*, n_bytes: float, n_chips: int) -> float:
    """Bytes each chip holds when ``n_bytes`` are split evenly over ``n_chips``: bytes / chips.

    Tensor parallelism splits every weight matrix, and the KV cache by KV head, over the chips.
    Assumes an even split: KV heads replicated once chips outnumber them are not counted here.
    """
    return step(
        "Bytes per chip",
        "bytes / chips",
        f"{num(n_bytes)} B / {num(n_chips)}",
        n_bytes / n_chips,
        "B",
    )
