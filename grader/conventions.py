"""Conventions that give a defensible second answer a few percent from the first.

An interviewer accepts either; a question grades the derivation's convention as exact and
accepts these too, saying which convention gave which number.
"""

from __future__ import annotations

from grader.derivation import num, qty, step

#: Bytes in a "GB" of HBM as GPUs are sold: the capacity is binary (an "80 GB" A100 holds 80 GiB).
GIB_PER_GB = 2**30 / 1e9


def params_read_per_decode_step(
    *, n_params: float, vocab_size: float, d_model: float, tied_embeddings: bool
) -> float:
    """Parameters a decode step reads: all of them, less the input-embedding table when it is untied.

    A decode step gathers one row of the input-embedding table per sequence, it does not read the
    table; an untied LM head is a full matmul and is read. A tied table is read as the LM head.
    """
    table = 0.0 if tied_embeddings else vocab_size * d_model
    return step(
        "Parameters read per decode step",
        "parameters − vocab · d_model (the input-embedding table is gathered, not read)",
        f"{num(n_params)} − {num(vocab_size)} · {num(d_model)}" if table else f"{num(n_params)}",
        n_params - table,
        "",
    )


def binary_capacity_bytes(*, memory_bytes: float) -> float:
    """A GPU's memory in bytes when its "GB" capacity is read as GiB, the way HBM is sold."""
    return step(
        "Memory, read as GiB",
        "capacity in GB · 2³⁰ / 10⁹",
        f"{qty(memory_bytes, 'B')} · 1.074",
        memory_bytes * GIB_PER_GB,
        "B",
    )
