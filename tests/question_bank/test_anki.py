"""The Anki export, read back the way Anki reads it: the package is a zip holding an SQLite collection."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import threading
import zipfile
from pathlib import Path
from typing import IO

import pytest

from grader import grade
from grader.problem import Kind
from question_bank import generate, load_bank, load_checklist
from question_bank.__main__ import main
from question_bank.anki import FIELDS, MODEL_ID, PARENT_DECK, build_cards, card_fields, note_guid, write_anki
from question_bank.output_file import write_new

TITLES = {item.id: item.title for item in load_checklist()}


def read_package(path: Path, tmp_path: Path) -> dict[str, object]:
    """Notes (guid, fields by name, tags, deck name) and the note types, from the package's collection."""
    with zipfile.ZipFile(path) as package:
        package.extract("collection.anki2", tmp_path)
    conn = sqlite3.connect(tmp_path / "collection.anki2")
    try:
        models_json, decks_json = conn.execute("SELECT models, decks FROM col").fetchone()
        decks = {int(k): v["name"] for k, v in json.loads(decks_json).items()}
        models = {int(k): v for k, v in json.loads(models_json).items()}
        rows = conn.execute(
            "SELECT notes.guid, notes.mid, notes.flds, notes.tags, cards.did FROM notes "
            "JOIN cards ON cards.nid = notes.id"
        ).fetchall()
    finally:
        conn.close()
    notes = [
        {
            "guid": guid,
            "model": mid,
            "fields": dict(zip(FIELDS, flds.split("\x1f"), strict=True)),
            "tags": tags.split(),
            "deck": decks[did],
        }
        for guid, mid, flds, tags, did in rows
    ]
    return {"notes": notes, "models": models, "decks": set(decks.values())}


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def test_cli_writes_a_package_anki_can_read(tmp_path: Path, capsys: pytest.CaptureFixture[str], bank) -> None:
    out = tmp_path / "drill.apkg"
    assert main(["anki", "--out", str(out), "--variants", "2"]) == 0
    assert f"to {out}" in capsys.readouterr().out
    package = read_package(out, tmp_path)
    notes = package["notes"]
    assert isinstance(notes, list)
    # Every template and scenario gives notes; recall cards with nothing to vary collapse to one.
    assert {n["fields"]["Source"].split(" · ")[0] for n in notes} == set(bank.ids) | set(bank.scenario_ids)
    steps = sum(len(s.steps) for s in bank.scenarios)
    assert len(notes) <= 2 * (len(bank.ids) + steps)
    assert {MODEL_ID} == {n["model"] for n in notes}
    decks = package["decks"]
    assert isinstance(decks, set)
    assert {f"{PARENT_DECK}::{title}" for title in TITLES.values()} <= decks
    assert PARENT_DECK in decks
    for note in notes:
        item = next(tag for tag in note["tags"] if tag in TITLES)
        assert note["deck"] == f"{PARENT_DECK}::{TITLES[item]}"
        assert any(tag.startswith("difficulty::") for tag in note["tags"])


def test_note_type_has_a_type_in_front_and_every_field(tmp_path: Path, bank) -> None:
    out = tmp_path / "drill.apkg"
    write_anki(out, bank, variants=1)
    model = read_package(out, tmp_path)["models"][MODEL_ID]  # type: ignore[index]
    assert [f["name"] for f in model["flds"]] == list(FIELDS)
    (template,) = model["tmpls"]
    assert "{{type:TypeAnswer}}" in template["qfmt"]
    assert "{{Options}}" in template["qfmt"]
    assert "{{KeyPoints}}" in template["afmt"] and "{{KeyPoints}}" not in template["qfmt"]


