"""``python -m question_bank``: validate, sample and coverage, called through ``main``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bank_kit import BROKEN

from question_bank import load_bank
from question_bank.__main__ import main
from question_bank.checklist import load_checklist

ROOT = Path(__file__).resolve().parents[2]


def test_validate_the_shipped_bank(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("OK: ")


def test_validate_lists_every_error_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [BROKEN / "python-tag.yaml", BROKEN / "bad-yaml-syntax.yaml"]
    assert main(["validate", *map(str, paths)]) == 1
    out = capsys.readouterr().out
    assert "python-tag.yaml:7: [broken-one] title: the YAML tag !!python/object/apply:os.system" in out
    assert "bad-yaml-syntax.yaml:17: YAML syntax" in out
    assert "2 problems found." in out


def _capacity(*, model: str, gpu: str) -> str:
    """A bank file with one template: the tokens that fit beside ``model``'s weights on ``gpu``."""
    return f"""templates:
  - id: capacity-on-one-gpu
    checklist: kv-cache
    kind: numeric
    difficulty: 1
    title: Capacity
    prompt: "How many tokens fit beside {{model}} on {{gpu}}?"
    params:
      model: {{preset: models, ids: [{model}]}}
      gpu: {{preset: hardware, ids: [{gpu}]}}
      weights: {{call: weight_bytes, with: {{n_params: model.n_params, bytes_per_param: 2}}}}
    answer:
      call: kv_capacity_tokens
      with: {{memory_bytes: gpu.memory_bytes, weight_bytes: weights, kv_bytes_per_token: 1000}}
      unit: tokens
      whole: true
    explanation: What is left after the weights.
    references: [kipply]
"""


def test_validate_checks_a_template_again_once_it_is_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Sweeps are remembered by the template's definition: an edit must be swept afresh, both ways.
    bank_file = tmp_path / "capacity.yaml"
    bank_file.write_text(_capacity(model="llama3_8b", gpu="h200_sxm"), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 0
    bank_file.write_text(_capacity(model="llama31_405b", gpu="h200_sxm"), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", str(tmp_path)]) == 1
    assert "capacity-on-one-gpu" in capsys.readouterr().out
    bank_file.write_text(_capacity(model="llama3_8b", gpu="h200_sxm"), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 0


def test_validate_catches_a_draw_that_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The weights alone do not fit: no draw is one an interviewer would pose, the file and line named.
    (tmp_path / "capacity.yaml").write_text(_capacity(model="llama31_405b", gpu="l4"), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "capacity.yaml:12: [capacity-on-one-gpu]" in out
    assert "Llama-3.1-405B does not fit on 1 × NVIDIA L4 24GB" in out


def test_validate_catches_a_unit_of_the_wrong_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (BROKEN / "unknown-checklist.yaml").read_text(encoding="utf-8")
    fixed = text.replace("kv-caches  # ERROR checklist", "kv-cache").replace("unit: KiB", "unit: ms")
    (tmp_path / "wrong-unit.yaml").write_text(
        fixed.replace("broken-one", "kv-in-milliseconds"), encoding="utf-8"
    )
    assert main(["validate", str(tmp_path)]) == 1
    assert "the answer is a size in bytes (B) but unit 'ms' is a time" in capsys.readouterr().out


def test_sample_prints_prompt_answer_range_slips_and_derivation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "kv-bytes-per-token", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for part in (
        "kv-bytes-per-token · numeric · kv-cache",
        "Answer: ",
        "Accepted: ",
        "Slips:",
        "Derivation:",
    ):
        assert part in out


def test_sample_of_an_unknown_template_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "kv-bytes-per-tokn"]) == 1
    assert "did you mean 'kv-bytes-per-token'" in capsys.readouterr().out


def test_coverage_lists_items_slips_and_pools(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    assert all(item.id in out for item in load_checklist())
    assert "Slips per numeric template:" in out and "symptoms: " in out


def test_coverage_counts_templates_per_topic_tag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    section = out.split("Templates per topic tag")[1].split("\n\n")[0]
    counts = {line.split()[0]: line.split()[1] for line in section.strip().splitlines()[1:]}
    tagged = [t for t in load_bank().templates if "tensor-parallel" in t.topics]
    assert int(counts["tensor-parallel"]) == len(tagged) > 0
    choices = sum(t.kind == "choice" for t in load_bank().templates if "mla" in t.topics)
    mla = next(line for line in section.splitlines() if line.split()[0] == "mla")
    assert f"choice {choices}" in mla and choices > 0


def test_module_runs_as_a_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "question_bank", "validate", str(BROKEN / "empty.yaml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "empty.yaml:1: the file is empty" in result.stdout
