"""What an expert would not sign in the shipped bank, counted over draws: conventions, margins, slips, draws.

Every numeric template is drawn on ``--seeds`` seeds (300) and every scenario on ``--scenario-seeds``
(150). For each draw it counts:

- ``gib-refused``: the answer with the GPU's memory read as GiB lies beyond the band and is graded wrong;
- ``embedding-refused``: the same for the answer that leaves the input-embedding table out of the bytes
  read (timed answers and bytes read; not capacities, where the table still takes memory);
- ``decision-no-margin``: a computed choice whose two sides lie within 10 % of each other;
- ``decision-flips``: a computed choice that a convention's reading turns the other way;
- ``slip-inside-band``: a declared slip that lies inside the answer's band (graded right), per slip;
- ``count-not-whole``: a count in a scenario step whose nearest whole number is refused;
- ``model-does-not-fit``: the weights plus one sequence's KV exceed the chips' memory;
- ``context-over-maximum``: a context beyond the model's maximum;
- ``context-over-window``: a sliding-window model drawn at a context beyond its window;
- ``heads-do-not-divide``: query heads (or KV heads, unless replicated) that the tensor-parallel degree
  does not divide;
- ``tp-over-pcie``: several chips on a part without an NVLink-class link, the prompt not saying PCIe;
- ``bf16-without-bf16``: a prompt in bf16 on a V100 or T4;
- ``a10g-compute``: an answer that rests on the A10G's unverified peak;
- ``allreduce-without-hop-latency``: an answer that times an all-reduce with no per-hop latency;
- ``unbound-recompute``: a scenario step that works an earlier step's answer out again without carrying
  it (per draw, so a coincidence of two equal quantities counts too);
- ``kv-under-compute``: an answer that refuses the scaling book's decode step, KV/BW + max(W/BW,
  2PB/peak), re-solved here from the call's arguments (the KV read hidden under the matmuls' FLOPs).

It reads only what the bank has had all along (``generate``, ``draw_values``, ``derived_values``,
``grade``), so it runs on an older checkout too; the maximum contexts come from the presets where they
have them, else from the table below (the same figures, from each model's config.json or paper).

    .venv/bin/python benchmarks/bank_truth_audit.py [--seeds N] [--scenario-seeds N] [--only ID ...]
        [--json OUT]
    .venv/bin/python benchmarks/bank_truth_audit.py --compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import is_dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import grade  # noqa: E402
from grader.diagnosis import band, within  # noqa: E402
from grader.units import format_quantity  # noqa: E402
from question_bank import generate, load_bank  # noqa: E402
from question_bank.answer_extras import rebound_value  # noqa: E402
from question_bank.bindings import derived_values, resolve  # noqa: E402
from question_bank.generation import draw_values  # noqa: E402
from question_bank.params import PresetParam  # noqa: E402
from question_bank.scenarios import generate_scenario, step_view  # noqa: E402
from question_bank.templates import ChoiceTemplate, NumericTemplate  # noqa: E402

GIB = 2**30 / 1e9
#: Maximum context and sliding window by preset id, for presets that do not carry them (config.json:
#: max_position_embeddings and sliding_window; Falcon's model card; GPT-3's paper).
MAX_CONTEXT = {
    "llama2_7b": 4096, "llama2_13b": 4096, "llama2_70b": 4096, "llama3_8b": 8192, "llama3_70b": 8192,
    "llama31_405b": 131072, "mistral_7b": 32768, "mixtral_8x7b": 32768, "falcon_40b": 2048,
    "qwen25_7b": 131072, "gemma2_9b": 8192, "gpt3_175b": 2048,
}  # fmt: skip
WINDOW = {"mistral_7b": 4096, "gemma2_9b": 4096}
CONTEXT_NAMES = ("context", "seq_len", "seq", "max_len", "context_len")
CHIP_NAMES = ("chips", "n_chips", "n_gpus", "tp")
COUNT_CALLS = frozenset(
    {"kv_capacity_tokens", "max_batch_size", "max_batch_at_context", "tensor_parallel_kv_capacity_tokens",
     "contiguous_kv_requests_fit", "paged_kv_requests_fit"}
)  # fmt: skip
MARGIN = 0.10


def _changed(preset: Any, **changes: Any) -> Any:
    if is_dataclass(preset) and not isinstance(preset, type):
        return replace(preset, **changes)
    return preset.model_copy(update=changes)


def _presets(view: Any, kind: str) -> list[str]:
    return [n for n, s in view.params.items() if isinstance(s, PresetParam) and s.preset == kind]


def _gib(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {n: _changed(values[n], memory_bytes=values[n].memory_bytes * GIB) for n in names}


def _faster(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        n: _changed(values[n], mem_bandwidth=2 * values[n].mem_bandwidth, peak_flops=2 * values[n].peak_flops)
        for n in names
    }


def _peak(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {n: _changed(values[n], peak_flops=2 * values[n].peak_flops) for n in names}


def _no_table(values: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    out = {}
    for n in names:
        model = values[n]
        table = 0 if model.tied_embeddings else model.vocab_size * model.d_model
        out[n] = _changed(model, n_params=model.n_params - table)
        if getattr(model, "n_active_params", None) is not None:
            out[n] = _changed(out[n], n_active_params=model.n_active_params - table)
    return out


def _again(view: Any, values: Mapping[str, Any], swapped: Mapping[str, Any]) -> dict[str, Any]:
    return derived_values(view, {**values, **swapped})


def _answer(view: NumericTemplate, values: Mapping[str, Any]) -> float:
    return rebound_value(view.answer, view.answer, values, 0.0)


def _differs(a: float, b: float) -> bool:
    return math.isfinite(a) and abs(a - b) > 1e-9 * max(abs(b), 1e-300)


def readings(view: Any, values: Mapping[str, Any], answer: float) -> dict[str, dict[str, Any]]:
    """The values a convention gives (by convention), for a numeric view; both rules as the text above."""
    hardware, models = _presets(view, "hardware"), _presets(view, "models")
    found: dict[str, dict[str, Any]] = {}
    capacity = False
    if hardware:
        gib = _again(view, values, _gib(values, hardware))
        capacity = _differs(_answer(view, gib), answer)
        if capacity:
            found["gib"] = gib
    if models and not capacity:
        timed = bool(hardware) and _differs(
            _answer(view, _again(view, values, _faster(values, hardware))), answer
        )
        if timed or view.answer.call == "moe_decode_weight_bytes":
            found["embedding"] = _again(view, values, _no_table(values, models))
    return found


def views(bank: Any) -> Iterator[tuple[str, Any, Any, int | None]]:
    """(label, owner, view, step index or None) for every template and every scenario step."""
    for template in bank.templates:
        yield template.id, template, template, None
    for scenario in bank.scenarios:
        for index, step in enumerate(scenario.steps):
            yield f"{scenario.id}/{step.id}", scenario, step_view(scenario, index), index


def _drawn(view: Any, seed: int, *, shared: bool) -> dict[str, Any]:
    """A view's values; a scenario step's as the scenario draws them (its steps share one draw)."""
    if shared:
        try:
            return draw_values(view, seed, slips_apart=False)
        except TypeError:  # a bank from before single templates kept their slips apart
            pass
    return draw_values(view, seed)


def _value(values: Mapping[str, Any], names: tuple[str, ...]) -> float | None:
    found = [float(values[n]) for n in names if n in values and isinstance(values[n], int | float)]
    return max(found) if found else None


def _bf16_kv_per_token(model: Any) -> float:
    """bf16 KV bytes per token: a latent-attention (MLA) model caches its latent and RoPE key per layer."""
    rank = getattr(model, "kv_lora_rank", None)
    if rank:
        return 2 * model.n_layers * (rank + (getattr(model, "qk_rope_head_dim", None) or 0))
    return 2 * model.n_layers * model.n_kv_heads * model.head_dim * 2


def _bound_bytes_per_param(view: Any, model: str) -> float:
    """A literal bytes_per_param bound beside ``model``'s n_params anywhere in ``view``, else 2 (bf16)."""
    pending: list[Any] = [view.model_dump(by_alias=True)]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            per_param = node.get("bytes_per_param")
            if node.get("n_params") == f"{model}.n_params" and isinstance(per_param, int | float):
                return float(per_param)
            pending.extend(node.values())
        elif isinstance(node, list | tuple):
            pending.extend(node)
    return 2.0


