"""The roofline drawn under a practice answer: the problem's GPU, the problem's point, the user's point.

Only for checklist items about where an operation sits on a GPU's roofline. The points come from
the problem's own derivation (every step measured in FLOP/B is an arithmetic intensity) and from
the user's parsed answer, so nothing here computes a second copy of a formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from grader import Verdict
from grader.estimator import attainable_flops, ridge_point
from grader.estimator.rooflines import ELEMENTWISE_INTENSITY_FORMULA
from grader.problem import Problem, ToleranceKind
from grader.units import dimensionality, format_quantity, readable
from question_bank import Accelerator, load_hardware
from ui.roofline_svg import Role, roofline_svg, svg_data_uri

#: Checklist items whose problems are drawn on a roofline.
ROOFLINE_ITEMS = frozenset(
    {"arithmetic-intensity", "ops-byte-threshold", "decode-batch-threshold", "prefill-vs-decode"}
)
#: The GPU to draw on when a problem names none (an intensity is still worth placing).
REFERENCE_GPU = "a100_40gb_sxm"
_INTENSITY = "FLOP/B"
_CRITICAL_BATCH = "Critical decode batch size"


#: The roofs a picture can be drawn under: the dense 16-bit tensor peak, where matmuls run, and the
#: fp32 vector peak, where element-wise ops run (their ridge is some 10 FLOP/B, not hundreds).
TENSOR_ROOF = "dense 16-bit peak"
VECTOR_ROOF = "fp32 vector peak, where element-wise ops run"
#: A matmul in fp32 runs on the same fp32 units (the 16-bit tensor peak is not its roof; PyTorch leaves
#: TF32 off for matmuls by default); one in fp8 runs on the fp8 tensor peak, where the part has one.
FP32_MATMUL_ROOF = "fp32 peak, where an fp32 matmul runs without TF32"
FP8_ROOF = "dense fp8 tensor peak"
#: The param a problem names its element type by (``fp32``, ``bf16``, ``fp8``).
_DTYPE_PARAM = "dtype"


@dataclass(frozen=True)
class RooflineView:
    """What to draw: the accelerator, whether it was the problem's own, the labelled points, and the
    roof they sit under (its peak and what it is)."""

    accelerator: Accelerator
    own_gpu: bool
    points: tuple[dict[str, Any], ...]
    peak_flops: float
    roof: str = TENSOR_ROOF
    #: The user's point counts as at the ridge within this relative distance: the band the answer is
    #: graded to, so a right "about 160" for a 163.9 ridge is not called bandwidth-bound.
    answer_near_ridge: float = 0.0


def _accelerator(problem: Problem) -> tuple[Accelerator, bool]:
    hardware = load_hardware()
    for value in problem.params.values():
        if isinstance(value, str) and value in hardware:
            return hardware[value], True
    return hardware[REFERENCE_GPU], False


def _is_intensity(unit: str) -> bool:
    try:
        return dimensionality(unit) == dimensionality(_INTENSITY)
    except ValueError:
        return False


def roofline_view(problem: Problem, verdict: Verdict | None) -> RooflineView | None:
    """The picture for this problem and answer, or None when the problem is not about a roofline."""
    if problem.checklist_item not in ROOFLINE_ITEMS:
        return None
    accelerator, own = _accelerator(problem)
    intensity_steps = [s for s in problem.derivation if s.unit == _INTENSITY]
    # (label, intensity in FLOP/B, whose point)
    intensities = [(s.label.lower(), s.value, Role.PROBLEM) for s in intensity_steps]
    # An element-wise op is drawn under the vector roof it runs under, as its explanation teaches.
    elementwise = bool(intensity_steps) and all(
        s.formula == ELEMENTWISE_INTENSITY_FORMULA for s in intensity_steps
    )
    vector_peak = accelerator.peak_flops_vector if elementwise else None
    peak = vector_peak if vector_peak is not None else accelerator.peak_flops
    roof = TENSOR_ROOF if vector_peak is None else VECTOR_ROOF
    dtype = problem.params.get(_DTYPE_PARAM)
    if not elementwise and dtype == "fp32":
        if accelerator.peak_flops_vector is None:
            return None  # no fp32 roof known for this part: no picture rather than the wrong roof
        peak, roof = accelerator.peak_flops_vector, FP32_MATMUL_ROOF
    elif not elementwise and dtype == "fp8":
        if accelerator.peak_flops_fp8 is None:
            return None  # the part has no fp8 tensor cores to draw
        peak, roof = accelerator.peak_flops_fp8, FP8_ROOF
    answer_is_intensity = _is_intensity(problem.unit)
    if answer_is_intensity and verdict is not None and verdict.value:
        intensities.append(("your answer", verdict.value, Role.ANSWER))
    critical = next((s.value for s in problem.derivation if s.label == _CRITICAL_BATCH), None)
    if own and critical:
        # Decode intensity is proportional to the batch, and equals the ridge point at the critical
        # batch, so batch b sits at ridge · b / b*.
        ridge = ridge_point(peak_flops=accelerator.peak_flops, mem_bandwidth=accelerator.mem_bandwidth)
        intensities.append(("decode at batch 1", ridge / critical, Role.REFERENCE))
        intensities.append((f"decode at the critical batch ({critical:.0f})", ridge, Role.PROBLEM))
        if verdict is not None and verdict.value:
            intensities.append(
                (f"decode at your batch ({verdict.value:.0f})", ridge * verdict.value / critical, Role.ANSWER)
            )
    if not intensities:
        return None
    points = tuple(
        {
            "label": label,
            "role": role,
            "arithmetic_intensity": x,
            "flops_per_s": attainable_flops(
                arithmetic_intensity=x, peak_flops=peak, mem_bandwidth=accelerator.mem_bandwidth
            ),
        }
        for label, x, role in intensities
        if x > 0
    )
    return RooflineView(
        accelerator=accelerator,
        own_gpu=own,
        points=points,
        peak_flops=peak,
        roof=roof,
        answer_near_ridge=(
            problem.tolerance.value if problem.tolerance.kind is ToleranceKind.RELATIVE else 0.0
        ),
    )


def point_lines(view: RooflineView) -> str:
    """Each point's exact figures, one Markdown line each: what a chart library's tooltip would show."""
    ridge = ridge_point(peak_flops=view.peak_flops, mem_bandwidth=view.accelerator.mem_bandwidth)
    lines = []
    for point in view.points:
        x = float(point["arithmetic_intensity"])
        # A point shown with the ridge's own figure is at the ridge: a right answer typed as "208.3" is a
        # hair under 208.33, and calling it bandwidth-bound beside a ridge "at the ridge" reads as a
        # contradiction. So is the user's point within the band their answer is graded to.
        near = view.answer_near_ridge if point["role"] == Role.ANSWER else 0.0
        shown_alike = format_quantity(x, _INTENSITY) == format_quantity(ridge, _INTENSITY)
        at_ridge = shown_alike or math.isclose(x, ridge, rel_tol=max(near, 1e-6))
        bound = (
            "at the ridge: bandwidth and compute both run out"
            if at_ridge
            else "bandwidth-bound"
            if x < ridge
            else "compute-bound"
        )
        lines.append(
            f"- {point['label']}: {format_quantity(x, _INTENSITY)} → "
            f"{readable(float(point['flops_per_s']), 'FLOP/s')} attainable, {bound}"
        )
    return "\n".join(lines)


def roofline_markdown(problem: Problem, verdict: Verdict | None) -> str:
    """The roofline under the feedback when the problem is about one, as Markdown: a heading, the
    picture and each point's figures; empty otherwise."""
    view = roofline_view(problem, verdict)
    if view is None:
        return ""
    gpu = view.accelerator
    which = "the" if view.own_gpu else "a reference GPU, the"
    title = f"Roofline of the {gpu.name}"
    picture = roofline_svg(
        peak_flops=view.peak_flops, mem_bandwidth=gpu.mem_bandwidth, points=view.points, title=title
    )
    # A Markdown image rather than st.image: Markdown is drawn by code the page has already loaded,
    # where an image element loads its own script the first time a session shows one.
    return (
        f"**Where it sits on the roofline of {which} {gpu.name}** "
        f"({view.roof}, datasheet bandwidth; below the ridge an operation is bandwidth-bound, "
        f"above it compute-bound).\n\n![{title}]({svg_data_uri(picture)})\n\n{point_lines(view)}"
    )
