"""``python -m gpu_checks``: JSON keys, exit statuses and messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_checks.__main__ import main
from gpu_checks.history import load_history

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
    assert len(load_history(history).reports) == 1


def test_text_output_names_the_checklist_items(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--smoke", "--device", "cpu", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "memory bandwidth" in out
    assert "[fusion]" in out


@pytest.mark.parametrize(
    "argv",
    [["--quick", "--full"], ["--device", "tpu"], ["--threads", "0"], ["--buffer-bytes", "lots"], ["--nope"]],
)
def test_bad_options_exit_2_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_size_above_the_memory_cap_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--smoke", "--device", "cpu", "--buffer-bytes", "1000TB"]) == 2
    assert "memory cap" in capsys.readouterr().err


def test_module_help_runs_without_torch() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gpu_checks", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert "--quick" in result.stdout
    assert "| torch" not in result.stderr
