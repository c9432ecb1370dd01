"""Loading bank files: YAML to validated templates and pools, with every mistake reported.

Each file is read safely (:mod:`question_bank.yaml_source`), each template validated on its own
against the schema (so one broken template does not hide the others' mistakes), then checked
for broken references (:mod:`question_bank.consistency`). Nothing stops at the first error:
the caller gets every :class:`BankIssue` of every file.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from question_bank import schema
from question_bank.consistency import Context, Reporter, check_names, check_template, suggest
from question_bank.errors import BankIssue, display_path
from question_bank.scenario_checks import check_scenario
from question_bank.schema import (
    AnyTemplate,
    PoolFile,
    PoolRef,
    Scenario,
    ScenarioTemplate,
    Step,
    Template,
    TemplateSpec,
)
from question_bank.yaml_source import PathPart, child_node, locate, read_yaml

_TEMPLATE = TypeAdapter(TemplateSpec)
TemplateOrStep = TypeVar("TemplateOrStep", Template, Step)
_POOL = TypeAdapter(PoolFile)

#: Every key the format defines anywhere, for "did you mean" hints on unknown keys.
_ALL_KEYS = frozenset(
    info.alias or name
    for model in vars(schema).values()
    if isinstance(model, type) and issubclass(model, BaseModel)
    for name, info in model.model_fields.items()
)

#: What to write for a missing key, by key.
_EXAMPLES = {
    "id": "id: kv-bytes-per-token",
    "checklist": "checklist: kv-cache",
    "kind": "kind: numeric",
    "difficulty": "difficulty: 1 (warm-up) to 3 (interview-hard)",
    "title": "title: KV-cache bytes per token",
    "prompt": "prompt: | followed by Markdown with {placeholders}",
    "explanation": "explanation: | the idea in two or three sentences",
    "references": '- "kipply, Transformer Inference Arithmetic: kv cache"',
    "answer": "answer: {call: kv_cache_bytes_per_token, with: {...}, unit: KiB}",
    "call": "call: a function name from grader.estimator.FUNCTIONS",
    "unit": 'unit: GB (or "" for a pure number)',
    "name": "name: forgot-k-and-v",
    "diagnosis": "diagnosis: one line saying what went wrong",
    "options": "options: [{id, text, explanation}, ...]",
    "key_points": "key_points: 3 to 6 of {point: ..., concepts: [[phrase, synonym], [...]]}",
    "misconceptions": "misconceptions: at least 2 of {name: ..., correction: ..., concepts: [[...]]}",
    "concepts": 'concepts: [["memory-bound", "bandwidth-bound"], [200, "ridge point"]]',
    "point": "point: the key point as shown to the user",
    "correction": "correction: one sentence saying what is true instead",
    "model_answer": "model_answer: | a Markdown model answer",
    "text": "text: the situation, one or two sentences",
    "why": "why: one line on why that option is right",
    "templates": "templates: [ ... ]",
    "scenarios": "scenarios: [{text, answer, why}, ...]",
}

_HINTS = {
    "bank_param_kind": schema.PARAM_FORMS,
    "bank_kind": "kind: numeric, kind: choice, kind: recall or kind: scenario",
    "bank_scenarios": "scenarios: {pool: symptoms}, or a list of {text, answer, why}",
    "bank_scalar": "a single value such as 8, 0.5, true or model.n_layers",
    "string_type": "text (quote it)",
    "list_type": "a list: [a, b] or one '- item' per line",
    "dict_type": "a mapping of key: value",
    "model_type": "a mapping of key: value",
    "model_attributes_type": "a mapping of key: value",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number such as 0.05 or 1.555e+12",
    "float_parsing": "a number such as 0.05 or 1.555e+12",
}

#: What a value must look like, by key, for errors about its value (bounds, types).
_FIELD_HINTS = {
    "relative": "a fraction between 0 and 1, e.g. 0.05 for 5%",
    "absolute": "a positive number in the display unit, e.g. 0.5",
    "geometric": "a factor above 1, e.g. 1.5 for within 1.5× either way",
    "difficulty": "1 (warm-up), 2 or 3 (interview-hard)",
}

_PATTERN_HINTS = {
    schema.KEBAB_ID: "kebab-case: lowercase words joined by hyphens, e.g. kv-bytes-per-token",
    schema.PARAM_NAME: "snake_case starting with a letter, e.g. seq_len",
    schema.OPTION_ID: "lowercase letters, digits, - or _, e.g. bandwidth",
}


@dataclass
class LoadResult:
    """Templates and pools that passed, where each template came from, and every issue found."""

    templates: list[Template] = field(default_factory=list)
    scenarios: list[ScenarioTemplate] = field(default_factory=list)
    pools: dict[str, tuple[Scenario, ...]] = field(default_factory=dict)
    sources: dict[str, tuple[str, int]] = field(default_factory=dict)
    issues: list[BankIssue] = field(default_factory=list)


def load_files(
    template_paths: Iterable[Path],
    pool_paths: Iterable[Path],
    *,
    checklist_ids: frozenset[str],
    catalog: Any,
) -> LoadResult:
    """Load pools first (templates refer to them), then templates; collect every issue."""
    result = LoadResult()
    pool_files: dict[str, str] = {}
    for path in pool_paths:
        name, file = path.stem, display_path(path)
        if name in pool_files:
            result.issues.append(
                BankIssue(
                    file,
                    0,
                    "",
                    "",
                    f"a pool named {name!r} is already defined in {pool_files[name]}",
                    "rename the file",
                )
            )
            continue
        pool_files[name] = file
        pool = _load_pool(path, file, result.issues)
        if pool is not None:
            result.pools[name] = tuple(pool.scenarios)
    context = Context(checklist_ids=checklist_ids, catalog=catalog, pools=result.pools)
    for path in template_paths:
        _load_template_file(path, context, result)
    result.issues.extend(_probe_issues(result))
    return result


def _probe_issues(result: LoadResult) -> list[BankIssue]:
    """A key point's probe names a template of the bank that is a figure or a choice, not a recall."""
    kinds = {t.id: t.kind for t in result.templates}
    recalls: list[tuple[str, str, Any]] = [(t.id, "", t) for t in result.templates if t.kind == "recall"]
    for scenario in result.scenarios:
        recalls += [
            (scenario.id, f"steps.{i}.", s) for i, s in enumerate(scenario.steps) if s.kind == "recall"
        ]
    issues: list[BankIssue] = []
    for owner, prefix, recall in recalls:
        for i, point in enumerate(recall.key_points):
            probe = point.probe
            if probe is None or probe.template is None:
                continue
            kind = kinds.get(probe.template)
            if kind in ("numeric", "choice"):
                continue
            file, line = result.sources.get(owner, ("", 0))
            message = (
                f"the probe {probe.template!r} is a recall question: a probe asks a figure or a choice"
                if kind == "recall"
                else f"the probe {probe.template!r} is no template of the bank"
            )
            issues.append(
                BankIssue(
                    file, line, owner, f"{prefix}key_points.{i}.probe", message, "a numeric or choice id"
                )
            )
    return issues