def draw_findings(view: Any, values: Mapping[str, Any], shown: Mapping[str, Any], text: str) -> list[str]:
    """Which of the draw findings this draw has (the model, context, chips and dtype it drew)."""
    found: list[str] = []
    models, hardware = _presets(view, "models"), _presets(view, "hardware")
    chips = int(_value(values, CHIP_NAMES) or 1)
    context = _value(values, CONTEXT_NAMES)
    if "prompt" in values and isinstance(values["prompt"], int | float):
        context = max(context or 0, float(values["prompt"]) + float(values.get("output", 0) or 0))
    # Only a question that serves the model (its weights count, or it is split over chips) must fit it.
    chip_param = any(name in view.params for name in CHIP_NAMES)
    serves = chip_param or "n_params" in view.model_dump_json(warnings=False)
    for m in models:
        model, model_id = values[m], str(shown.get(m, ""))
        limit = getattr(model, "max_context_tokens", None) or MAX_CONTEXT.get(model_id)
        window = getattr(model, "sliding_window_tokens", None) or WINDOW.get(model_id)
        if context is not None and limit and context > limit:
            found.append("context-over-maximum")
        if context is not None and window and context > window:
            found.append("context-over-window")
        if chips > 1 and (model.n_heads % chips or (model.n_kv_heads % chips and chips % model.n_kv_heads)):
            found.append("heads-do-not-divide")
        for h in hardware:
            gpu = values[h]
            wbytes = next(
                (values[n].bytes for n in ("wdtype", "dtype") if n in values and hasattr(values[n], "bytes")),
                _bound_bytes_per_param(view, m),
            )
            kv = _bf16_kv_per_token(model) * (context or 0)
            if serves and model.n_params * wbytes + kv > chips * gpu.memory_bytes:
                found.append("model-does-not-fit")
    for h in hardware:
        gpu_id, gpu = str(shown.get(h, "")), values[h]
        link = getattr(gpu, "interconnect", None) or ""
        if chips > 1 and (not link or "PCIe" in link) and "PCIe" not in text:
            found.append("tp-over-pcie")
        if gpu_id in ("v100_sxm2", "t4") and "bf16" in text:
            found.append("bf16-without-bf16")
    return found


