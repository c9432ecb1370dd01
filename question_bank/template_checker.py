"""The template checker: walks one template and reports every name in it that refers to nothing real."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from grader.estimator import DTYPE_BYTES, KV_READ_OVERLAPPED, WHOLE_COUNTS
from grader.estimator.conventions import CONVENTIONS
from grader.explain.text_match import phrase_tokens
from grader.problem import ToleranceClass
from grader.units import to_display
from question_bank.answer_extras import tolerance_class
from question_bank.answers import Rebound
from question_bank.catalog import DTYPE_FIELDS, select_presets
from question_bank.choices import PoolRef
from question_bank.names import Context, ParamInfo, checklist_problem, function_problem, signature, suggest
from question_bank.params import CallParam, ChoiceParam, DtypeParam, FloatParam, IntParam, PresetParam
from question_bank.recall_specs import RubricSpec
from question_bank.rendering import GRAMMAR_HINT, BadPlaceholder, Placeholder, parse
from question_bank.reporter import Reporter
from question_bank.templates import ChoiceTemplate, NumericTemplate, RecallTemplate, Template
from question_bank.yaml_source import PathPart

# A question sentence (ending in "?") that asks for an estimate must accept one (±10 % or more).
# A sentence ends at . ? or !; splitting after each is linear, where a search for "[^.?!]*\?" would
# rescan a long prompt without a question mark from every position.
_SENTENCE_END = re.compile(r"(?<=[.?!])")
_ROUGH_WORDS = re.compile(r"\b(?:about|roughly|estimate|ballpark|approximately)\b", re.IGNORECASE)

#: A prompt that says the KV read overlaps the FLOPs ("the KV cache read overlapped with the FLOPs"), in
#: one clause: "cache read once; the weight matmuls overlap their read" says it of the weights only.
_SAYS_KV_OVERLAP = re.compile(
    r"\b(?:KV|cache)\b[^.;?!]*\boverlap|\boverlap[^.;?!]*\b(?:KV|cache)\b", re.IGNORECASE
)

SCENARIO = "scenario"
#: The names of the conventions the bank applies itself (an ``accept`` entry may not take one).
CONVENTION_NAMES = frozenset(convention.name for convention in CONVENTIONS)
#: In an explanation or a slip's diagnosis, ``{answer|unit}`` shows the exact answer of the draw.
ANSWER = "answer"


class TemplateChecker:
    def __init__(self, template: Template, context: Context, report: Reporter) -> None:
        self.template = template
        self.context = context
        self.report = report
        self.scope: dict[str, ParamInfo] = {}

    def run(self) -> None:
        t = self.template
        problem = checklist_problem(t.checklist, self.context.checklist_ids)
        if problem:
            self.report(("checklist",), *problem)
        all_names = list(t.params)
        for name, spec in t.params.items():
            self._param(name, spec, all_names)
        for index, requirement in enumerate(t.require):
            self._binding(("require", index, "lhs"), requirement.lhs)
            self._binding(("require", index, "rhs"), requirement.rhs)
        if isinstance(t, NumericTemplate):
            self._numeric(t)
        elif isinstance(t, ChoiceTemplate):
            self._choice(t)
        elif isinstance(t, RecallTemplate):
            self._recall(t)
        self._placeholders()

    # --- params ----------------------------------------------------------------------------

    def _param(self, name: str, spec: Any, all_names: list[str]) -> None:
        path = ("params", name)
        if isinstance(spec, PresetParam):
            self._preset(path, name, spec)
            return
        if isinstance(spec, DtypeParam):
            for index, dtype in enumerate(spec.dtype):
                if dtype not in DTYPE_BYTES:
                    self.report(
                        (*path, "dtype", index), f"unknown dtype {dtype!r}", suggest(dtype, DTYPE_BYTES)
                    )
            self.scope[name] = ParamInfo("dtype", DTYPE_FIELDS)
            return
        if isinstance(spec, CallParam):
            self._call((*path,), spec.call, spec.with_, later=all_names[all_names.index(name) :])
        elif not isinstance(spec, IntParam | FloatParam | ChoiceParam):  # pragma: no cover - schema forbids
            raise TypeError(type(spec).__name__)
        self.scope[name] = ParamInfo("value")

    def _preset(self, path: tuple[PathPart, ...], name: str, spec: PresetParam) -> None:
        lists = self.context.catalog.lists
        if spec.preset not in lists:
            self.report(
                (*path, "preset"), f"unknown preset list {spec.preset!r}", suggest(spec.preset, lists)
            )
            # Already reported; uses of it are not mistakes of their own.
            self.scope[name] = ParamInfo("unknown")
            return
        presets = lists[spec.preset]
        fields = self.context.catalog.fields(spec.preset)
        self.scope[name] = ParamInfo("preset", fields)
        for key in ("ids", "exclude"):
            for index, preset_id in enumerate(getattr(spec, key) or ()):
                if preset_id not in presets:
                    self.report(
                        (*path, key, index),
                        f"unknown {spec.preset} preset id {preset_id!r}",
                        suggest(preset_id, presets),
                    )
        for field in spec.where:
            if field not in fields:
                self.report(
                    (*path, "where", field),
                    f"{spec.preset} presets have no field {field!r}",
                    suggest(field, fields),
                )
        if not select_presets(spec, presets):
            self.report(path, "no preset passes this filter", "loosen ids, exclude or where")

    # --- bindings and calls ----------------------------------------------------------------

    def _binding(self, path: tuple[PathPart, ...], value: Any, later: Sequence[str] = ()) -> None:
        """A literal number or bool passes; a string must be ``param`` or ``param.field`` drawn earlier.

        A list argument's elements are checked one by one.
        """
        if isinstance(value, tuple):
            for index, item in enumerate(value):
                self._binding((*path, index), item, later)
            return
        if not isinstance(value, str):
            return
        self._reference(path, value, later=later, whole_ok=False)

    def _reference(
        self,
        path: tuple[PathPart, ...],
        ref: str,
        *,
        later: Sequence[str],
        whole_ok: bool,
        line: int = 0,
        label: str = "",
    ) -> None:
        def say(message: str, hint: str) -> None:
            self.report(path, label + message, hint, line=line)

        name, _, field = ref.partition(".")
        if "." in field or not name:
            say(f"{ref!r} is not a parameter path", "name or name.field such as model.n_layers")
            return
        param = self.scope.get(name)
        if param is not None and param.kind == "unknown":
            return
        if param is None:
            if name in later:
                say(f"{name!r} is drawn after this", f"move the param {name!r} above the one using it")
            else:
                say(
                    f"{ref!r} is not a declared param",
                    suggest(name, self.scope) if self.scope else "declare it under params",
                )
            return
        if field and not param.fields:
            say(f"{name!r} is a single value and has no field {field!r}", f"write {name}")
        elif field and field not in param.fields:
            say(f"{name!r} has no field {field!r}", suggest(field, param.fields))
        elif not field and param.fields and not whole_ok:
            example = "bytes" if param.kind == "dtype" else sorted(param.fields)[0]
            say(f"bind a field of {name!r}, not the whole {param.kind}", f"{name}.{example}")

    def _call(
        self,
        path: tuple[PathPart, ...],
        function: str,
        bindings: Mapping[str, Any],
        *,
        later: Sequence[str] = (),
        already_bound: frozenset[str] = frozenset(),
        key: str = "call",
    ) -> bool:
        problem = function_problem(function)
        if problem:
            self.report((*path, key), *problem)
            return False
        names, required = signature(function)
        for keyword, value in bindings.items():
            if keyword not in names:
                self.report(
                    (*path, "with", keyword),
                    f"{function} has no parameter {keyword!r}",
                    suggest(keyword, names),
                )
            self._binding((*path, "with", keyword), value, later)
        missing = sorted(required - set(bindings) - already_bound)
        if missing:
            self.report(
                (*path, "with") if bindings else (*path, key),
                f"{function} needs {', '.join(missing)} bound",
                ", ".join(f"{m}: <param path or number>" for m in missing),
            )
        return True

    # --- kinds -----------------------------------------------------------------------------

    def _numeric(self, t: NumericTemplate) -> None:
        answer_ok = self._call(("answer",), t.answer.call, t.answer.with_)
        self._unit(("answer", "unit"), t.answer.unit)
        entries: list[tuple[tuple[PathPart, ...], Rebound]] = [
            (("slips", i), slip) for i, slip in enumerate(t.slips)
        ]
        entries += [(("answer", "accept", i), entry) for i, entry in enumerate(t.answer.accept)]
        seen: set[str] = set()
        for path, slip in entries:
            if slip.name in seen:
                self.report(
                    (*path, "name"), f"slip name {slip.name!r} is used twice", "a distinct kebab-case name"
                )
            seen.add(slip.name)
            if slip.call is not None:
                self._call(path, slip.call, slip.with_ or {})
            elif slip.with_ is not None and answer_ok:
                # Rebinding: the answer's call with some keywords bound differently.
                self._call(path, t.answer.call, slip.with_, already_bound=frozenset(t.answer.with_))
        questions = [s for s in _SENTENCE_END.split(t.prompt) if s.endswith("?")]
        asks_rough = any(_ROUGH_WORDS.search(q) for q in questions)
        if asks_rough and tolerance_class(t.answer) is not ToleranceClass.ROUGH:
            self.report(
                ("answer", "tolerance"),
                "the prompt asks for an estimate (about, roughly, estimate, ballpark) but the tolerance is "
                "tighter than 10 %",
                "tolerance: {relative: 0.1}, or ask for the exact figure",
            )
        self._conventions(t)
        self._kv_read(t)
        if t.answer.choice_part is not None:
            for option_id, binding in t.answer.choice_part.largest.items():
                self._binding(("answer", "choice_part", "largest", option_id), binding)

    def _conventions(self, t: NumericTemplate) -> None:
        """The whole-count rule for a count, and the bank's conventions left to the bank."""
        if t.answer.call in WHOLE_COUNTS and not t.answer.whole:
            self.report(
                ("answer", "call"),
                f"{t.answer.call} counts whole things, but the answer is graded as a plain figure",
                "whole: true (the floor is strict; the nearest whole number and the quotient count too)",
            )
        for index, entry in enumerate(t.answer.accept):
            if entry.name in CONVENTION_NAMES:
                self.report(
                    ("answer", "accept", index, "name"),
                    f"the {entry.name!r} reading is applied by the bank to every template whose answer it "
                    "changes",
                    "remove this accept entry",
                )

    def _kv_read(self, t: NumericTemplate) -> None:
        """A decode step's KV read is not hidden under the matmuls' FLOPs unless the prompt says so."""
        calls: list[tuple[tuple[PathPart, ...], str, Mapping[str, Any]]] = [
            (("answer",), t.answer.call, t.answer.with_)
        ]
        calls += [(("params", n), s.call, s.with_) for n, s in t.params.items() if isinstance(s, CallParam)]
        for path, call, bindings in calls:
            keyword = KV_READ_OVERLAPPED.get(call)
            kv = bindings.get(keyword) if keyword else None
            if kv is None or kv == 0 or _SAYS_KV_OVERLAP.search(t.prompt):
                continue
            self.report(
                (*path, "call"),
                f"{call} hides the KV read under the matmuls' FLOPs (max((W + KV) / BW, compute)), and the "
                "prompt does not say the KV read overlaps them",
                "decode_step_time_general (KV / BW + max(W / BW, compute), the scaling book's step), or "
                "say in the prompt that the KV read overlaps the FLOPs",
            )

    def _choice(self, t: ChoiceTemplate) -> None:
        option_ids = [option.id for option in t.options]
        for index, option_id in enumerate(option_ids):
            if option_ids.index(option_id) != index:
                self.report(
                    ("options", index, "id"), f"option id {option_id!r} is used twice", "a distinct id"
                )
        if t.decide is not None:
            self._binding(("decide", "lhs"), t.decide.lhs)
            self._binding(("decide", "rhs"), t.decide.rhs)
            for key in ("below", "otherwise"):
                choice = getattr(t.decide, key)
                if choice not in option_ids:
                    self.report(
                        ("decide", key), f"{choice!r} is not an option id", suggest(choice, option_ids)
                    )
            return
        if isinstance(t.scenarios, PoolRef):
            pool = self.context.pools.get(t.scenarios.pool)
            if pool is None:
                self.report(
                    ("scenarios", "pool"),
                    f"unknown scenario pool {t.scenarios.pool!r}",
                    suggest(t.scenarios.pool, self.context.pools)
                    if self.context.pools
                    else "a file pools/NAME.yaml",
                )
                return
            missing = sorted({s.answer for s in pool} - set(option_ids))
            if missing:
                self.report(
                    ("scenarios", "pool"),
                    f"pool {t.scenarios.pool!r} answers with option ids {missing} that this template lacks",
                    f"add options with ids {', '.join(missing)}",
                )
        elif t.scenarios is not None:
            for index, scenario in enumerate(t.scenarios):
                if scenario.answer not in option_ids:
                    self.report(
                        ("scenarios", index, "answer"),
                        f"{scenario.answer!r} is not an option id",
                        suggest(scenario.answer, option_ids),
                    )
        if SCENARIO in t.params:
            self.report(
                ("params", SCENARIO), "the name 'scenario' is taken by the drawn scenario", "another name"
            )
        if not any(isinstance(p, Placeholder) and p.name == SCENARIO for p in parse(t.prompt)):
            self.report(("prompt",), "the prompt never shows the scenario", "put {scenario} in the prompt")

    # --- prompt ----------------------------------------------------------------------------

    def _recall(self, t: RecallTemplate) -> None:
        rubrics: list[tuple[tuple[PathPart, ...], RubricSpec]] = [
            (("key_points", i), point) for i, point in enumerate(t.key_points)
        ] + [(("misconceptions", i), m) for i, m in enumerate(t.misconceptions)]
        for path, rubric in rubrics:
            phrases = [
                ((*path, "concepts", j, k), phrase)
                for j, concept in enumerate(rubric.concepts)
                for k, phrase in enumerate(concept)
            ] + [((*path, "forbid", k), phrase) for k, phrase in enumerate(rubric.forbid)]
            for where, phrase in phrases:
                if not phrase_tokens(phrase):
                    self.report(
                        where,
                        f"the phrase {phrase!r} has no words left once filler words are dropped",
                        "a phrase with a content word or a number, e.g. 'memory-bound' or 200",
                    )

    def _placeholders(self) -> None:
        """Placeholders in the prompt and, for a numeric template, its explanation and slips' diagnoses.

        All are rendered from the draw; an explanation or diagnosis may also show ``{answer|unit}``.
        """
        t = self.template
        has_scenario = isinstance(t, ChoiceTemplate) and t.scenarios is not None
        texts: list[tuple[tuple[PathPart, ...], str]] = [(("prompt",), t.prompt)]
        if isinstance(t, NumericTemplate):
            texts.append((("explanation",), t.explanation))
            texts += [(("slips", i, "diagnosis"), slip.diagnosis) for i, slip in enumerate(t.slips)]
        for path, text in texts:
            for placeholder in parse(text):
                line = self.report.text_line(path, text, placeholder.offset)
                if isinstance(placeholder, BadPlaceholder):
                    self.report(path, f"{placeholder.source!r} is not a placeholder", GRAMMAR_HINT, line=line)
                    continue
                if placeholder.name == SCENARIO and has_scenario and path == ("prompt",):
                    if placeholder.field or placeholder.unit:
                        self.report(path, "write the scenario as {scenario}", "{scenario}", line=line)
                    continue
                if placeholder.name == ANSWER and isinstance(t, NumericTemplate) and path != ("prompt",):
                    if placeholder.unit is not None:
                        self._unit(path, placeholder.unit, line=line)
                    continue
                ref = placeholder.name + (f".{placeholder.field}" if placeholder.field else "")
                label = f"placeholder {placeholder.source}: "
                self._reference(path, ref, later=(), whole_ok=True, line=line, label=label)
                if placeholder.unit is not None:
                    self._unit(path, placeholder.unit, line=line)

    def _unit(self, path: tuple[PathPart, ...], unit: str, *, line: int = 0) -> None:
        if not unit:
            return  # a pure number
        try:
            to_display(1.0, unit)
        except Exception as exc:  # the unit library's errors are not one type; any failure means unusable
            self.report(
                path,
                f"{unit!r} is not a unit the grader can read ({exc})",
                "GB, KiB, ms, TFLOP/s, FLOP/B, tokens",
                line=line,
            )
