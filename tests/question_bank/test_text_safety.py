"""Bank texts that a browser would fetch from or run: refused by ``validate`` as written and as drawn."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_scenarios import HEAD, KV, _good_steps, _step

from question_bank import load_bank
from question_bank.__main__ import main
from question_bank.anki import build_cards
from question_bank.bank import Bank
from question_bank.templates import RecallTemplate
from question_bank.text_safety import markup_flaw, safe_html

EVIL = "http://evil.example/pixel.png"

FIELDS = {
    "title": "Why 2P",
    "prompt": "Why is it 2P FLOPs per token? {link}",
    "point": "one multiply-add per weight",
    "name": "one FLOP per multiply-add",
    "correction": "two",
    "model_answer": "Every weight does one multiply-add per token: 2 flops each, attention ignored.",
    "explanation": "Each weight is read once and used in one multiply-add.",
    "reference": "kipply",
    "link": "[the post](https://kipp.ly/transformer-inference-arithmetic/)",
}
TEMPLATE = """templates:
  - id: hostile
    checklist: two-p-flops
    kind: recall
    difficulty: 1
    title: {title}
    prompt: {prompt}
    params:
      link: {{choice: [{link}]}}
    key_points:
      - {{point: {point}, concepts: [[one multiply-add per token]]}}
      - {{point: two FLOPs each, concepts: [[2 flops each]]}}
      - {{point: attention ignored, concepts: [[attention ignored]]}}
    misconceptions:
      - {{name: {name}, correction: {correction}, concepts: [[one flop per multiply-add]]}}
      - {{name: 2P counts attention, correction: it does not, concepts: [[2p counts attention]]}}
    model_answer: {model_answer}
    explanation: {explanation}
    references: [{reference}]
"""
#: The line of each field in TEMPLATE.
LINES = {"title": 6, "prompt": 7, "link": 9, "point": 11, "name": 15, "correction": 15}
LINES |= {"model_answer": 17, "explanation": 18, "reference": 19}


def _bank_file(tmp_path: Path, **fields: str) -> Path:
    path = tmp_path / "hostile.yaml"
    # A JSON string is a YAML double-quoted scalar: any text, escapes and line breaks included.
    values = {key: json.dumps(value) for key, value in (FIELDS | fields).items()}
    path.write_text(TEMPLATE.format(**values), encoding="utf-8")
    return path


def _validate(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["validate", str(path)]) == 1
    return capsys.readouterr().out


def test_the_hostile_template_is_fine_without_its_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The control: what the tests below change is the one field they name.
    assert main(["validate", str(_bank_file(tmp_path))]) == 0
    # The shipped bank plus this one template: the count follows the bank as it grows.
    shipped = load_bank()
    count = len(shipped.templates) + len(shipped.scenarios) + 1
    assert capsys.readouterr().out.startswith(f"OK: {count} templates")


IMAGES = {
    "nested brackets in the alt text": f"See ![a [b] c]({EVIL}) here.",
    "an escaped bracket in the alt text": f"See ![a \\] b]({EVIL}) here.",
    "a line break in the alt text": f"See ![a\nb]({EVIL}) here.",
    "an image by reference": f"See ![chart][c].\n\n[c]: {EVIL}",
    "an image inside a link": f"See [![x]({EVIL})](https://example.com).",
    "a plain image": f"![chart]({EVIL})",
}


@pytest.mark.parametrize("image", IMAGES.values(), ids=IMAGES.keys())
@pytest.mark.parametrize("field", ["prompt", "explanation", "reference", "title", "point", "name"])
def test_an_image_in_any_text_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, image: str
) -> None:
    path = _bank_file(tmp_path, **{field: image})
    out = _validate(path, capsys)
    assert f"{path}:{LINES[field]}: [hostile]" in out
    assert "a Markdown image is not allowed" in out
    assert "1 problem found." in out


@pytest.mark.parametrize("field", ["correction", "model_answer"])
def test_an_image_in_a_correction_or_model_answer_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    path = _bank_file(tmp_path, **{field: f"See ![a [b] c]({EVIL})."})
    assert f"{path}:{LINES[field]}: [hostile]" in _validate(path, capsys)


HTML = {
    "an inline tag with an event attribute": f'See <img src="{EVIL}" onerror="alert(1)"> here.',
    "a script block": "<script>fetch('http://evil.example/')</script>",
    "a block of HTML": "<div>\nhello\n</div>",
    "a comment": "See <!-- hidden --> here.",
}


@pytest.mark.parametrize("markup", HTML.values(), ids=HTML.keys())
def test_raw_html_in_a_text_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], markup: str
) -> None:
    path = _bank_file(tmp_path, explanation=markup)
    out = _validate(path, capsys)
    assert f"{path}:{LINES['explanation']}: [hostile]" in out and "raw HTML is not allowed" in out


def test_a_parameter_that_completes_an_image_is_refused_as_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Neither "!{link}" nor "[x](...)" is an image as written; the drawn prompt is one.
    path = _bank_file(tmp_path, prompt="Why 2P? !{link}", link=f"[x]({EVIL})")
    out = _validate(path, capsys)
    where = f"{path}:{LINES['prompt']}: [hostile] prompt: seed 0:"
    assert f"{where} prompt as drawn: a Markdown image is not allowed" in out


def test_a_parameter_that_completes_raw_html_is_refused_as_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bank_file(tmp_path, prompt="Why 2P? <{link}>", link='img src="http://evil.example/"')
    assert "prompt as drawn: raw HTML is not allowed" in _validate(path, capsys)


def test_a_scenario_setup_or_step_completed_into_an_image_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = f'      link: {{choice: ["[x]({EVIL})"]}}\n'
    head = HEAD.replace("    references:", link + "    references:")
    steps = _good_steps()
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "s.yaml").write_text(head.replace("tokens.", "tokens. !{link}") + "".join(steps))
    out = _validate(folder, capsys)
    assert "[scenario-small] prompt: seed 0: step 1: prompt as drawn: a Markdown image" in out
    steps[1] = _step(
        id="kv_token", call="kv_cache_bytes_per_token", with_=KV, unit="KiB", prompt='"Per token? !{link}"'
    )
    (folder / "s.yaml").write_text(head + "".join(steps))
    out = _validate(folder, capsys)
    assert "[scenario-small] steps.1.prompt: seed 0: step 2: steps.1.prompt as drawn: a Markdown image" in out


@pytest.mark.parametrize(
    "text",
    [
        "A plain [link](https://kipp.ly/) and an autolink <https://horace.io/brrr_intro.html>.",
        "Compare: a < b, b > c, and `<img>` in code.",
        "Exclaim! [then a link](https://example.com)",
        "An escaped \\![not an image](https://example.com)",
    ],
)
def test_links_comparisons_and_code_are_fine(text: str) -> None:
    assert markup_flaw(text) is None


class _Tags(HTMLParser):
    """Every start tag of an HTML text, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


