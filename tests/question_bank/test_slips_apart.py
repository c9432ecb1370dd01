"""A question tests its concept: a declared slip is not graded right, in a template or a scenario."""

from __future__ import annotations

from pathlib import Path

from grader import grade
from grader.units import format_quantity
from question_bank import load_bank
from question_bank.generation import generate
from question_bank.generation_checks import sweep_issues

# Batch 1 in half the draws: there "forgot the batch" is the right answer.
BATCH = """templates:
  - id: my-kv-batch
    checklist: kv-cache
    kind: numeric
    difficulty: 1
    title: KV of a batch
    prompt: "How many bytes of KV cache do {batch} sequences of {seq} tokens take at {per_token} B a token?"
    params:
      batch: {choice: [1, 1, 1, 4]}
      seq: {choice: [1024, 2048]}
      per_token: {choice: [131072]}
    answer:
      call: kv_cache_bytes
      with: {n_layers: 1, n_kv_heads: 1, head_dim: per_token, bytes_per_element: 1, seq_len: seq,
             batch_size: batch}
      unit: GB
    slips:
      - name: forgot-batch
        with: {batch_size: 1}
        diagnosis: You sized one sequence; every sequence in the batch has its own cache.
    explanation: Per token times tokens times sequences.
    references: [kipply]
"""


def test_a_single_template_never_draws_its_slip_inside_the_band(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(BATCH, encoding="utf-8")
    template = load_bank([tmp_path], include_shipped=False).get("my-kv-batch")
    for seed in range(40):
        problem = generate(template, seed)
        assert problem.params["batch"] == 4
        (slip,) = problem.slips
        verdict = grade(problem, format_quantity(slip.value, problem.unit))
        assert not verdict.correct and verdict.diagnosis == "forgot-batch"


def test_a_scenario_whose_slip_is_graded_right_too_often_is_refused_at_its_line(tmp_path: Path) -> None:
    shipped = (Path(__file__).parents[2] / "question_bank/data/questions/scenarios/latency.yaml").read_text(
        encoding="utf-8"
    )
    # The long-context scenario at batch 1 again: "ignored the batch" is then the right answer.
    start = shipped.index("  - id: scenario-long-context-kv\n")
    end = shipped.find("\n  - id: ", start + 10)
    block = shipped[start : end if end > 0 else len(shipped)]
    block = block.replace("scenario-long-context-kv", "my-long-context").replace("[2, 4, 8]", "[1, 1, 2]")
    (tmp_path / "mine.yaml").write_text("templates:\n" + block + "\n", encoding="utf-8")
    (issue,) = sweep_issues(load_bank([tmp_path], include_shipped=False))
    assert "ignored-batch" in issue.message and "graded right" in issue.message
    lines = ("templates:\n" + block).splitlines()
    assert "- name: ignored-batch" in lines[issue.line - 1]
