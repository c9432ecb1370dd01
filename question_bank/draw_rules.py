"""Draws an interviewer would pose: rules every draw meets, or it is drawn again.

What a template's parameters mean is read from how they are bound: a parameter passed as a context
(``context_len``, ``seq_len``, ``max_seq_len``, or ``prompt_tokens`` plus ``output_tokens``) is a context;
one passed as ``n_chips`` is the tensor-parallel degree. On that reading, every draw:

- keeps each model within its maximum context (``max_context_tokens``), and a sliding-window model
  within its window (``sliding_window_tokens``): the KV formulas count every token, which the window
  would cap;
- splits heads evenly: the degree divides the query heads, and divides the KV heads or is a multiple
  of them (the KV heads are then replicated, as the bank teaches);
- puts tensor parallelism on an NVLink-class link, unless the prompt says PCIe;
- asks for bf16 only on a part that has it (V100 and T4 have fp16 only); computes in fp8 only on a
  part with FP8 tensor cores (not A100, A10, V100, T4 or TPU v5e) and in int8 only on a part with INT8
  tensor math (not V100). A format only stored is allowed on any part: a format bound only as
  ``bytes_per_param`` (weights, converted to 16-bit before the matmul: W8A16) or as the
  ``bytes_per_element`` of a KV-cache function (a call named for ``kv``) is storage; one bound any
  other way (a matmul's elements, a peak or time it selects) or only named in the prompt is computed in;
- keeps a part whose dense peak is unverified (``peak_verified: false``) out of any question that
  uses the peak;
- fits the model: its weights plus one sequence's bf16 KV cache at the drawn context within the
  chips' memory, wherever the weights or the chips enter the question;
- never computes standard KV or attention shapes for a latent-attention model (DeepSeek-V3): a
  template that reads a model's ``n_kv_heads`` or ``head_dim`` (in a binding or its prompt) draws no
  model with ``kv_lora_rank``, whose cache is layers · (kv_lora_rank + qk_rope_head_dim), computed
  by ``mla_kv_bytes_per_token``.

Presets without these fields (a test's small catalog) are not held to the rules that need them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from question_bank.params import CallParam, PresetParam
from question_bank.templates import NumericTemplate, Template

CONTEXT_KEYWORDS = frozenset({"context_len", "seq_len", "max_seq_len"})
#: A format bound here is only stored: weights are converted to 16-bit before the matmul they feed.
STORAGE_KEYWORDS = frozenset({"bytes_per_param"})
#: A model's fields that shape standard (multi-head or grouped-query) K and V: what MLA replaces.
STANDARD_KV_FIELDS = ("n_kv_heads", "head_dim")


@dataclass(frozen=True)
class DrawRules:
    """What the rules need to know of one template, read once from its bindings."""

    models: tuple[str, ...]
    hardware: tuple[str, ...]
    contexts: tuple[tuple[str, ...], ...]  # each a sum of params: one context
    chips: tuple[str, ...]
    says_pcie: bool
    says_bf16: bool
    dtypes: tuple[str, ...]
    uses_peak: tuple[str, ...]  # hardware params whose peak_flops is bound somewhere
    weight_bytes: Mapping[str, Any]  # model param -> the bytes per parameter bound with its n_params
    serves: tuple[str, ...]  # model params whose weights, or the chips, enter the question
    standard_kv: tuple[str, ...] = ()  # model params whose n_kv_heads or head_dim the question reads
    compute_dtypes: tuple[str, ...] = ()  # dtype params the matmuls compute in (not storage only)


def _calls(template: Template) -> Iterator[Mapping[str, Any]]:
    for _, bindings in _named_calls(template):
        yield bindings


def _named_calls(template: Template) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for spec in template.params.values():
        if isinstance(spec, CallParam):
            yield spec.call, spec.with_
    if isinstance(template, NumericTemplate):
        yield template.answer.call, template.answer.with_


def _stores(call: str, keyword: str) -> bool:
    """Whether a format bound as ``keyword`` of estimator ``call`` is only stored, not computed in."""
    return keyword in STORAGE_KEYWORDS or (keyword == "bytes_per_element" and "kv" in call.split("_"))


def _compute_dtypes(template: Template, dtypes: tuple[str, ...]) -> tuple[str, ...]:
    uses: dict[str, list[bool]] = {d: [] for d in dtypes}
    for call, bindings in _named_calls(template):
        for keyword, value in bindings.items():
            for item in value if isinstance(value, tuple) else (value,):
                holder = item.partition(".")[0] if isinstance(item, str) else None
                if holder in uses:
                    uses[holder].append(_stores(call, keyword))
    return tuple(d for d, stored in uses.items() if not (stored and all(stored)))


#: Rules by the template object they were read from (kept, so its id is not reused).
_RULES: dict[int, tuple[Template, DrawRules]] = {}
_RULES_LIMIT = 4096


def rules_of(template: Template) -> DrawRules:
    """The rules ``template``'s draws are held to."""
    held = _RULES.get(id(template))
    if held is not None and held[0] is template:
        return held[1]
    if len(_RULES) >= _RULES_LIMIT:
        _RULES.clear()
    rules = _read_rules(template)
    _RULES[id(template)] = (template, rules)
    return rules


