"""Reports as rows for tables and CSV, with SI figures formatted for people.

Rows are lists of plain dicts (str, int, float, bool or None values), ready for a dataframe, a
CSV file or a terminal table. Numbers stay in SI units in CSV; ``format_si`` is for display.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpu_checks.report import RunReport
from gpu_checks.results import Sample
from gpu_checks.si import format_si
from progress.export import spreadsheet_safe


def _sample_row(probe: str, sample: Sample) -> dict[str, Any]:
    return {
        "probe": probe,
        "label": sample.label,
        "size": sample.size,
        "bytes_moved": sample.bytes_moved,
        "flops": sample.flops,
        "working_set_bytes": sample.working_set_bytes,
        "median_s": sample.seconds,
        "iqr_s": sample.timing.iqr_s,
        "spread": sample.timing.spread,
        "noisy": sample.timing.noisy,
        "replicates": len(sample.timing.times_s),
        "bytes_per_s": sample.bytes_per_s,
        "flops_per_s": sample.flops_per_s,
        "arithmetic_intensity": sample.arithmetic_intensity,
    }


def probe_samples(report: RunReport) -> list[tuple[str, Sample]]:
    """Every sample of the report with its probe's name, probe by probe, sizes ascending."""
    groups: list[tuple[str, Sequence[Sample]]] = [
        ("bandwidth", report.bandwidth.samples if report.bandwidth else ()),
        ("matmul", report.matmul.samples if report.matmul else ()),
        ("overhead", report.overhead.samples if report.overhead else ()),
        *((f"decode {d.dtype}", d.samples) for d in report.decode),
        ("fusion", report.fusion.samples if report.fusion else ()),
    ]
    return [
        (probe, sample)
        for probe, samples in groups
        for sample in sorted(samples, key=lambda s: (s.label, s.size))
    ]


def sample_rows(report: RunReport) -> list[dict[str, Any]]:
    """One row per timed sample, SI units."""
    return [_sample_row(probe, sample) for probe, sample in probe_samples(report)]


def comparison_rows(report: RunReport) -> list[dict[str, Any]]:
    """One row per prediction set beside its measurement, SI units, with display strings."""
    return [
        {
            "checklist_item": c.check_id,
            "quantity": c.label,
            "predicted": c.predicted,
            "measured": c.measured,
            "ratio": c.ratio,
            "unit": c.unit,
            "predicted_text": format_si(c.predicted, c.unit),
            "measured_text": format_si(c.measured, c.unit),
            "basis": c.basis,
        }
        for c in report.comparisons()
    ]


def history_rows(reports: Iterable[RunReport]) -> list[dict[str, Any]]:
    """One row per past run: when, plan, device and headline figures (display strings)."""
    rows = []
    for report in reports:
        summary = report.summary()
        peaks = summary["matmul_peak_flops"]
        rows.append(
            {
                "started_at": report.started_at,
                "plan": report.plan,
                "device": report.device.name,
                "bandwidth": format_si(summary["mem_bandwidth_bytes_per_s"], "B/s"),
                "matmul_peak": format_si(max(peaks.values()) if peaks else None, "FLOP/s"),
                "overhead_per_op": format_si(summary["overhead_s_per_op"], "s"),
                "decode_knee": format_si(summary["decode_knee_batch_measured"], ""),
                "stopped": report.stopped,
            }
        )
    return rows


#: Probes whose small sizes stay in the cache on purpose (the sweep starts there).
_STREAMING_PROBES = ("bandwidth", "overhead", "fusion")


def in_cache(report: RunReport, probe: str, sample: Sample) -> bool:
    """Whether a streaming probe's sample fits in twice the last-level cache (so it beats the memory roof)."""
    return probe in _STREAMING_PROBES and sample.working_set_bytes < 2 * report.device.llc_bytes


def roofline_points(report: RunReport) -> list[dict[str, Any]]:
    """Points for ``ui.roofline_chart``: every sample that does arithmetic, labelled by probe.

    Samples served from the cache are labelled "(in cache)": they sit above the memory roof by
    right, since the roof is the bandwidth of memory, not of the cache.
    """
    return [
        {
            "label": (probe if probe.startswith("decode") else f"{probe} {sample.label}")
            + (" (in cache)" if in_cache(report, probe, sample) else ""),
            "arithmetic_intensity": sample.arithmetic_intensity,
            "flops_per_s": sample.flops_per_s,
            "size": sample.size,
        }
        for probe, sample in probe_samples(report)
        if sample.arithmetic_intensity
    ]


def sample_display_rows(report: RunReport) -> list[dict[str, Any]]:
    """One row per timed sample with every figure formatted (SI prefixes), for people to read."""
    rows = []
    for probe, sample in probe_samples(report):
        rows.append(
            {
                "probe": probe,
                "kernel": sample.label,
                "size": f"{sample.size:,}",
                "time": format_si(sample.seconds, "s"),
                "bandwidth": format_si(sample.bytes_per_s, "B/s"),
                "compute": format_si(sample.flops_per_s, "FLOP/s") if sample.flops else "–",
                "working set": format_si(sample.working_set_bytes, "B")
                + (" (in cache)" if in_cache(report, probe, sample) else ""),
                "spread": f"{sample.timing.spread:.0%}" + (" noisy" if sample.timing.noisy else ""),
            }
        )
    return rows


def to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """``rows`` as CSV text with a header (the first row's keys); empty text for no rows.

    Labels come from the history file, which anything can write to: every text cell that a
    spreadsheet would run as a formula is escaped the way the attempts export escapes it.
    """
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({name: spreadsheet_safe(value) for name, value in row.items()} for row in rows)
    return buffer.getvalue()