# --- the scaling book's decode step, re-solved independently of the estimator -----------------------


def _book_step(p: float, b: float, bw: float, peak: float, tokens: float, kv: float, chips: float) -> float:
    """KV/BW + max(W/BW, 2·P·tokens/peak), over ``chips`` (the scaling book's decode step)."""
    return kv / (chips * bw) + max(p * b / (chips * bw), 2 * p * tokens / (chips * peak))


def _book_tpot(*, n_params: float, bytes_per_param: float, mem_bandwidth: float, peak_flops: float,
               batch_size: int = 1, context_len: int = 0, kv_bytes_per_token: float = 0.0,
               n_chips: int = 1) -> float:  # fmt: skip
    kv = batch_size * context_len * kv_bytes_per_token
    return _book_step(n_params, bytes_per_param, mem_bandwidth, peak_flops, batch_size, kv, n_chips)


def _book_decode(*, n_params: float, bytes_per_param: float, mem_bandwidth: float, peak_flops: float,
                 batch_size: int = 1, kv_cache_bytes: float = 0.0, n_chips: int = 1) -> float:  # fmt: skip
    kv = kv_cache_bytes
    return _book_step(n_params, bytes_per_param, mem_bandwidth, peak_flops, batch_size, kv, n_chips)


def _book_chunked(*, chunk_tokens: int, decode_batch: int, context_len: int = 0,
                  kv_bytes_per_token: float = 0.0, **rest: Any) -> float:  # fmt: skip
    kv = decode_batch * context_len * kv_bytes_per_token
    tokens = chunk_tokens + decode_batch
    return _book_step(rest["n_params"], rest["bytes_per_param"], rest["mem_bandwidth"],
                      rest["peak_flops"], tokens, kv, rest.get("n_chips", 1))  # fmt: skip


