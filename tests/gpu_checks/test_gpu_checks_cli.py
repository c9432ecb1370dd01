"""``python -m gpu_checks``: JSON keys, exit statuses and messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_checks import runner as runner_module
from gpu_checks.__main__ import main
from gpu_checks.history import load_history
from gpu_checks.lock import DeviceLock
from gpu_checks.runner import Runner

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "device",
    "mem_bandwidth_bytes_per_s",
    "matmul_peak_flops",
    "overhead_s_per_op",
    "fusion_time_ratio",
    "decode_knee_batch_measured",
    "decode_knee_batch_predicted",
}


@pytest.fixture(autouse=True)
def _own_lock_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The runs here lock the cpu in a folder of their own, not the machine's shared one: another
    test running at the same time (in another worker) or the app on this machine holding it would
    make a run exit 2."""
    monkeypatch.setattr(runner_module, "default_lock_dir", lambda: tmp_path / "locks")


def _cli(*args: str, python_options: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``python -m gpu_checks ARGS`` in a child process (a crash there cannot take pytest down)."""
    command = [sys.executable, *python_options, "-m", "gpu_checks", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_json_has_the_headline_keys_and_the_details(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    history = tmp_path / "h.jsonl"
    status = main(["--smoke", "--device", "cpu", "--threads", "1", "--json", "--history", str(history)])
    assert status == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload.keys() >= KEYS | {"comparisons", "report"}
    assert payload["device"]["kind"] == "cpu"
    assert set(payload["matmul_peak_flops"]) >= {"float32"}
    assert all(value > 0 for value in payload["matmul_peak_flops"].values())
    assert payload["mem_bandwidth_bytes_per_s"] > 0
    assert payload["report"]["bandwidth"]["samples"]
    assert {row["checklist_item"] for row in payload["comparisons"]} >= {"fusion", "decode-batch-threshold"}
    answers = {row["checklist_item"]: row for row in payload["findings"]}
    assert answers["ops-byte-threshold"]["text"].startswith("This device moves ")
    assert all({"reason", "detail", "advice"} <= set(d) for row in answers.values() for d in row["doubts"])
    assert len(load_history(history).reports) == 1


def test_text_output_names_the_checklist_items(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--smoke", "--device", "cpu", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "memory bandwidth" in out
    assert "[fusion]" in out
    assert "what this run answers:" in out
    assert "  [ops-byte-threshold] This device moves " in out


@pytest.mark.parametrize(
    "argv",
    [["--quick", "--full"], ["--device", "tpu"], ["--threads", "0"], ["--buffer-bytes", "lots"], ["--nope"]],
)
def test_bad_options_exit_2_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize("threads", ["50000", "30000"])
def test_absurd_thread_counts_exit_2_before_torch_sees_them(threads: str) -> None:
    # In a child process: unchecked, 50000 threads segfault and 30000 abort inside libgomp.
    result = _cli("--smoke", "--device", "cpu", "--threads", threads)
    assert result.returncode == 2
    assert "give a number from 1 to" in result.stderr


@pytest.mark.parametrize("size", ["9" * 400, "1" + "0" * 320 + "TB", "2EiB", "5000000000000000000000 B"])
def test_absurd_buffer_sizes_exit_2_with_a_message(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--smoke", "--device", "cpu", "--buffer-bytes", size])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--buffer-bytes" in err
    assert "larger than any memory" in err or "unreadable size" in err


def test_a_size_above_the_memory_cap_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--smoke", "--device", "cpu", "--buffer-bytes", "1000TB"]) == 2
    assert "memory cap" in capsys.readouterr().err


def test_module_help_runs_without_torch() -> None:
    result = _cli("--help", python_options=("-X", "importtime"))
    assert result.returncode == 0
    assert "--quick" in result.stdout
    assert "| torch" not in result.stderr


def test_a_second_run_on_a_busy_device_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lock = DeviceLock(lock_dir=tmp_path, device_key="cpu")
    lock.acquire(what="quick run started by the app")
    try:
        assert main(["--smoke", "--device", "cpu", "--threads", "1"], runner=Runner(lock_dir=tmp_path)) == 2
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert "another GPU-check run is using cpu" in err
    assert "quick run started by the app" in err