def test_fields_follow_the_kind_of_problem(bank) -> None:
    cards, skipped = build_cards(bank, variants=1)
    assert skipped == []
    by_template = {c.fields["Source"].split(" · ")[0]: c for c in cards}
    for template in bank.templates:
        card = by_template[template.id]
        problem = generate(template, 0)
        fields = card.fields
        if problem.kind is Kind.NUMERIC:
            assert fields["TypeAnswer"], template.id
            assert fields["AcceptedRange"], template.id
            assert fields["Derivation"].startswith("<table>"), template.id
            assert fields["Options"] == fields["KeyPoints"] == ""
        elif problem.kind is Kind.CHOICE:
            assert fields["Options"].count("<li>") == len(problem.choices), template.id
            assert fields["TypeAnswer"] == ""
            right = next(c.text for c in problem.choices if c.correct)
            assert right.split()[0] in fields["Answer"]
        else:
            assert fields["KeyPoints"].count("<li>") == len(problem.key_points), template.id
            assert fields["TypeAnswer"] == fields["Options"] == ""


def test_numeric_answer_is_the_exact_answer_in_the_question_unit(bank) -> None:
    cards, _ = build_cards(bank, variants=1, checklist=["kv-cache"])
    card = next(c for c in cards if c.fields["Source"].startswith("kv-bytes-per-token "))
    problem = generate(bank.get("kv-bytes-per-token"), 0)
    from grader.units import format_quantity

    assert card.fields["TypeAnswer"] == format_quantity(problem.answer, problem.unit).strip()


def test_guids_are_stable_across_exports_and_differ_by_seed(tmp_path: Path, bank) -> None:
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    write_anki(first, bank, variants=2, seed=7)
    write_anki(second, bank, variants=2, seed=7)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    guids_a = {n["guid"] for n in read_package(first, tmp_path / "a")["notes"]}  # type: ignore[union-attr]
    guids_b = {n["guid"] for n in read_package(second, tmp_path / "b")["notes"]}  # type: ignore[union-attr]
    assert guids_a == guids_b
    assert note_guid("kv-bytes-per-token", 7) in guids_a
    assert note_guid("kv-bytes-per-token", 7) != note_guid("kv-bytes-per-token", 8)


def test_filter_by_checklist_item(tmp_path: Path, bank) -> None:
    out = tmp_path / "kv.apkg"
    assert main(["anki", "--out", str(out), "--checklist", "kv-cache", "fusion", "--variants", "1"]) == 0
    notes = read_package(out, tmp_path)["notes"]
    decks = {n["deck"] for n in notes}  # type: ignore[union-attr]
    assert decks == {f"{PARENT_DECK}::{TITLES['kv-cache']}", f"{PARENT_DECK}::{TITLES['fusion']}"}
    expected = {t.id for t in bank.templates if t.checklist in {"kv-cache", "fusion"}} | {
        s.id for s in bank.scenarios if any(step.checklist in {"kv-cache", "fusion"} for step in s.steps)
    }
    assert {n["fields"]["Source"].split(" · ")[0] for n in notes} == expected  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("out_name", "argv", "says"),
    [
        ("x.apkg", ["--checklist", "kv-cach"], "unknown checklist item kv-cach"),
        ("missing/x.apkg", [], "no such folder"),
        ("x.zip", [], "ending in .apkg"),
    ],
)
def test_cli_refuses_bad_options_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out_name: str, argv: list[str], says: str
) -> None:
    out = tmp_path / out_name
    assert main(["anki", "--out", str(out), *argv]) == 2
    assert says in capsys.readouterr().out
    assert not out.exists()


def test_cli_refuses_a_variant_count_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["anki", "--out", str(tmp_path / "x.apkg"), "--variants", "0"])
    assert exit_info.value.code == 2
    assert "give 1 to" in capsys.readouterr().err


def test_prompt_markdown_becomes_html_and_raw_html_stays_text() -> None:
    from question_bank.anki import markdown_html

    assert (
        markdown_html("**Falcon** has `2` heads") == "<p><strong>Falcon</strong> has <code>2</code> heads</p>"
    )
    assert "<script>" not in markdown_html("<script>x</script>")