def _load_pool(path: Path, file: str, issues: list[BankIssue]) -> PoolFile | None:
    source = _read(path, file, issues, "scenarios")
    if source is None:
        return None
    try:
        return _POOL.validate_python(source.data)
    except ValidationError as exc:
        issues.extend(_schema_issues(exc, file, "", source.node, source.data))
        return None


def _read(path: Path, file: str, issues: list[BankIssue], top_key: str) -> Any:
    source, flaws = read_yaml(path)
    for flaw in flaws:
        template_id = _id_near(source.node if source else None, flaw.path)
        field_name = ".".join(str(p) for p in flaw.path[2:] if flaw.path[:1] == ("templates",)) or ".".join(
            str(p) for p in flaw.path
        )
        issues.append(BankIssue(file, flaw.line, template_id, field_name, flaw.message, flaw.hint))
    if source is None or flaws:
        return None
    if source.node is None:
        issues.append(BankIssue(file, 1, "", "", "the file is empty", _EXAMPLES[top_key]))
        return None
    return source


def _id_near(node: yaml.Node | None, path: tuple[PathPart, ...]) -> str:
    """The id of the template that ``path`` lies in, read from the node tree ("" outside templates)."""
    if node is None or len(path) < 2 or path[0] != "templates":
        return ""
    id_node = child_node(node, ("templates", path[1], "id"))
    return id_node.value if isinstance(id_node, yaml.ScalarNode) else "?"


def _load_template_file(path: Path, context: Context, result: LoadResult) -> None:
    file = display_path(path)
    source = _read(path, file, result.issues, "templates")
    if source is None:
        return
    data, node = source.data, source.node
    if not isinstance(data, dict) or not isinstance(data.get("templates"), list):
        result.issues.append(
            BankIssue(
                file,
                1,
                "",
                "templates",
                "a bank file is a mapping with a templates list",
                _EXAMPLES["templates"],
            )
        )
        return
    for key in data:
        if key != "templates":
            line = locate(node, (key,))[0]
            result.issues.append(
                BankIssue(file, line, "", str(key), f"unknown top-level key {key!r}", "only templates: [...]")
            )
    items_node = child_node(node, ("templates",))
    for index, item in enumerate(data["templates"]):
        item_node = child_node(items_node, (index,)) if items_node is not None else None
        _load_template(item, item_node or node, file, context, result)


