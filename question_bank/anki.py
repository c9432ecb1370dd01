"""Anki export: generated variants of the bank's templates as an Anki package (``.apkg``).

One note type carries every kind of problem: the prompt, the options of a choice problem (on the
front), a type-in field for numeric problems, the exact answer with its unit, the accepted range,
the derivation as a small table, the key points of a recall problem, the explanation and the
references. Notes get stable GUIDs from template id and seed, so importing a newer export updates
the notes already in a collection instead of adding copies; deck and note-type ids are fixed for
the same reason. One deck per checklist item sits under a parent deck; tags name the checklist
item, the topics and the difficulty.

Problems come from :func:`question_bank.generate`, answers and ranges from :func:`grader.grade` of
the exact answer, so a card says exactly what the app would accept.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import genanki

from grader import grade
from grader.derivation_text import is_binary, result_text, to_binary
from grader.estimator.derivation import Step
from grader.follow_through import ScenarioProblem, StepProblem
from grader.markdown import bank_markdown
from grader.problem import Kind, Problem
from grader.units import format_quantity
from question_bank.bank import Bank
from question_bank.checklist import load_checklist
from question_bank.errors import GenerationError
from question_bank.generation import generate
from question_bank.scenarios import generate_scenario
from question_bank.text_safety import safe_html

#: The parent deck; each checklist item's deck is ``PARENT_DECK::<item title>``.
PARENT_DECK = "Roofline Drill"
#: Variants generated per template unless asked otherwise.
DEFAULT_VARIANTS = 3
#: At most this many variants per template: enough for months of fresh numbers, not a runaway file.
MAX_VARIANTS = 50
# Anki matches a note type by id on import: this one is fixed forever, like the field names.
MODEL_ID = 1_733_021_507
MODEL_NAME = "Roofline Drill problem"
FIELDS = (
    "Prompt",
    "Options",
    "TypeAnswer",
    "Answer",
    "AcceptedRange",
    "KeyPoints",
    "Derivation",
    "Explanation",
    "References",
    "Source",
)

_FRONT = """<div class="prompt">{{Prompt}}</div>
{{#Options}}<div class="options">{{Options}}</div>{{/Options}}
{{#TypeAnswer}}{{type:TypeAnswer}}{{/TypeAnswer}}"""

_BACK = """<div class="prompt">{{Prompt}}</div>
{{#Options}}<div class="options">{{Options}}</div>{{/Options}}
<hr id="answer">
{{#TypeAnswer}}{{type:TypeAnswer}}{{/TypeAnswer}}
<div class="answer">{{Answer}}</div>
{{#AcceptedRange}}<div class="range">Accepted: {{AcceptedRange}}</div>{{/AcceptedRange}}
{{#KeyPoints}}<div class="keypoints"><b>Key points</b>{{KeyPoints}}</div>{{/KeyPoints}}
{{#Derivation}}<div class="derivation">{{Derivation}}</div>{{/Derivation}}
{{#Explanation}}<div class="explanation">{{Explanation}}</div>{{/Explanation}}
{{#References}}<div class="refs">Revisit: {{References}}</div>{{/References}}
<div class="source">{{Source}}</div>"""

_CSS = """.card { font-family: sans-serif; font-size: 18px; text-align: left; line-height: 1.4; }
.answer { font-size: 20px; margin: 0.6em 0; }
.range, .source, .refs { color: #666; font-size: 14px; }
.derivation table { border-collapse: collapse; font-size: 14px; margin: 0.6em 0; }
.derivation td, .derivation th { border: 1px solid #ccc; padding: 2px 6px; }
code { font-size: 90%; }"""

MODEL = genanki.Model(
    MODEL_ID,
    MODEL_NAME,
    fields=[{"name": name} for name in FIELDS],
    templates=[{"name": "Problem", "qfmt": _FRONT, "afmt": _BACK}],
    css=_CSS,
)


@dataclass(frozen=True)
class CardData:
    """One note as plain data: what the package holds, before genanki sees it."""

    guid: str
    deck: str
    fields: dict[str, str]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote: notes in all, per deck, and templates left out (with why)."""

    notes: int
    decks: dict[str, int]
    skipped: tuple[str, ...]


def deck_id(name: str) -> int:
    """A deck id that stays the same for the same deck name, export after export."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:12], 16)


def note_guid(template_id: str, seed: int) -> str:
    """The stable GUID of one variant: the same template and seed always update the same note."""
    return genanki.guid_for(template_id, seed)


def markdown_html(text: str) -> str:
    """Markdown (bold, code, lists, paragraphs) as HTML: raw HTML escaped, no image, links to http(s) only;
    the field's B* kept.

    Anki's card view is a web view, so a card must fetch and run nothing a bank text names.
    """
    return safe_html(bank_markdown(text))


def derivation_html(steps: Sequence[Step], *, answer_unit: str = "") -> str:
    """The worked steps as a small HTML table (step, formula, with the numbers, result), in the units the
    question uses, as the app shows them."""
    if not steps:
        return ""
    binary = is_binary(answer_unit)
    head = "<tr><th>step</th><th>formula</th><th>with the numbers</th><th>result</th></tr>"
    rows = []
    for index, s in enumerate(steps):
        substituted = to_binary(s.substituted) if binary else s.substituted
        result = result_text(s, answer_unit=answer_unit, last=index == len(steps) - 1)
        cells = "".join(f"<td>{html.escape(cell)}</td>" for cell in (s.label, s.formula, substituted, result))
        rows.append(f"<tr>{cells}</tr>")
    return f"<table>{head}{''.join(rows)}</table>"


def _inline_html(text: str) -> str:
    """Markdown for one line (a list item, an option): no paragraph around it."""
    return markdown_html(text).removeprefix("<p>").removesuffix("</p>")


def _list_html(items: Iterable[str], *, ordered: bool = False) -> str:
    # Options are numbered from 1, as people count them and as the app's number keys pick them.
    tag = "ol" if ordered else "ul"
    inner = "".join(f"<li>{_inline_html(item)}</li>" for item in items)
    return f"<{tag}>{inner}</{tag}>" if inner else ""


def _numeric_fields(problem: Problem) -> dict[str, str]:
    assert problem.answer is not None  # checked by the caller
    part = problem.choice_part
    # A two-part answer is typed whole: the figure, then the verdict (the first right option).
    verdict_part = f", {part.options[part.correct[0]]}" if part is not None else ""
    exact = format_quantity(problem.answer, problem.unit).strip() + verdict_part
    verdict = grade(problem, format_quantity(problem.answer, problem.unit, sig_figs=12) + verdict_part)
    accepted = ""
    if verdict.accepted_range is not None:
        low, high = verdict.accepted_range
        unit = f" {problem.unit}" if problem.unit else ""
        # Anki's type-in compares text letter by letter, so "2.17 ms" for 2.167 ms shows as a mismatch;
        # the card says that the range decides, as the app grades.
        accepted = html.escape(
            f"{low:.4g} to {high:.4g}{unit}. This range decides: an answer inside it is right, "
            "even where the typed comparison above shows a mismatch."
        )
    return {
        "TypeAnswer": html.escape(exact),
        "Answer": f"<b>{html.escape(exact)}</b>",
        "AcceptedRange": accepted,
    }


def _choice_fields(problem: Problem) -> dict[str, str]:
    options = _list_html((c.text for c in problem.choices), ordered=True)
    right = [(i, c) for i, c in enumerate(problem.choices, start=1) if c.correct]
    answer = "".join(f"<p><b>{i}. {_inline_html(c.text)}</b></p>" for i, c in right)
    why = _list_html(f"{c.text}: {c.explanation}" for c in problem.choices if c.explanation)
    return {"Options": options, "Answer": answer + why}


def card_fields(problem: Problem) -> dict[str, str]:
    """The note's fields for one generated problem (every field present, empty when it does not apply)."""
    fields = dict.fromkeys(FIELDS, "")
    fields["Prompt"] = markdown_html(problem.prompt)
    if problem.kind is Kind.NUMERIC and problem.answer is not None:
        fields.update(_numeric_fields(problem))
    elif problem.kind is Kind.CHOICE:
        fields.update(_choice_fields(problem))
    elif problem.kind is Kind.RECALL:
        said = markdown_html(problem.model_answer) if problem.model_answer else ""
        fields["Answer"] = said or "<b>Say it out loud, then compare with the key points.</b>"
        fields["KeyPoints"] = _list_html(problem.key_points)
    fields["Derivation"] = derivation_html(problem.derivation, answer_unit=problem.unit)
    fields["Explanation"] = markdown_html(problem.explanation) if problem.explanation else ""
    fields["References"] = html.escape("; ".join(problem.references))
    fields["Source"] = html.escape(f"{problem.template_id} · seed {problem.seed}")
    return fields


def step_fields(chain: ScenarioProblem, step: StepProblem) -> dict[str, str]:
    """A scenario step as a card: the setup and the earlier steps' exact answers come before its question."""
    fields = card_fields(step)
    earlier = [
        f"Step {s.step} ({s.title}): {format_quantity(s.answer, s.unit).strip()}"
        for s in chain.steps[: step.step - 1]
        if s.kind is Kind.NUMERIC and s.answer is not None
    ]
    so_far = f"<p><i>So far</i></p>{_list_html(earlier)}" if earlier else ""
    heading = f"<p><b>{html.escape(chain.title)}</b>, step {step.step} of {step.n_steps}</p>"
    fields["Prompt"] = heading + markdown_html(chain.setup) + so_far + fields["Prompt"]
    fields["Source"] = html.escape(f"{chain.template_id} · step {step.step} · seed {chain.seed}")
    return fields


def card_tags(problem: Problem) -> tuple[str, ...]:
    """Anki tags (no spaces): the checklist item, each topic and the difficulty."""
    topics = (f"topic::{topic}" for topic in problem.topics)
    tags = [problem.checklist_item, *topics, f"difficulty::{problem.difficulty}"]
    if isinstance(problem, StepProblem):
        tags.append(f"scenario::{problem.template_id}")
    return tuple("_".join(tag.split()) for tag in tags)


def _fingerprint(fields: dict[str, str]) -> tuple[str, ...]:
    # Two seeds that render the same card (a recall question has nothing to vary) make one note.
    return tuple(fields[name] for name in FIELDS if name != "Source")


def _usable(problem: Problem) -> bool:
    if problem.kind is Kind.NUMERIC:
        return problem.answer is not None and math.isfinite(problem.answer)
    return True


def build_cards(
    bank: Bank, *, variants: int = DEFAULT_VARIANTS, checklist: Sequence[str] = (), seed: int = 0
) -> tuple[list[CardData], list[str]]:
    """Notes for ``variants`` seeds (``seed``, ``seed + 1``, ...) of every template, and what was left out.

    ``checklist`` keeps the templates of those items only (all when empty). A variant that fails to
    generate is left out and named; it never stops the export.
    """
    if not 1 <= variants <= MAX_VARIANTS:
        raise ValueError(f"variants must be between 1 and {MAX_VARIANTS}, not {variants}")
    titles = {item.id: item.title for item in load_checklist()}
    unknown = sorted(set(checklist) - set(titles))
    if unknown:
        raise ValueError(f"unknown checklist item {', '.join(unknown)}; choose from {', '.join(titles)}")
    wanted = set(checklist) or set(titles)
    cards: list[CardData] = []
    skipped: list[str] = []

    def add(problem: Problem, guid: str, fields: dict[str, str], seen: set[tuple[str, ...]]) -> None:
        if _fingerprint(fields) in seen:
            return
        seen.add(_fingerprint(fields))
        deck = f"{PARENT_DECK}::{titles.get(problem.checklist_item, problem.checklist_item)}"
        cards.append(CardData(guid, deck, fields, card_tags(problem)))

    for template in bank.templates:
        if template.checklist not in wanted:
            continue
        seen: set[tuple[str, ...]] = set()
        for variant_seed in range(seed, seed + variants):
            try:
                problem = generate(template, variant_seed)
            except (GenerationError, ArithmeticError, ValueError, TypeError, KeyError) as exc:
                skipped.append(f"{template.id} seed {variant_seed}: {exc}")
                continue
            if not _usable(problem):
                skipped.append(f"{template.id} seed {variant_seed}: no usable answer for this draw")
                continue
            add(problem, note_guid(template.id, variant_seed), card_fields(problem), seen)
    for scenario in bank.scenarios:
        seen = set()
        for variant_seed in range(seed, seed + variants):
            try:
                chain = generate_scenario(scenario, variant_seed)
            except (GenerationError, ArithmeticError, ValueError, TypeError, KeyError) as exc:
                skipped.append(f"{scenario.id} seed {variant_seed}: {exc}")
                continue
            for step in chain.steps:
                if step.checklist_item in wanted and _usable(step):
                    guid = note_guid(f"{scenario.id}#{step.step_id}", variant_seed)
                    add(step, guid, step_fields(chain, step), seen)
    return cards, skipped


def build_package(cards: Sequence[CardData]) -> genanki.Package:
    """A genanki package: the parent deck and one deck per checklist item that has notes."""
    decks = {PARENT_DECK: genanki.Deck(deck_id(PARENT_DECK), PARENT_DECK)}
    for card in cards:
        deck = decks.setdefault(card.deck, genanki.Deck(deck_id(card.deck), card.deck))
        deck.add_note(
            genanki.Note(
                model=MODEL,
                fields=[card.fields[name] for name in FIELDS],
                guid=card.guid,
                tags=list(card.tags),
            )
        )
    return genanki.Package(list(decks.values()))


def write_anki(
    out: str | Path | IO[bytes],
    bank: Bank,
    *,
    variants: int = DEFAULT_VARIANTS,
    checklist: Sequence[str] = (),
    seed: int = 0,
) -> ExportSummary:
    """Write the package to ``out`` (a path or a binary file object) and say what it holds."""
    cards, skipped = build_cards(bank, variants=variants, checklist=checklist, seed=seed)
    build_package(cards).write_to_file(out)
    per_deck: dict[str, int] = {}
    for card in cards:
        per_deck[card.deck] = per_deck.get(card.deck, 0) + 1
    return ExportSummary(notes=len(cards), decks=per_deck, skipped=tuple(skipped))


def anki_bytes(
    bank: Bank, *, variants: int = DEFAULT_VARIANTS, checklist: Sequence[str] = (), seed: int = 0
) -> bytes:
    """The package as bytes, for a download button."""
    buffer = io.BytesIO()
    write_anki(buffer, bank, variants=variants, checklist=checklist, seed=seed)
    return buffer.getvalue()
