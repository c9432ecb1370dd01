"""The practice roofline's SVG: labelled points where they belong, a marked ridge, decade ticks, no legend."""

from __future__ import annotations

import itertools
import math
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.estimator import attainable_flops, ridge_point
from ui.roofline_svg import HEIGHT, WIDTH, Role, roofline_svg

A100 = {"peak_flops": 312e12, "mem_bandwidth": 1.555e12}
POINTS = [
    {"label": "ops:byte ratio", "arithmetic_intensity": 200.6, "flops_per_s": 312e12, "role": Role.PROBLEM},
    {"label": "your answer", "arithmetic_intensity": 2.0, "flops_per_s": 3.11e12, "role": Role.ANSWER},
]
NS = "{http://www.w3.org/2000/svg}"
_SI = {"": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def texts(root: ElementTree.Element) -> dict[str, ElementTree.Element]:
    return {element.text or "": element for element in root.iter(f"{NS}text")}


def marks(root: ElementTree.Element) -> list[tuple[str, str, float, float]]:
    """(shape, fill, x, y) of every point drawn."""
    found = []
    for element in root.iter():
        tag = element.tag.removeprefix(NS)
        if tag == "circle":
            found.append(("circle", element.get("fill"), float(element.get("cx")), float(element.get("cy"))))
        elif tag == "rect" and element.get("fill"):
            size = float(element.get("width"))
            x, y = float(element.get("x")) + size / 2, float(element.get("y")) + size / 2
            found.append(("square", element.get("fill"), x, y))
        elif tag == "polygon":
            corners = [tuple(map(float, c.split(","))) for c in element.get("points").split()]
            x = sum(c[0] for c in corners) / len(corners)
            y = sum(c[1] for c in corners) / len(corners)
            found.append(("diamond", element.get("fill"), x, y))
    return found


def ticks(root: ElementTree.Element) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(value, position) of the x ticks (plain numbers) and of the y ticks (SI: 1T, 100T)."""
    x_ticks, y_ticks = [], []
    for text, element in texts(root).items():
        if text and text[-1] in "kMGTPE" and text[:-1].isdigit():
            y_ticks.append((float(text[:-1]) * 10 ** _SI[text[-1]], float(element.get("y")) - 4))
        else:
            try:
                x_ticks.append((float(text), float(element.get("x"))))
            except ValueError:
                continue
    return sorted(x_ticks), sorted(y_ticks)


def position(value: float, axis: list[tuple[float, float]]) -> float:
    """Where ``value`` falls on a log axis given by its ticks."""
    (v0, p0), (v1, p1) = axis[0], axis[-1]
    return p0 + (math.log10(value) - math.log10(v0)) / (math.log10(v1) - math.log10(v0)) * (p1 - p0)


def test_every_point_is_labelled_and_nothing_else_is_written_but_axes_and_the_ridge() -> None:
    root = parse(roofline_svg(**A100, points=POINTS))
    drawn = set(texts(root))
    assert {"ops:byte ratio", "your answer"} <= drawn
    x_ticks, y_ticks = ticks(root)
    ridge_label = {t for t in drawn if t.startswith("ridge ")}
    axis_titles = {"Arithmetic intensity (FLOP/B)", "FLOP/s"}
    tick_texts = len(x_ticks) + len(y_ticks)
    assert len(drawn) == 2 + len(ridge_label) + len(axis_titles & drawn) + tick_texts, "no legend"


def test_problem_and_answer_points_differ_in_colour_and_shape_and_sit_where_their_values_say() -> None:
    root = parse(roofline_svg(**A100, points=POINTS))
    drawn = marks(root)
    assert len(drawn) == 2
    (problem_shape, problem_fill, *_), (answer_shape, answer_fill, *_) = sorted(
        drawn, key=lambda m: -m[2]
    )  # the problem's point has the larger intensity here
    assert problem_shape != answer_shape and problem_fill != answer_fill
    x_ticks, y_ticks = ticks(root)
    for point, (_, _, x, y) in zip(POINTS, sorted(drawn, key=lambda m: -m[2]), strict=True):
        assert x == pytest.approx(position(point["arithmetic_intensity"], x_ticks), abs=0.6)
        assert y == pytest.approx(position(point["flops_per_s"], y_ticks), abs=0.6)


def test_the_ridge_is_a_dashed_line_at_its_intensity_labelled_with_it() -> None:
    root = parse(roofline_svg(**A100, points=POINTS))
    ridge = ridge_point(**A100)
    [label] = [t for t in texts(root) if t.startswith("ridge ")]
    assert label.endswith(" FLOP/B")
    assert float(label.split()[1].replace(",", "")) == pytest.approx(ridge, rel=1e-3)
    [dashed] = [line for line in root.iter(f"{NS}line") if line.get("stroke-dasharray")]
    x_ticks, _ = ticks(root)
    assert float(dashed.get("x1")) == pytest.approx(position(ridge, x_ticks), abs=0.6)


def test_the_roof_bends_at_the_ridge_and_is_flat_at_the_peak() -> None:
    root = parse(roofline_svg(**A100, points=POINTS))
    [roof] = list(root.iter(f"{NS}polyline"))
    corners = [tuple(map(float, c.split(","))) for c in roof.get("points").split()]
    x_ticks, y_ticks = ticks(root)
    bend = corners[1]
    assert bend[0] == pytest.approx(position(ridge_point(**A100), x_ticks), abs=0.6)
    assert bend[1] == pytest.approx(position(A100["peak_flops"], y_ticks), abs=0.6)
    assert corners[2][1] == pytest.approx(bend[1])  # flat past the ridge


@pytest.mark.parametrize("axis", [0, 1])
def test_axes_tick_once_per_decade_over_whole_decades(axis: int) -> None:
    values = [value for value, _ in ticks(parse(roofline_svg(**A100, points=POINTS)))[axis]]
    exponents = [math.log10(v) for v in values]
    assert exponents == pytest.approx([round(e) for e in exponents])
    assert [round(b - a) for a, b in itertools.pairwise(exponents)] == [1] * (len(values) - 1)


def test_labels_are_written_as_text_whatever_they_contain() -> None:
    points = [{**POINTS[0], "label": "<b>batch & 'more'</b>"}]
    assert "<b>batch & 'more'</b>" in texts(parse(roofline_svg(**A100, points=points)))


@settings(max_examples=60, deadline=None)
@given(
    peak=st.floats(1e12, 5e15),
    bandwidth=st.floats(1e10, 1e13),
    intensities=st.lists(st.floats(1e-2, 1e5), min_size=1, max_size=4),
    roles=st.lists(st.sampled_from(list(Role)), min_size=4, max_size=4),
)
def test_every_point_and_label_stays_inside_the_picture(
    peak: float, bandwidth: float, intensities: list[float], roles: list[Role]
) -> None:
    points = [
        {
            "label": f"point number {i} at {x:.3g}",
            "arithmetic_intensity": x,
            "flops_per_s": attainable_flops(arithmetic_intensity=x, peak_flops=peak, mem_bandwidth=bandwidth),
            "role": role,
        }
        for i, (x, role) in enumerate(zip(intensities, roles, strict=False))
    ]
    root = parse(roofline_svg(peak_flops=peak, mem_bandwidth=bandwidth, points=points))
    for _, _, x, y in marks(root):
        assert 0 < x < WIDTH and 0 < y < HEIGHT
    for point in points:
        label = texts(root)[point["label"]]
        x, width = float(label.get("x")), 0.62 * 17 * len(point["label"])  # bold, at the phone size
        left = x - width if label.get("text-anchor") == "end" else x
        assert left >= -1 and left + width <= WIDTH + 1
        assert 0 < float(label.get("y")) < HEIGHT


# --- labels keep clear of each other and inside the plot, at phone and desktop sizes -------------

PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 66.0, WIDTH - 14.0, 16.0, HEIGHT - 46.0
# (font size in picture units, width of a bold character): desktop at its natural size, a phone.
SIZES = {"desktop": (12, 0.62 * 12), "phone": (17, 0.62 * 17)}


def _label_boxes(svg: str, size: str) -> list[tuple[str, float, float, float, float]]:
    font, char = SIZES[size]
    boxes = []
    for element in parse(svg).iter(f"{NS}text"):
        if element.get("class") not in ("label", "ridge"):
            continue
        at, baseline, content = float(element.get("x")), float(element.get("y")), element.text or ""
        width = char * len(content)
        left, right = (at - width, at) if element.get("text-anchor") == "end" else (at, at + width)
        boxes.append((content, left, baseline - 0.8 * font, right, baseline + 0.25 * font))
    return boxes


GPUS = {
    "A100": (312e12, 1.555e12),
    "L4": (121e12, 300e9),
    "fp32 vector": (19.5e12, 1.555e12),  # a ridge of some 12.5 FLOP/B, near the left of the plot
}


@pytest.mark.parametrize("gpu", list(GPUS))
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("ratio", [0.25, 0.8, 0.95, 0.99, 1.0, 1.01, 1.05, 1.3, 4.0])
@pytest.mark.parametrize("exact", [0.5, 2.0, 40.0, 900.0])
def test_no_two_labels_overlap_and_none_leaves_the_plot(
    gpu: str, size: str, ratio: float, exact: float
) -> None:
    peak, bandwidth = GPUS[gpu]

    def point(label: str, x: float, role: Role) -> dict[str, object]:
        flops = attainable_flops(arithmetic_intensity=x, peak_flops=peak, mem_bandwidth=bandwidth)
        return {"label": label, "arithmetic_intensity": x, "flops_per_s": flops, "role": role}

    points = [
        point("arithmetic intensity", exact, Role.PROBLEM),
        point("your answer", exact * ratio, Role.ANSWER),
    ]
    svg = roofline_svg(peak_flops=peak, mem_bandwidth=bandwidth, points=points)
    boxes = _label_boxes(svg, size)
    assert len(boxes) == 3
    for name, left, top, right, bottom in boxes:
        assert left >= PLOT_LEFT and right <= PLOT_RIGHT, (name, left, right)
        assert top >= PLOT_TOP and bottom <= PLOT_BOTTOM + 5, (name, top, bottom)
    for a, b in itertools.combinations(boxes, 2):
        apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
        assert apart, (a, b)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("batch", [1, 60, 140, 150, 153, 160, 400])
def test_the_decode_batch_labels_keep_clear_of_each_other(size: str, batch: int) -> None:
    peak, bandwidth = GPUS["A100"]
    ridge, critical = ridge_point(peak_flops=peak, mem_bandwidth=bandwidth), 153.0
    points = [
        ("decode at batch 1", ridge / critical, Role.REFERENCE),
        (f"decode at the critical batch ({critical:.0f})", ridge, Role.PROBLEM),
        (f"decode at your batch ({batch})", ridge * batch / critical, Role.ANSWER),
    ]
    rows = [
        {
            "label": label,
            "arithmetic_intensity": x,
            "flops_per_s": attainable_flops(arithmetic_intensity=x, peak_flops=peak, mem_bandwidth=bandwidth),
            "role": role,
        }
        for label, x, role in points
    ]
    boxes = _label_boxes(roofline_svg(peak_flops=peak, mem_bandwidth=bandwidth, points=rows), size)
    for a, b in itertools.combinations(boxes, 2):
        assert a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2], (a, b)
    assert all(left >= PLOT_LEFT and right <= PLOT_RIGHT for _, left, _, right, _ in boxes)