def _book_verify(*, batch_size: int, n_draft: int, context_len: int = 0, kv_bytes_per_token: float = 0.0,
                 **rest: Any) -> float:  # fmt: skip
    kv = batch_size * context_len * kv_bytes_per_token
    return _book_step(rest["n_params"], rest["bytes_per_param"], rest["mem_bandwidth"], rest["peak_flops"],
                      batch_size * (n_draft + 1), kv, rest.get("n_chips", 1))  # fmt: skip


def _book_tp(**a: Any) -> float:
    from grader.estimator import FUNCTIONS as F

    n, bw = a["n_chips"], a["mem_bandwidth"]
    kv = a.get("batch_size", 1) * a.get("context_len", 0) * a.get("kv_bytes_per_token", 0.0)
    kv_chip = kv / min(n, a["n_kv_heads"])
    comm = F["tensor_parallel_comm_time"](
        n_layers=a["n_layers"], d_model=a["d_model"], n_chips=n, link_bandwidth=a["link_bandwidth"],
        batch_size=a.get("batch_size", 1), activation_bytes=a.get("activation_bytes", 2.0),
        **({"hop_latency": a["hop_latency"]} if "hop_latency" in a else {}),
    )  # fmt: skip
    weights = a["n_params"] * a["bytes_per_param"] / n
    compute = 2 * a["n_params"] * a.get("batch_size", 1) / (n * a["peak_flops"])
    return kv_chip / bw + max(weights / bw, compute) + comm


def _book_latency(**a: Any) -> float:
    from grader.estimator import FUNCTIONS as F

    ttft = F["time_to_first_token"](
        n_params=a["n_params"], prompt_tokens=a["prompt_tokens"], peak_flops=a["peak_flops"],
        mem_bandwidth=a["mem_bandwidth"], bytes_per_param=a["bytes_per_param"],
        batch_size=a.get("batch_size", 1), n_chips=a.get("n_chips", 1), mfu=a.get("mfu", 1.0),
    )  # fmt: skip
    b, n, p = a.get("batch_size", 1), a.get("n_chips", 1), a["prompt_tokens"]
    steps = range(p + 1, p + a["output_tokens"])
    kv = a.get("kv_bytes_per_token", 0.0)
    return ttft + sum(
        _book_step(a["n_params"], a["bytes_per_param"], a["mem_bandwidth"], a["peak_flops"], b, b * c * kv, n)
        for c in steps
    )


#: Each decode-step call of the estimator, re-solved in the book's form.
BOOK_FORMS: dict[str, Callable[..., float]] = {
    "time_per_output_token": _book_tpot,
    "decode_step_time": _book_decode,
    "chunked_prefill_step_time": _book_chunked,
    "speculative_verify_step_time": _book_verify,
    "tensor_parallel_decode_step_time": _book_tp,
    "request_latency": _book_latency,
}
#: Where the estimator's other functions call a decode step by module name.
BOOK_MODULES: dict[str, dict[str, Callable[..., float]]] = {
    "grader.estimator.quantization": {"time_per_output_token": _book_tpot},
    "grader.estimator.speculative_batch": {
        "time_per_output_token": _book_tpot,
        "speculative_verify_step_time": _book_verify,
    },
    "grader.estimator.serving": {"time_per_output_token": _book_tpot},
}


