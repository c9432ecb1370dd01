"""Recall specs: key points and misconceptions (rubrics for a typed explanation) and the model answer."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import Field, PlainValidator, model_validator
from pydantic_core import PydanticCustomError

from grader.estimator import FUNCTIONS
from grader.explain.lexicon import unknown_references
from grader.explain.rubric import Misconception, Rubric
from grader.problem import Choice, Probe
from question_bank.model_base import Strict, bank_error


def _phrase(value: Any) -> str:
    # YAML reads 200 or 0.5 as numbers; a rubric phrase may be a bare number.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    raise PydanticCustomError(
        "bank_phrase",
        "expected a phrase (words or a number), got {got!r}",
        {"got": value, "hint": 'a phrase such as "memory-bound", "flop per byte" or 200'},
    )


#: A rubric phrase: words (matched on their stems) or a number (matched by value within 10 %).
Phrase = Annotated[str, PlainValidator(_phrase)]


class RubricSpec(Strict):
    """Concepts that must appear (each a list of alternative phrases), how many, and what must not.

    ``need`` defaults to all concepts; ``forbid`` phrases void the point when they appear un-negated.
    """

    concepts: list[Annotated[list[Phrase], Field(min_length=1)]] = Field(min_length=1)
    need: int | None = Field(default=None, ge=1)
    forbid: list[Phrase] = []

    @model_validator(mode="after")
    def _need_fits(self) -> RubricSpec:
        if self.need is not None and self.need > len(self.concepts):
            raise bank_error(
                f"need ({self.need}) is more than the {len(self.concepts)} concepts listed",
                f"need: {len(self.concepts)} or less, or list more concepts",
            )
        return self

    def to_rubric(self) -> Rubric:
        return Rubric(
            concepts=tuple(tuple(concept) for concept in self.concepts),
            need=self.need or 0,
            forbid=tuple(self.forbid),
        )


class ProbeSpec(Strict):
    """A key point's follow-up: another template (``template``), or a choice asked inline.

    The inline form has ``prompt``, ``options`` and ``answer`` (the right option's index); ``why``
    says why it is right.
    """

    template: str | None = Field(default=None, min_length=1)
    prompt: str | None = Field(default=None, min_length=1)
    options: list[str] = []
    answer: int | None = Field(default=None, ge=0)
    why: str = ""

    @model_validator(mode="after")
    def _one_form(self) -> ProbeSpec:
        inline = self.prompt is not None
        if (self.template is None) == (not inline):
            raise bank_error(
                "a probe is a template or an inline choice",
                "give template: <id>, or prompt, options and answer",
            )
        if inline and (len(self.options) < 2 or self.answer is None or self.answer >= len(self.options)):
            raise bank_error(
                "an inline probe needs two options or more and the index of the right one",
                "options: [...] and answer: <index of the right option>",
            )
        return self

    def to_probe(self) -> Probe:
        if self.template is not None:
            return Probe(template_id=self.template)
        choices = tuple(
            Choice(text=text, correct=i == self.answer, explanation=self.why if i == self.answer else "")
            for i, text in enumerate(self.options)
        )
        return Probe(prompt=self.prompt or "", choices=choices)


class FigureCall(Strict):
    """A key point's figure computed by a named estimator function with literal arguments."""

    call: str = Field(min_length=1)
    args: dict[str, float] = Field(alias="with")


class ContrarySpec(Strict):
    """A claim that says a key point's opposite: concepts that must all stand in one segment of a
    sentence, un-negated (as a misconception's do), and ``contrast`` phrases as for a misconception."""

    concepts: list[Annotated[list[Phrase], Field(min_length=1)]] = Field(min_length=1)
    contrast: list[Phrase] = []

    def to_rubric(self) -> Rubric:
        return Rubric(concepts=tuple(tuple(c) for c in self.concepts), contrast=tuple(self.contrast))


class KeyPoint(RubricSpec):
    """A key point as shown (``point``) and the rubric that finds it in a typed explanation.

    ``value`` is the figure the point states (a number, or ``{call: ridge_point, with: {...}}``),
    ``unit`` the unit it is said in: a figure in that unit that differs from it voids the point.
    ``contrary`` lists claims that say the point's opposite: asserted where the point is not made,
    the point is denied, a wrong claim that suggests Again.
    """

    point: str = Field(min_length=1)
    probe: ProbeSpec | None = None
    contrary: list[ContrarySpec] = []
    value: float | FigureCall | None = None
    unit: str = ""
    rel_tol: float = Field(default=0.10, gt=0, lt=1)

    @model_validator(mode="after")
    def _unit_with_value(self) -> KeyPoint:
        if (self.value is None) != (not self.unit):
            raise bank_error("value and unit go together", 'give both, e.g. value: 295 and unit: "FLOP/B"')
        return self

    def figure(self) -> float | None:
        """The point's figure in SI units, computed where it names an estimator function."""
        if isinstance(self.value, FigureCall):
            if self.value.call not in FUNCTIONS:
                raise bank_error(
                    f"unknown estimator function {self.value.call!r}",
                    "use a name from grader.estimator.FUNCTIONS",
                )
            return float(FUNCTIONS[self.value.call](**self.value.args))
        return self.value

    def to_rubric(self) -> Rubric:
        base = super().to_rubric()
        contrary = tuple(claim.to_rubric() for claim in self.contrary)
        figure = self.figure()
        if figure is None:
            return Rubric(concepts=base.concepts, need=base.need, forbid=base.forbid, contrary=contrary)
        return Rubric(
            concepts=base.concepts,
            need=base.need,
            forbid=base.forbid,
            value=figure,
            value_unit=self.unit,
            value_rel_tol=self.rel_tol,
            contrary=contrary,
        )


class MisconceptionSpec(RubricSpec):
    """A common wrong belief (``name``, as people say it), its ``correction``, and how to spot it.

    It is found when every concept appears, un-negated, in one sentence.
    """

    name: str = Field(min_length=1)
    correction: str = Field(min_length=1)
    need: None = None
    #: Phrases that, between two of its concepts, pair them with something else (see Rubric.contrast).
    contrast: list[Phrase] = []

    def to_misconception(self) -> Misconception:
        base = self.to_rubric()
        rubric = Rubric(concepts=base.concepts, forbid=base.forbid, contrast=tuple(self.contrast))
        return Misconception(name=self.name, correction=self.correction, rubric=rubric)


def _expand_subjects(data: Any) -> Any:
    """The rubrics of a recall spec with each ``@name`` of its own ``subjects`` replaced by their forms."""
    if not isinstance(data, dict) or not isinstance(data.get("subjects"), dict):
        return data
    subjects = {str(name): [_phrase(p) for p in forms or ()] for name, forms in data["subjects"].items()}

    def phrases(items: Any) -> Any:
        if not isinstance(items, list):
            return items
        out: list[Any] = []
        for item in items:
            name = item[1:] if isinstance(item, str) and item.startswith("@") else ""
            out.extend(subjects.get(name, [item]))
        return list(dict.fromkeys(out)) if all(isinstance(x, str) for x in out) else out

    def spec(item: Any) -> Any:
        if not isinstance(item, dict):
            return item
        out = dict(item)
        if isinstance(out.get("concepts"), list):
            out["concepts"] = [phrases(c) for c in out["concepts"]]
        if "contrast" in out:
            out["contrast"] = phrases(out["contrast"])
        if isinstance(out.get("contrary"), list):
            out["contrary"] = [spec(claim) for claim in out["contrary"]]
        return out

    data = dict(data)
    for key in ("key_points", "misconceptions"):
        if isinstance(data.get(key), list):
            data[key] = [spec(item) for item in data[key]]
    return data


class RecallAnswer(Strict):
    """What a recall template and a recall scenario step share: key points, misconceptions, the answer.

    Listed first among a recall class's bases, so its optional ``explanation`` wins over the required one.
    ``subjects`` names the item's own plain-language ways of saying its subjects ("the old way" for
    static batching): a rubric phrase ``@name`` stands for them, as ``@name`` stands for a concept of
    the field's lexicon (``grader/explain/lexicon.yaml``) everywhere.
    """

    kind: Literal["recall"]
    subjects: dict[str, Annotated[list[Phrase], Field(min_length=1)]] = {}
    key_points: list[KeyPoint] = Field(min_length=3, max_length=6)
    misconceptions: list[MisconceptionSpec] = Field(min_length=2)
    model_answer: str = Field(min_length=1)
    explanation: str = ""

    @model_validator(mode="before")
    @classmethod
    def _subjects_expanded(cls, data: Any) -> Any:
        return _expand_subjects(data)

    @model_validator(mode="after")
    def _known_references(self) -> Self:
        specs: list[RubricSpec] = [*self.key_points, *self.misconceptions]
        phrases = [p for spec in specs for concept in spec.concepts for p in concept]
        phrases += [p for m in self.misconceptions for p in m.contrast]
        claims = [claim for point in self.key_points for claim in point.contrary]
        phrases += [p for claim in claims for concept in claim.concepts for p in concept]
        phrases += [p for claim in claims for p in claim.contrast]
        unknown = unknown_references(phrases)
        if unknown:
            raise bank_error(
                f"{unknown[0]} names no concept of the lexicon nor a subject of this item",
                "add it under subjects: (this item's own words) or to grader/explain/lexicon.yaml",
            )
        return self

    @model_validator(mode="after")
    def _distinct_misconceptions(self) -> Self:
        names = [m.name for m in self.misconceptions]
        if len(set(names)) != len(names):
            raise bank_error("two misconceptions share a name", "give each misconception its own name")
        return self