def test_scenario_steps_become_cards_with_the_setup_and_earlier_answers(bank) -> None:
    from question_bank.scenarios import generate_scenario

    scenario = bank.scenarios[0]
    chain = generate_scenario(scenario, 4)
    cards, _ = build_cards(bank, variants=1, seed=4)
    mine = [c for c in cards if c.fields["Source"].startswith(f"{scenario.id} · step ")]
    assert len(mine) == len(chain.steps)
    last = next(c for c in mine if c.fields["Source"] == f"{scenario.id} · step {len(chain.steps)} · seed 4")
    assert f"step {len(chain.steps)} of {len(chain.steps)}" in last.fields["Prompt"]
    first_numeric = next(s for s in chain.steps if s.kind is Kind.NUMERIC)
    from grader.units import format_quantity

    assert format_quantity(first_numeric.answer, first_numeric.unit).strip() in last.fields["Prompt"]
    assert f"scenario::{scenario.id}" in last.tags
    assert len({c.guid for c in mine}) == len(mine)


def test_a_binary_unit_question_shows_its_derivation_in_binary_units(bank) -> None:
    binary = [t for t in bank.templates if t.kind == "numeric" and "iB" in t.answer.unit]
    assert binary, "the bank asks some sizes in binary units"
    cards, _ = build_cards(bank, variants=1)
    for template in binary:
        card = next(c for c in cards if c.fields["Source"].startswith(f"{template.id} "))
        derivation = card.fields["Derivation"]
        assert "iB" in derivation, template.id
        assert not re.search(r"\d [KMGT]B\b", derivation), template.id


def _anki_aside(argv: list[str]) -> int | None:
    """``main(argv)`` in a thread, so that a write that blocks (a FIFO with no reader) fails the test."""
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(main(argv)), daemon=True)
    worker.start()
    worker.join(timeout=120)
    return done[0] if done else None


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "forced"])
def test_cli_refuses_a_fifo_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    fifo = tmp_path / "pipe.apkg"
    os.mkfifo(fifo)
    assert _anki_aside(["anki", "--out", str(fifo), "--variants", "1", *force]) == 2
    assert "is not a regular file (a FIFO, a device or a socket)" in capsys.readouterr().out
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "forced"])
def test_cli_never_writes_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("precious", encoding="utf-8")
    link = tmp_path / "drill.apkg"
    link.symlink_to(kept)
    assert _anki_aside(["anki", "--out", str(link), "--variants", "1", *force]) == 2
    assert "is a symbolic link" in capsys.readouterr().out
    assert kept.read_text(encoding="utf-8") == "precious" and link.is_symlink()


def test_cli_overwrites_an_existing_file_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "drill.apkg"
    out.write_bytes(b"an older export")
    assert main(["anki", "--out", str(out), "--variants", "1"]) == 2
    assert "already exists; add --force to overwrite it" in capsys.readouterr().out
    assert out.read_bytes() == b"an older export"
    assert main(["anki", "--out", str(out), "--variants", "1", "--force"]) == 0
    assert read_package(out, tmp_path)["notes"]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_a_file_that_appears_during_the_write_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "drill.apkg"

    def write(file: IO[bytes]) -> None:
        file.write(b"new package")
        out.write_bytes(b"written meanwhile")

    with pytest.raises(FileExistsError):
        write_new(out, write, force=False)
    assert out.read_bytes() == b"written meanwhile"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["drill.apkg"]


def test_choice_options_are_numbered_from_one_and_the_right_one_by_its_number(bank) -> None:
    for template in bank.templates:
        problem = generate(template, 0)
        if problem.kind is not Kind.CHOICE:
            continue
        fields = card_fields(problem)
        assert 'start="0"' not in fields["Options"] and fields["Options"].startswith("<ol>"), template.id
        number = next(i for i, c in enumerate(problem.choices, start=1) if c.correct)
        assert fields["Answer"].startswith(f"<p><b>{number}. "), template.id


def test_a_numeric_card_says_the_accepted_range_decides_not_the_typed_text(bank) -> None:
    problem = generate(bank.get("decode-13b-a100"), 0)
    fields = card_fields(problem)
    low, high = grade(problem, fields["TypeAnswer"]).accepted_range
    assert f"{low:.4g} to {high:.4g} {problem.unit}" in fields["AcceptedRange"]
    assert "This range decides" in fields["AcceptedRange"]
    # An answer a hair off the exact text, which Anki's letter-by-letter check calls a mismatch, is right.
    rounded = f"{problem.answer * 1.005 * 1000:.4g} ms"
    assert rounded != fields["TypeAnswer"] and grade(problem, rounded).correct