@contextlib.contextmanager
def book_forms() -> Iterator[None]:
    """The estimator with every decode step in the book's form, for as long as the block runs."""
    import importlib

    from grader.estimator import FUNCTIONS as F

    saved_functions = {name: F[name] for name in BOOK_FORMS if name in F}
    saved_modules: list[tuple[Any, str, Any]] = []
    try:
        F.update({name: form for name, form in BOOK_FORMS.items() if name in F})
        for module_name, forms in BOOK_MODULES.items():
            module = importlib.import_module(module_name)
            for name, form in forms.items():
                if hasattr(module, name):
                    saved_modules.append((module, name, getattr(module, name)))
                    setattr(module, name, form)
        yield
    finally:
        F.update(saved_functions)
        for module, name, original in saved_modules:
            setattr(module, name, original)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--scenario-seeds", type=int, default=150)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", nargs="+", default=[], metavar="ID", help="these templates or scenarios")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--coverage", action="store_true", help="what the draws cover, per checklist item")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if args.coverage:
        coverage(args.seeds, args.scenario_seeds)
        return
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    bank = load_bank()
    scenario_problems: dict[tuple[str, int], Any] = {}
    for label, owner, view, index in views(bank):
        if args.only and owner.id not in args.only:
            continue
        n = args.seeds if index is None else args.scenario_seeds
        for seed in range(n):
            values = _drawn(view, seed, shared=index is not None)
            if index is None:
                problem = generate(view, seed)
                text = problem.prompt
            else:
                key = (owner.id, seed)
                if key not in scenario_problems:
                    scenario_problems = {key: generate_scenario(owner, seed)}
                whole = scenario_problems[key]
                problem = whole.steps[index]
                text = whole.setup + " " + " ".join(step.prompt for step in whole.steps)
            if index == 0:
                for step_id in unbound_steps(whole):
                    counts["unbound-recompute"][f"{owner.id}/{step_id}"] += 1
            if index in (None, 0):
                shown = problem.params
                for finding in dict.fromkeys(draw_findings(view, values, shown, text)):
                    counts[finding][owner.id] += 1
                hardware = _presets(view, "hardware")
                on_a10g = any(str(shown.get(h)) == "a10g" for h in hardware)
                if (
                    on_a10g
                    and isinstance(view, NumericTemplate)
                    and _differs(_answer(view, _again(view, values, _peak(values, hardware))), problem.answer)
                ):
                    counts["a10g-compute"][owner.id] += 1
            if isinstance(view, NumericTemplate) and problem.answer is not None:
                _numeric(counts, label, view, values, problem, index)
            elif isinstance(view, ChoiceTemplate) and view.decide is not None:
                _decision(counts, label, view, values)
    out = {"seeds": args.seeds, "scenario_seeds": args.scenario_seeds, "counts": counts}
    text = json.dumps(out, indent=1, sort_keys=True)
    if args.json:
        args.json.write_text(text, encoding="utf-8")
    for finding, per in sorted(counts.items()):
        print(f"{finding}: {sum(per.values())} draws in {len(per)} templates")
        for owner, count in per.most_common(12):
            print(f"    {owner:<55} {count}")


#: The calls whose answer includes an all-reduce's time.
COMM_CALLS = frozenset({"allreduce_time", "tensor_parallel_comm_time", "tensor_parallel_decode_step_time"})


def unbound_steps(whole: Any) -> list[str]:
    """The steps of one scenario draw that work an earlier step's answer out again without carrying it.

    The earlier step's whole working folded into the later one ("found in step K"), or a line whose value
    equals the earlier answer, in a step whose follow-through carries nothing from step K.
    """
    found = []
    for step in whole.steps:
        carried = {c.step for c in step.dependency.carries} if step.dependency else set()
        if getattr(step, "decision", None) is not None:
            carried |= {c.step for c in step.decision.carries}
        lines = list(step.derivation)
        folded = {
            int(line.label.split()[1].rstrip(":"))
            for line in lines
            if line.formula.startswith("found in step ")
        }
        values = [line.value for line in lines if not line.formula.startswith("found in step ")]
        again = folded - carried
        for earlier in whole.steps[: step.step - 1]:
            if earlier.answer is None or earlier.step in carried or earlier.kind.value != "numeric":
                continue
            if any(v and abs(v - earlier.answer) <= 1e-9 * abs(earlier.answer) for v in values):
                again.add(earlier.step)
        if again:
            found.append(step.step_id)
    return found


