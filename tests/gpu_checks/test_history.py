"""History of runs: JSON lines beside the progress database."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest

from gpu_checks.history import append_report, history_path_for, load_history
from gpu_checks.report import RunReport
from gpu_checks.table import sample_rows, to_csv
from progress.export import spreadsheet_safe
from tests.gpu_checks import synthetic


def test_history_lives_beside_the_database(tmp_path: Path) -> None:
    assert history_path_for(tmp_path / "progress.db") == tmp_path / "progress.gpu_checks.jsonl"


def test_reports_come_back_in_order_by_device(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "h.jsonl"
    first = synthetic.report(started_at="2026-11-29T10:00:00+00:00")
    other = synthetic.report(info=synthetic.device(name="Other"))
    second = synthetic.report(started_at="2026-11-29T11:00:00+00:00")
    for report in (first, other, second):
        append_report(path, report)
    history = load_history(path)
    assert history.reports == (first, other, second)
    assert history.for_device(first.device.fingerprint) == (first, second)
    assert history.skipped == 0


def test_unreadable_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    append_report(path, synthetic.report())
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"plan": "cut off mid-wri\n\n{"plan": "quick"}\n')
    history = load_history(path)
    assert len(history.reports) == 1
    assert history.skipped == 2


def test_no_file_is_an_empty_history(tmp_path: Path) -> None:
    history = load_history(tmp_path / "none.jsonl")
    assert history.reports == ()
    assert history.skipped == 0


def test_a_line_with_a_byte_that_is_not_utf8_is_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    append_report(path, synthetic.report(started_at="2026-11-29T10:00:00+00:00"))
    with path.open("ab") as handle:
        handle.write(b'{"plan": "quick\xff\xfe"}\n')
    append_report(path, synthetic.report(started_at="2026-11-29T11:00:00+00:00"))
    history = load_history(path)
    assert [r.started_at[11:13] for r in history.reports] == ["10", "11"]
    assert history.skipped == 1


def _with_label(report: RunReport, label: str) -> RunReport:
    bandwidth = report.bandwidth
    assert bandwidth is not None
    samples = (replace(bandwidth.samples[0], label=label), *bandwidth.samples[1:])
    return replace(report, bandwidth=replace(bandwidth, samples=samples))


FORMULAS = ['=HYPERLINK("http://evil.example/","x")', "+1+cmd|' /C calc'!A0", "@SUM(1)"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_a_formula_in_a_stored_label_reaches_the_csv_neutralised(tmp_path: Path, formula: str) -> None:
    path = tmp_path / "h.jsonl"
    append_report(path, _with_label(synthetic.report(), formula))
    (report,) = load_history(path).reports
    text = to_csv(sample_rows(report))
    cells = [row["label"] for row in csv.DictReader(io.StringIO(text))]
    assert f"'{formula}" in cells  # escaped the way the attempts export escapes it
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    assert spreadsheet_safe(formula) == f"'{formula}"
    first = next(csv.DictReader(io.StringIO(text)))
    assert float(first["median_s"]) == pytest.approx(sample_rows(report)[0]["median_s"])  # numbers stay


def test_a_deeply_nested_line_is_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    append_report(path, synthetic.report(started_at="2026-11-29T10:00:00+00:00"))
    with path.open("a", encoding="utf-8") as handle:
        handle.write("[" * 100_000 + "]" * 100_000 + "\n")
        handle.write('{"plan": ' + "[" * 500 + "]" * 500 + "}\n")  # read by json, but a plan is a name
    append_report(path, synthetic.report(started_at="2026-11-29T11:00:00+00:00"))
    history = load_history(path)
    assert [r.started_at[11:13] for r in history.reports] == ["10", "11"]
    assert history.skipped == 2
    assert history.skipped_lines == (2, 3)
    assert history.skipped_note(path).startswith(f"Lines 2 and 3 of the GPU history {path} could not be read")