HOSTILE_MARKDOWN = "\n\n".join(
    [
        *IMAGES.values(),
        *HTML.values(),
        "[click](javascript:alert(1)) [mail](mailto:a@b.c) [local](file:///etc/passwd) [rel](../x)",
        "<javascript:alert(1)> [data](data:text/html;base64,PHNjcmlwdD4=)",
        '[titled](https://example.com "x\\" onmouseover=\\"alert(1)") [ok](https://kipp.ly/)',
    ]
)


def _assert_safe(html: str) -> None:
    tags = _tags(html)
    assert tags, "the text renders as HTML"
    assert {tag for tag, _ in tags} <= {"p", "a", "em", "strong", "code", "br", "b", "ul", "ol", "li", "i"}
    for _, attrs in tags:
        assert not [name for name in attrs if name.startswith("on")], attrs
        assert set(attrs) <= {"href", "title", "start"}, attrs
    hrefs = [attrs["href"] for tag, attrs in tags if tag == "a"]
    assert hrefs and all(str(href).startswith(("http://", "https://")) for href in hrefs), hrefs


def test_safe_html_has_no_image_no_script_no_event_and_web_links_only() -> None:
    html = safe_html(HOSTILE_MARKDOWN)
    _assert_safe(html)
    assert "https://kipp.ly/" in html and "&lt;script&gt;" in html  # kept as text, not dropped


def test_an_anki_card_of_a_hostile_template_is_sanitised(tmp_path: Path) -> None:
    # Built past validate, as a bank that slipped through would be: every card field is safe HTML.
    path = _bank_file(tmp_path)
    template = load_bank([path], include_shipped=False).get("hostile")
    assert isinstance(template, RecallTemplate)
    hostile = template.model_copy(
        update={
            "title": HOSTILE_MARKDOWN,
            "prompt": "Why 2P? !{link} " + HOSTILE_MARKDOWN,
            "explanation": HOSTILE_MARKDOWN,
            "model_answer": HOSTILE_MARKDOWN,
            "references": [HOSTILE_MARKDOWN],
            "key_points": [
                point.model_copy(update={"point": HOSTILE_MARKDOWN.replace("\n\n", " ")})
                for point in template.key_points
            ],
        }
    )
    cards, skipped = build_cards(Bank(templates=[hostile]), variants=2)
    assert not skipped and cards
    for card in cards:
        for name, html in card.fields.items():
            if html:
                assert "<img" not in html and "<script" not in html, name
                for tag, attrs in _tags(html):
                    assert not [a for a in attrs if a.startswith("on")], (name, tag, attrs)
                    href = attrs.get("href")
                    assert href is None or str(href).startswith(("http://", "https://")), (name, href)
    assert any(_tags(card.fields["Prompt"]) for card in cards)