def _load_template(item: Any, node: yaml.Node, file: str, context: Context, result: LoadResult) -> None:
    template_id = item["id"] if isinstance(item, dict) and isinstance(item.get("id"), str) else "?"
    try:
        template: AnyTemplate = _TEMPLATE.validate_python(item)
    except ValidationError as exc:
        result.issues.extend(_schema_issues(exc, file, template_id, node, item))
        check_names(item, context, Reporter(file, template_id, node, result.issues))
        return
    line = node.start_mark.line + 1
    found: list[BankIssue] = []
    if template.id in result.sources:
        first_file, first_line = result.sources[template.id]
        found.append(
            BankIssue(
                file,
                locate(node, ("id",))[0],
                template.id,
                "id",
                f"the id {template.id!r} is already used in {first_file}:{first_line}",
                "a new id, unique across every bank folder",
            )
        )
    else:
        result.sources[template.id] = (file, line)
    if isinstance(template, ScenarioTemplate):
        check_scenario(template, context, Reporter(file, template.id, node, found))
    else:
        check_template(template, context, Reporter(file, template.id, node, found))
    result.issues.extend(found)
    if found:
        return
    if isinstance(template, ScenarioTemplate):
        steps = [_with_pool(step, context.pools) for step in template.steps]
        result.scenarios.append(template.model_copy(update={"steps": steps}))
    else:
        result.templates.append(_with_pool(template, context.pools))


def _with_pool(template: TemplateOrStep, pools: Mapping[str, Sequence[Scenario]]) -> TemplateOrStep:
    """The template (or step) with a ``{pool: NAME}`` reference replaced by the pool's scenarios."""
    scenarios = getattr(template, "scenarios", None)
    if isinstance(scenarios, PoolRef):
        return template.model_copy(update={"scenarios": list(pools[scenarios.pool])})
    return template


def _schema_issues(
    exc: ValidationError, file: str, template_id: str, node: yaml.Node, data: Any
) -> list[BankIssue]:
    """One issue per validation error, except a missing key that an unknown key beside it misspells."""
    errors = exc.errors()
    unknown = {(tuple(e["loc"][:-1]), str(e["loc"][-1])) for e in errors if e["type"] == "extra_forbidden"}
    kept = []
    for error in errors:
        parent, key = tuple(error["loc"][:-1]), str(error["loc"][-1]) if error["loc"] else ""
        misspelt = [k for p, k in unknown if p == parent and difflib.get_close_matches(key, [k], n=1)]
        if error["type"] == "missing" and misspelt:
            continue  # the unknown key's issue says "did you mean"
        kept.append(_schema_issue(error, file, template_id, node, data))
    return kept


def _schema_issue(error: Any, file: str, template_id: str, node: yaml.Node, data: Any) -> BankIssue:
    loc: tuple[PathPart, ...] = tuple(error["loc"])
    if error["type"] == "bank_kind":
        loc = (*loc, "kind")  # point at the kind line, not the template's first line
    line, matched = locate(node, loc)
    kind = error["type"]
    path = list(matched)
    ctx = error.get("ctx") or {}
    message = str(error["msg"]).removeprefix("Value error, ")
    hint = ctx.get("hint") or _HINTS.get(kind, "")
    if kind == "missing":
        key = str(loc[-1])
        path.append(key)
        message = f"{key!r} is missing"
        hint = _EXAMPLES.get(key, f"add {key}: ...")
    elif kind == "extra_forbidden":
        key = str(loc[-1])
        message = f"unknown key {key!r}"
        hint = _extra_key_hint(key, data)
    elif kind == "literal_error":
        hint = f"one of {ctx.get('expected', '')}"
    elif kind == "string_pattern_mismatch":
        hint = _PATTERN_HINTS.get(ctx.get("pattern", ""), hint)
    elif kind == "too_short":
        hint = f"at least {ctx.get('min_length')} item(s)"
    elif kind == "string_too_long":
        hint = f"at most {ctx.get('max_length'):,} characters: shorten it"
    elif kind == "too_long":
        hint = f"at most {ctx.get('max_length')} items"
    if path and str(path[-1]) in _FIELD_HINTS and kind not in ("missing", "extra_forbidden"):
        hint = _FIELD_HINTS[str(path[-1])]
    return BankIssue(
        file,
        line,
        template_id,
        ".".join(str(p) for p in path),
        message,
        hint or "see 'Adding questions' in README.md (the models: question_bank/templates.py)",
    )


def _extra_key_hint(key: str, data: Any) -> str:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind in schema.KINDS:
        owners = [k for k in schema.KINDS if k != kind and key in schema.kind_fields(k)]
        if owners and key not in schema.kind_fields(kind):
            return f"{key} belongs to {' or '.join(owners)} templates and this one is kind: {kind}; remove it"
    close = suggest(key, _ALL_KEYS)
    return f"remove it ({close})" if close.startswith("did you mean") else "remove it"
