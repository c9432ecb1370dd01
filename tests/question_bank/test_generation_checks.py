"""Draws that fail: caught by ``validate``, left out (by name) by the app's bank, skipped at generation."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from bank_kit import ALWAYS_INFINITE

from question_bank import GenerationError, generate, load_bank
from question_bank.__main__ import main
from question_bank.generation_checks import (
    SMOKE_SEEDS,
    SWEEP_SEEDS,
    generate_checked,
    generate_scenario_checked,
    usable_bank,
)

# n_bytes is 0 on about 1 draw in 143 (0.7 %): seeds 0-19 all pass, a few hundred seeds do not.
RARE_ZERO = """templates:
  - id: rare-zero-bytes
    checklist: arithmetic-intensity
    kind: numeric
    difficulty: 1
    title: Rare zero
    prompt: "An op does {flops} FLOPs over {n_bytes} bytes. Its arithmetic intensity?"
    params:
      flops: {int: {low: 100, high: 1000}}
      n_bytes: {int: {low: 0, high: 142}}
    answer:
      call: arithmetic_intensity
      with: {flops: flops, n_bytes: n_bytes}
      unit: FLOP/B
    explanation: FLOPs over bytes.
    references: [Horace He]
"""


def _folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def test_the_rare_failure_hides_from_twenty_seeds(tmp_path: Path) -> None:
    # The premise of the sweep: the first 20 seeds, all the old check tried, pass.
    template = load_bank([_folder(tmp_path, rare=RARE_ZERO)]).get("rare-zero-bytes")
    for seed in SMOKE_SEEDS:
        generate(template, seed)
    failing = [seed for seed in SWEEP_SEEDS if _fails(template, seed)]
    assert failing and min(failing) >= len(SMOKE_SEEDS)


def _fails(template: object, seed: int) -> bool:
    try:
        generate(template, seed)  # type: ignore[arg-type]
    except ZeroDivisionError:
        return True
    return False


def test_validate_catches_a_failure_on_seven_draws_in_a_thousand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(_folder(tmp_path, rare=RARE_ZERO))]) == 1
    out = capsys.readouterr().out
    assert "[rare-zero-bytes]" in out and "ZeroDivisionError" in out


def test_validate_rejects_an_answer_that_is_not_finite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(_folder(tmp_path, inf=ALWAYS_INFINITE))]) == 1
    out = capsys.readouterr().out
    assert "[always-infinite] answer: seed 0: the answer is inf, not a finite number" in out


def test_the_apps_bank_leaves_out_what_validate_refuses_and_keeps_the_rest(tmp_path: Path) -> None:
    broken_file = "templates:\n  - id: half-written\n    checklist: kv-cache\n"
    folder = _folder(tmp_path, rare=RARE_ZERO, inf=ALWAYS_INFINITE, broken=broken_file)
    bank = usable_bank([folder])
    refused = {issue.template_id for issue in bank.refused}
    assert {"rare-zero-bytes", "always-infinite", "half-written"} <= refused
    assert not refused & set(bank.ids)
    shipped = load_bank()
    assert set(shipped.ids) <= set(bank.ids)  # the rest of the bank still works
    assert all("mine" in issue.file for issue in bank.refused)


def test_a_clean_bank_refuses_nothing() -> None:
    bank = usable_bank()
    assert bank.refused == () and bank.ids == load_bank().ids


def test_a_failing_draw_is_a_generation_error_naming_template_and_seed(tmp_path: Path) -> None:
    bank = load_bank([_folder(tmp_path, rare=RARE_ZERO, inf=ALWAYS_INFINITE)])
    rare = bank.get("rare-zero-bytes")
    seed = next(seed for seed in SWEEP_SEEDS if _fails(rare, seed))
    with pytest.raises(GenerationError, match=f"'rare-zero-bytes', seed {seed}: ZeroDivisionError"):
        generate_checked(rare, seed)
    assert math.isinf(generate(bank.get("always-infinite"), 3).answer or 0.0)
    with pytest.raises(GenerationError, match="not a finite number"):
        generate_checked(bank.get("always-infinite"), 3)


def test_a_scenario_draw_that_fails_is_a_generation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from question_bank import generation_checks

    scenario = load_bank().scenarios[0]
    assert generate_scenario_checked(scenario, 1).steps  # the shipped one draws fine

    def divide_by_zero(*_: object, **__: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(generation_checks, "generate_scenario", divide_by_zero)
    with pytest.raises(GenerationError, match=f"scenario '{scenario.id}', seed 1: ZeroDivisionError"):
        generate_scenario_checked(scenario, 1)
