"""The memory budget beyond weights and KV: what a serving engine leaves for the KV cache.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
vLLM takes a fraction of each GPU's memory (``gpu_memory_utilization``, 0.9 by default), subtracts
the weights and the peak activations it measures in a profiling run, and gives the rest to KV
blocks; CUDA-graph pools and the allocator's fragmentation come out of the same memory.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step


def kv_cache_budget_bytes(
    *,
    memory_bytes: float,
    memory_utilization: float,
    weight_bytes: float,
    activation_bytes: float = 0.0,
    cuda_graph_bytes: float = 0.0,
) -> float:
    """Bytes left for the KV cache on one chip: memory · utilization − weights − activations − graphs.

    At least 0. ``memory_utilization`` is the engine's setting (vLLM's ``gpu_memory_utilization``);
    what it holds back covers other processes and fragmentation. Ignores the CUDA context itself
    (a few hundred MB, outside the budget in vLLM's accounting).
    """
    usable = step(
        "Memory the engine may use",
        "memory · utilization setting",
        f"{qty(memory_bytes, 'B')} · {num(memory_utilization)}",
        memory_bytes * memory_utilization,
        "B",
    )
    return step(
        "KV cache budget",
        "usable − weights − activations − CUDA graphs",
        f"{qty(usable, 'B')} − {qty(weight_bytes, 'B')} − {qty(activation_bytes, 'B')} − "
        f"{qty(cuda_graph_bytes, 'B')}",
        max(0.0, usable - weight_bytes - activation_bytes - cuda_graph_bytes),
        "B",
    )
