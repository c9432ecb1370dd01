"""Rooflines: the ops:byte ratio, arithmetic intensity, memory and compute time, overhead, fusion.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Horace He's compute / bandwidth / overhead split and the scaling book's roofline chapter.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step

# --- rooflines -----------------------------------------------------------------------------


def ridge_point(*, peak_flops: float, mem_bandwidth: float) -> float:
    """The ops:byte ratio (FLOP per byte) where the roofline bends: peak FLOP/s / bandwidth.

    Below it an operation is bandwidth-bound, above it compute-bound. Ignores overhead and
    cache effects.
    """
    value = peak_flops / mem_bandwidth
    return step(
        "Ops:byte ratio (ridge point)",
        "peak FLOP/s / memory bandwidth",
        f"{qty(peak_flops, 'FLOP/s')} / {qty(mem_bandwidth, 'B/s')}",
        value,
        "FLOP/B",
    )


def arithmetic_intensity_matmul(*, m: int, k: int, n: int, bytes_per_element: float) -> float:
    """FLOP per byte of an (m×k)·(k×n) matmul: 2mkn / (bytes · (mk + kn + mn)).

    Counts reading both inputs and writing the output once each: perfect on-chip reuse.
    """
    flops = 2 * m * k * n
    moved = bytes_per_element * (m * k + k * n + m * n)
    step(
        "Matmul FLOPs",
        "2 · m · k · n",
        f"2 · {num(m)} · {num(k)} · {num(n)}",
        flops,
        "FLOP",
    )
    step(
        "Matmul bytes moved",
        "bytes · (m·k + k·n + m·n)",
        f"{num(bytes_per_element)} · ({num(m * k)} + {num(k * n)} + {num(m * n)})",
        moved,
        "B",
    )
    return step(
        "Arithmetic intensity",
        "FLOPs / bytes",
        f"{qty(flops, 'FLOP')} / {qty(moved, 'B')}",
        flops / moved,
        "FLOP/B",
    )


#: The derivation formula of an element-wise op's intensity: how a page tells such an op (it runs on
#: the vector units, under their lower roof) from a matmul's.
ELEMENTWISE_INTENSITY_FORMULA = "FLOPs per element / (bytes · (inputs + outputs))"


def arithmetic_intensity_elementwise(
    *, flops_per_element: float, bytes_per_element: float, n_inputs: int, n_outputs: int = 1
) -> float:
    """FLOP per byte of an element-wise op: flops / (bytes · (inputs + outputs)).

    Every input is read once and every output written once from main memory.
    """
    value = flops_per_element / (bytes_per_element * (n_inputs + n_outputs))
    return step(
        "Arithmetic intensity",
        ELEMENTWISE_INTENSITY_FORMULA,
        f"{num(flops_per_element)} / ({num(bytes_per_element)} · ({num(n_inputs)} + {num(n_outputs)}))",
        value,
        "FLOP/B",
    )


def attainable_flops(*, arithmetic_intensity: float, peak_flops: float, mem_bandwidth: float) -> float:
    """The roofline: min(peak FLOP/s, intensity · bandwidth), in FLOP/s. Ignores overhead."""
    value = min(peak_flops, arithmetic_intensity * mem_bandwidth)
    return step(
        "Attainable FLOP/s",
        "min(peak, intensity · bandwidth)",
        f"min({qty(peak_flops, 'FLOP/s')}, {num(arithmetic_intensity)} FLOP/B · {qty(mem_bandwidth, 'B/s')})",
        value,
        "FLOP/s",
    )


def memory_time(
    *, n_bytes: float, mem_bandwidth: float, n_chips: int = 1, label: str = "Memory time"
) -> float:
    """Seconds to move ``n_bytes`` at full bandwidth over ``n_chips``: bytes / (chips · bandwidth).

    ``label`` names what is read (``Weight read time``) where a derivation has more than one read.
    """
    if n_chips == 1:
        formula, numbers = "bytes / bandwidth", f"{qty(n_bytes, 'B')} / {qty(mem_bandwidth, 'B/s')}"
    else:
        formula = "bytes / (chips · bandwidth)"
        numbers = f"{qty(n_bytes, 'B')} / ({num(n_chips)} · {qty(mem_bandwidth, 'B/s')})"
    return step(label, formula, numbers, n_bytes / (n_chips * mem_bandwidth), "s")


def compute_time(*, flops: float, peak_flops: float, n_chips: int = 1, mfu: float = 1.0) -> float:
    """Seconds to do ``flops`` on ``n_chips`` at ``mfu`` of their peak: FLOPs / (chips · peak · MFU).

    The formula shows the chips and the MFU only when they are not 1, so the line never calls a
    derated or summed figure the peak.
    """
    names = ["peak FLOP/s"]
    figures = [qty(peak_flops, "FLOP/s")]
    if n_chips != 1:
        names.insert(0, "chips")
        figures.insert(0, num(n_chips))
    if mfu != 1:
        names.append("MFU")
        figures.append(num(mfu))
    if len(names) == 1:
        formula, numbers = "FLOPs / peak FLOP/s", f"{qty(flops, 'FLOP')} / {figures[0]}"
    else:
        formula = f"FLOPs / ({' · '.join(names)})"
        numbers = f"{qty(flops, 'FLOP')} / ({' · '.join(figures)})"
    return step("Compute time", formula, numbers, flops / (n_chips * peak_flops * mfu), "s")


# --- bandwidth, overhead and fusion --------------------------------------------------------


def elementwise_chain_bytes(
    *, n_elements: int, bytes_per_element: float, n_ops: int, fused: bool = False
) -> float:
    """Bytes moved by a chain of ``n_ops`` unary element-wise ops over ``n_elements``.

    Unfused, each op reads its input and writes its output: 2 · n_ops · N · bytes. Fused, the
    chain reads once and writes once: 2 · N · bytes, whatever n_ops is. That is why fusing two
    element-wise ops costs about the same as one.
    """
    passes = 1 if fused else n_ops
    value = 2 * passes * n_elements * bytes_per_element
    return step(
        "Bytes moved (fused)" if fused else "Bytes moved (unfused)",
        "2 (read + write) · passes · elements · bytes",
        f"2 · {num(passes)} · {num(n_elements)} · {qty(bytes_per_element, 'B')}",
        value,
        "B",
    )


def overhead_knee_bytes(*, overhead_s: float, mem_bandwidth: float) -> float:
    """Bytes an op must move before bandwidth, not per-op overhead, dominates: overhead · bandwidth.

    Below it time stays flat as the tensor grows (overhead-bound); above it time grows with bytes.
    """
    return step(
        "Overhead knee",
        "overhead per op · bandwidth",
        f"{qty(overhead_s, 's')} · {qty(mem_bandwidth, 'B/s')}",
        overhead_s * mem_bandwidth,
        "B",
    )


# --- rooflines with overhead -------------------------------------------------------------


def roofline_time(
    *, flops: float, n_bytes: float, peak_flops: float, mem_bandwidth: float, overhead_s: float = 0.0
) -> float:
    """Lower bound on one op's time, in seconds: max(overhead, FLOPs / peak, bytes / bandwidth).

    Whichever term is largest names the regime (overhead-, compute- or bandwidth-bound). Assumes
    compute and memory traffic overlap perfectly and that launches are asynchronous, so in a
    long stream of ops the per-op host overhead hides behind kernels longer than it. Ignores
    caches, tail effects and the first launch's latency.
    """
    t_compute = compute_time(flops=flops, peak_flops=peak_flops)
    t_memory = memory_time(n_bytes=n_bytes, mem_bandwidth=mem_bandwidth)
    return step(
        "Op time (roofline with overhead)",
        "max(overhead, compute time, memory time)",
        f"max({qty(overhead_s, 's')}, {qty(t_compute, 's')}, {qty(t_memory, 's')})",
        max(overhead_s, t_compute, t_memory),
        "s",
    )


def roofline_time_other_regime(
    *, flops: float, n_bytes: float, peak_flops: float, mem_bandwidth: float, overhead_s: float = 0.0
) -> float:
    """The slip variant of :func:`roofline_time`: its second largest term (a regime that does not bind)."""
    t_compute = compute_time(flops=flops, peak_flops=peak_flops)
    t_memory = memory_time(n_bytes=n_bytes, mem_bandwidth=mem_bandwidth)
    terms = sorted((overhead_s, t_compute, t_memory))
    return step("Op time of the regime that does not bind", "second largest term", "", terms[-2], "s")


def attainable_flops_other_roof(
    *, arithmetic_intensity: float, peak_flops: float, mem_bandwidth: float
) -> float:
    """The slip variant of :func:`attainable_flops`: the roof that does not bind (the larger one)."""
    value = max(peak_flops, arithmetic_intensity * mem_bandwidth)
    return step(
        "Attainable FLOP/s on the other roof", "max(peak, intensity · bandwidth)", "", value, "FLOP/s"
    )


def flops_in_duration(*, duration_s: float, peak_flops: float) -> float:
    """FLOPs the chip could do at peak in ``duration_s`` seconds: duration · peak FLOP/s.

    What one per-op overhead costs in forgone work. Ignores that small ops never reach peak.
    """
    return step(
        "FLOPs forgone",
        "duration · peak FLOP/s",
        f"{qty(duration_s, 's')} · {qty(peak_flops, 'FLOP/s')}",
        duration_s * peak_flops,
        "FLOP",
    )


def matmul_min_square_dim(*, peak_flops: float, mem_bandwidth: float, bytes_per_element: float) -> float:
    """Side n of the smallest square matmul that is compute-bound: 1.5 · bytes · peak / bandwidth.

    An n×n by n×n matmul does 2n³ FLOPs and moves bytes · 3n² (two inputs, one output), so its
    intensity is 2n / (3 · bytes); setting that equal to the ridge point gives n. Assumes perfect
    on-chip reuse; ignores tiling and wave-quantisation effects.
    """
    value = 1.5 * bytes_per_element * peak_flops / mem_bandwidth
    return step(
        "Smallest compute-bound square matmul",
        "1.5 · bytes per element · peak FLOP/s / bandwidth",
        f"1.5 · {num(bytes_per_element)} · {qty(peak_flops, 'FLOP/s')} / {qty(mem_bandwidth, 'B/s')}",
        value,
        "",
    )


def arithmetic_intensity(*, flops: float, n_bytes: float) -> float:
    """FLOP per byte of any kernel: FLOPs / bytes moved to and from main memory.

    Ignores caches: bytes are main-memory traffic, so reuse inside on-chip memory raises the intensity.
    """
    return step(
        "Arithmetic intensity",
        "FLOPs / bytes moved",
        f"{qty(flops, 'FLOP')} / {qty(n_bytes, 'B')}",
        flops / n_bytes,
        "FLOP/B",
    )
