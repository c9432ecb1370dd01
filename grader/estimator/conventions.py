"""Conventions that give a defensible second answer a few percent from the first.

An interviewer accepts either; a question grades the derivation's convention as exact and
accepts these too, saying which convention gave which number.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.estimator.derivation import num, qty, step

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


@dataclass(frozen=True)
class Convention:
    """A reading of the question a competent candidate may take, accepted beside the derivation's own.

    ``name`` is the accepted answer's name (a verdict's ``accepted_as``); ``note`` says what the
    reading does, and is shown with both numbers when an answer matches it.
    """

    name: str
    note: str


#: HBM capacities are binary: an "80 GB" A100 shows 81,920 MiB.
MEMORY_AS_GIB = Convention(
    "memory-read-as-gib",
    'Reading the GPU\'s memory as GiB (HBM is sold in binary units: an "80 GB" A100 holds 80 GiB)',
)
#: A decode step gathers one row of the input-embedding table per sequence; no matmul reads the table.
EMBEDDING_NOT_READ = Convention(
    "embedding-row-gathered",
    "Leaving the input-embedding table out of the weights read (a step gathers one row of it per "
    "sequence; it does not read the table, nor multiply by it)",
)
#: Every convention, in the order they are tried.
CONVENTIONS = (MEMORY_AS_GIB, EMBEDDING_NOT_READ)


def embedding_table_params(*, vocab_size: float, d_model: float, tied_embeddings: bool) -> float:
    """Parameters of the input-embedding table that a step does not read (0 when it is the LM head too)."""
    return 0.0 if tied_embeddings else float(vocab_size) * float(d_model)
