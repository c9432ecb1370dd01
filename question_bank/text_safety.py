"""Bank texts as Markdown: what a browser would fetch or run is refused, and Anki gets safe HTML.

The app shows every bank text (prompts, setups, explanations, references, titles, key points,
misconceptions, model answers, options, slip diagnoses) as Markdown, and a browser fetches a
Markdown image from wherever it points. So each text is parsed with a CommonMark parser
(markdown-it, the one the Anki export renders with) and refused when the parse holds an image or
raw HTML; no pattern could follow CommonMark's brackets, escapes and line breaks. A text is checked
as written when its file is read, and as drawn (its parameters filled in) for every draw the bank's
checks make, since ``!{param}`` with a parameter of ``[x](http://...)`` is an image only once drawn.

A link reference definition (``[name]: http://...``) is refused too: on its own it shows nothing,
but a page that joins it with another text turns that text's ``![x][name]`` into an image.

:func:`safe_html` is the Anki export's renderer: no images, no raw HTML (so no script and no event
attributes), and links only to http(s).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from grader.follow_through import StepProblem
from grader.problem import Problem

# Raw HTML is on so that it comes out as tokens to refuse; tables and strikethrough as the app shows them.
_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])

#: Why each refused token is refused, by token type.
_REFUSED = {
    "image": "a Markdown image is not allowed: the browser would fetch it from wherever it points",
    "html_inline": "raw HTML is not allowed: the page shows Markdown only",
    "html_block": "raw HTML is not allowed: the page shows Markdown only",
}
_DEFINITION = "a link reference definition ([name]: url) is not allowed: write the link inline"
HINT = "describe the figure in words, or give a plain link: [title](https://...); no HTML tags"


@dataclass(frozen=True)
class TextFlaw:
    """Where in a drawn problem a refused text sits (``field``, a dotted path) and what it holds."""

    field: str
    message: str
    hint: str = HINT


def _tokens(tokens: Iterable[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _tokens(token.children)


def markup_flaw(text: str) -> str | None:
    """Why ``text``, shown as Markdown, is refused (an image, raw HTML, a link definition), or None."""
    # Every image starts with "![", raw HTML with "<" and a definition holds "]:" (CommonMark allows no
    # space in either), so a text without them holds none: the parser, at ~0.1 ms a text, is spared.
    if "![" not in text and "<" not in text and "]:" not in text:
        return None
    return _parsed_flaw(text)


@lru_cache(maxsize=4096)
def _parsed_flaw(text: str) -> str | None:
    env: dict[str, object] = {}
    for token in _tokens(_PARSER.parse(text, env)):
        if token.type in _REFUSED:
            return _REFUSED[token.type]
    return _DEFINITION if env.get("references") else None


def _texts(problem: Problem) -> Iterator[tuple[str, str]]:
    """Each text ``problem`` shows, with the template field it comes from (options are shuffled)."""
    yield "title", problem.title
    yield "prompt", problem.prompt
    yield "explanation", problem.explanation
    yield "model_answer", problem.model_answer
    for index, reference in enumerate(problem.references):
        yield f"references.{index}", reference
    for index, point in enumerate(problem.key_points):
        yield f"key_points.{index}.point", point
    for index, misconception in enumerate(problem.misconceptions):
        yield f"misconceptions.{index}.name", misconception.name
        yield f"misconceptions.{index}.correction", misconception.correction
    for choice in problem.choices:
        yield "options", choice.text
        yield "options", choice.explanation
    for slip in problem.slips:
        yield "slips", slip.diagnosis
    for accepted in problem.accepted:
        yield "answer.accept", accepted.note
    if problem.choice_part is not None:
        yield "answer.choice", problem.choice_part.why
        for option in problem.choice_part.options:
            yield "answer.choice", option


def drawn_text_flaw(problem: Problem) -> TextFlaw | None:
    """The first text of a drawn problem refused by :func:`markup_flaw`, or None.

    A scenario step's field is inside ``steps.N``, except the setup and the scenario's title, which
    are the scenario's own ``prompt`` and ``title``.
    """
    texts: Iterable[tuple[str, str]] = _texts(problem)
    if isinstance(problem, StepProblem):
        shared = [("prompt", problem.setup), ("title", problem.scenario_title)]
        texts = [*shared, *((f"steps.{problem.step - 1}.{field}", text) for field, text in texts)]
    for field, text in texts:
        flaw = markup_flaw(text)
        if flaw is not None:
            return TextFlaw(field, f"{field} as drawn: {flaw}")
    return None


def _http_only(url: str) -> bool:
    return url.strip().lower().startswith(("http://", "https://"))


def _safe_renderer() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    # An image is left as its text and a link goes only to the web: Anki's card view is a browser too.
    renderer.disable("image")
    renderer.validateLink = _http_only  # type: ignore[method-assign]
    return renderer


_SAFE = _safe_renderer()


def safe_html(text: str) -> str:
    """Markdown as HTML with no image, no raw HTML (escaped as text) and links only to http(s)."""
    return _SAFE.render(text).strip()