def _read_rules(template: Template) -> DrawRules:
    presets = {n: s.preset for n, s in template.params.items() if isinstance(s, PresetParam)}
    models = tuple(n for n, kind in presets.items() if kind == "models")
    hardware = tuple(n for n, kind in presets.items() if kind == "hardware")
    contexts: list[tuple[str, ...]] = []
    chips: set[str] = set()
    uses_peak: set[str] = set()
    weight_bytes: dict[str, Any] = {}
    for bindings in _calls(template):
        bare = {k: v for k, v in bindings.items() if isinstance(v, str) and "." not in v}
        contexts += [(v,) for k, v in bare.items() if k in CONTEXT_KEYWORDS]
        if "prompt_tokens" in bare:
            contexts.append(tuple(bare[k] for k in ("prompt_tokens", "output_tokens") if k in bare))
        chips |= {v for k, v in bare.items() if k == "n_chips"}
        uses_peak |= {
            v.partition(".")[0] for v in bindings.values() if isinstance(v, str) and v.endswith(".peak_flops")
        }
        for model in models:
            if bindings.get("n_params") == f"{model}.n_params":
                weight_bytes.setdefault(model, bindings.get("bytes_per_param", 2))
    text = template.prompt
    read = {v for bindings in _calls(template) for v in _bound_paths(bindings)}
    standard_kv = tuple(
        m
        for m in models
        if any(f"{m}.{f}" in read or re.search(rf"\{{{m}\.{f}\b", text) for f in STANDARD_KV_FIELDS)
    )
    dtypes = tuple(n for n, s in template.params.items() if getattr(s, "dtype", None) is not None)
    serves = tuple(m for m in models if m in weight_bytes or chips)
    return DrawRules(
        models=models,
        hardware=hardware,
        contexts=tuple(dict.fromkeys(contexts)),
        chips=tuple(sorted(chips)),
        says_pcie="PCIe" in text,
        says_bf16="bf16" in text,
        dtypes=dtypes,
        uses_peak=tuple(sorted(uses_peak & set(hardware))),
        weight_bytes=weight_bytes,
        serves=serves,
        standard_kv=standard_kv,
        compute_dtypes=_compute_dtypes(template, dtypes),
    )


def _bound_paths(bindings: Mapping[str, Any]) -> Iterator[str]:
    for value in bindings.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                yield item


#: Number formats a part may lack: (dtype name, the Accelerator property that says it exists, what).
_FORMATS = (("fp8", "has_fp8", "FP8 tensor cores"), ("int8", "has_int8", "INT8 tensor math"))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def draw_issue(rules: DrawRules, values: Mapping[str, Any]) -> str | None:
    """Which rule this draw breaks (a phrase), or None."""
    contexts = [sum(_number(values.get(n)) or 0.0 for n in group) for group in rules.contexts]
    context = max(contexts, default=0.0)
    chips = int(max((_number(values.get(n)) or 1 for n in rules.chips), default=1))
    for name in rules.models:
        model = values[name]
        limit, window = (
            getattr(model, "max_context_tokens", None),
            getattr(model, "sliding_window_tokens", None),
        )
        if limit and context > limit:
            return f"a context of {context:,.0f} beyond {model.name}'s {limit:,}"
        if window and context > window:
            return f"a context of {context:,.0f} beyond {model.name}'s sliding window of {window:,}"
        if name in rules.standard_kv and getattr(model, "kv_lora_rank", None):
            return f"{model.name}'s latent attention (MLA) in a question that reads standard KV heads"
        heads, kv_heads = getattr(model, "n_heads", 1), getattr(model, "n_kv_heads", 1)
        if chips > 1 and (heads % chips or (kv_heads % chips and chips % kv_heads)):
            return f"{heads} query and {kv_heads} KV heads split over {chips} chips"
    for name in rules.hardware:
        gpu = values[name]
        link = getattr(gpu, "interconnect", "") or ""
        if (
            chips > 1
            and hasattr(gpu, "interconnect")
            and (not link or "PCIe" in link)
            and not rules.says_pcie
        ):
            return f"tensor parallelism over {gpu.name}'s {link or 'missing link'}"
        named = {getattr(values[d], "name", "") for d in rules.dtypes}
        bf16 = rules.says_bf16 or "bf16" in named
        if bf16 and getattr(gpu, "bf16", True) is False:
            return f"bf16 on {gpu.name}, which has none"
        computed = {getattr(values[d], "name", "") for d in rules.compute_dtypes}
        for dtype, exists, what in _FORMATS:
            if dtype in computed and getattr(gpu, exists, True) is False:
                return f"{dtype} compute on {gpu.name}, which has no {what}"
        if name in rules.uses_peak and getattr(gpu, "peak_verified", True) is False:
            return f"{gpu.name}'s unverified peak in a question that uses it"
        for model_name in rules.serves:
            model = values[model_name]
            if not hasattr(model, "n_params") or not hasattr(gpu, "memory_bytes"):
                continue
            per_param = rules.weight_bytes.get(model_name, 2)
            if isinstance(per_param, str):
                holder, _, field = per_param.partition(".")
                per_param = getattr(values.get(holder), field, 2) if field else values.get(holder, 2)
            kv = bf16_kv_bytes_per_token(model)
            if model.n_params * float(per_param) + kv * context > chips * gpu.memory_bytes:
                return f"{model.name} does not fit on {chips} × {gpu.name}"
    return None


def bf16_kv_bytes_per_token(model: Any) -> float:
    """A sequence's bf16 KV bytes per token: the MLA latent and RoPE key, or 2 · K and V heads."""
    layers = getattr(model, "n_layers", 0)
    rank = getattr(model, "kv_lora_rank", None)
    if rank:
        return 2 * layers * (rank + (getattr(model, "qk_rope_head_dim", None) or 0))
    return 4 * layers * getattr(model, "n_kv_heads", 0) * getattr(model, "head_dim", 0)