def _numeric(counts: Any, label: str, view: NumericTemplate, values: Any, problem: Any, index: Any) -> None:
    answer = problem.answer
    if view.answer.call in COMM_CALLS:
        hop = view.answer.with_.get("hop_latency")
        if hop is None or not float(resolve(hop, values)):
            counts["allreduce-without-hop-latency"][label] += 1
    exact = band(answer, problem.tolerance, problem.unit)
    for name, again in readings(view, values, answer).items():
        value = _answer(view, again)
        if not within(value, exact) and not grade(problem, format_quantity(value, problem.unit)).correct:
            counts[f"{name}-refused"][label] += 1
    with book_forms():
        book = _answer(view, _again(view, values, {}))
    if not within(book, exact) and not grade(problem, format_quantity(book, problem.unit)).correct:
        counts["kv-under-compute"][label] += 1
    for slip in view.slips:
        value = rebound_value(slip, view.answer, values, answer)
        if math.isfinite(value) and within(value, exact):
            counts["slip-inside-band"][f"{label} [{slip.name}]"] += 1
    if index is not None and view.answer.call in COUNT_CALLS and len(problem.derivation) >= 2:
        unrounded = problem.derivation[-2].value
        nearest = round(unrounded)
        labelled = "unrounded" in problem.derivation[-2].label
        if labelled and nearest != answer and not grade(problem, str(nearest)).correct:
            counts["count-not-whole"][label] += 1


def _decision(counts: Any, label: str, view: ChoiceTemplate, values: Any) -> None:
    decide = view.decide
    assert decide is not None
    lhs, rhs = float(resolve(decide.lhs, values)), float(resolve(decide.rhs, values))
    if rhs and abs(lhs - rhs) < MARGIN * abs(rhs):
        counts["decision-no-margin"][label] += 1
    hardware, models = _presets(view, "hardware"), _presets(view, "models")
    for swap in (_gib(values, hardware) if hardware else None, _no_table(values, models) if models else None):
        if swap is None:
            continue
        again = _again(view, values, swap)
        a, b = float(resolve(decide.lhs, again)), float(resolve(decide.rhs, again))
        if (a < b) != (lhs < rhs):
            counts["decision-flips"][label] += 1
            break


def coverage(seeds: int, scenario_seeds: int) -> None:
    """Per checklist item: templates, distinct prompts per template (median), models and parts drawn."""
    bank = load_bank()
    rows: dict[str, dict[str, Any]] = collections.defaultdict(
        lambda: {"templates": 0, "prompts": [], "models": set(), "hardware": set()}
    )
    for owner in [*bank.templates, *bank.scenarios]:
        row = rows[owner.checklist]
        row["templates"] += 1
        scenario = not isinstance(owner, NumericTemplate | ChoiceTemplate) and hasattr(owner, "steps")
        view = step_view(owner, 0) if scenario else owner
        prompts = set()
        for seed in range(scenario_seeds if scenario else seeds):
            problem = generate_scenario(owner, seed) if scenario else generate(owner, seed)
            prompts.add(problem.setup if scenario else problem.prompt)
            for kind in ("models", "hardware"):
                row[kind] |= {str(problem.params[n]) for n in _presets(view, kind)}
        row["prompts"].append(len(prompts))
    print("| checklist item | templates | distinct prompts (median) | models drawn | parts drawn |")
    print("|---|---:|---:|---:|---:|")
    for item, row in sorted(rows.items()):
        median = sorted(row["prompts"])[len(row["prompts"]) // 2]
        print(f"| {item} | {row['templates']} | {median} | {len(row['models'])} | {len(row['hardware'])} |")


def compare(before_path: Path, after_path: Path) -> None:
    before, after = (json.loads(p.read_text(encoding="utf-8")) for p in (before_path, after_path))
    print(f"Draws: {before['seeds']} per template, {before['scenario_seeds']} per scenario.\n")
    print("| finding | before | after |\n|---|---:|---:|")
    for finding in sorted(set(before["counts"]) | set(after["counts"])):
        b = sum(before["counts"].get(finding, {}).values())
        a = sum(after["counts"].get(finding, {}).values())
        print(f"| {finding} | {b} | {a} |")
    print("\n| finding | template or step | before | after |\n|---|---|---:|---:|")
    for finding in sorted(set(before["counts"]) | set(after["counts"])):
        rows = set(before["counts"].get(finding, {})) | set(after["counts"].get(finding, {}))
        for row in sorted(rows):
            b = before["counts"].get(finding, {}).get(row, 0)
            a = after["counts"].get(finding, {}).get(row, 0)
            print(f"| {finding} | {row} | {b} | {a} |")


if __name__ == "__main__":
    main()
