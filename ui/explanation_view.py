"""Typed explanations on screen: the box and its clock, the key-point checks, overrules and the rating.

Shared by practice (check right away) and the mock debrief (check after the clock). The checks come
from :func:`grader.check_explanation`; each key point and misconception gets a checkbox the user may
flip to overrule it, and the rating the final verdicts suggest is the highlighted button. Widget keys
are built from a page prefix (``practice_point_2``, ``mock_point_3_2``) so two pages never share one.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime

import streamlit as st

from grader import ExplanationCheck, ExplanationRecord, VerdictStatus, check_explanation, grade
from grader.explain.check import MAX_EXPLANATION_CHARS
from grader.markdown import bank_markdown
from grader.problem import Kind, Problem
from ui import state_keys as keys
from ui.cached import bank as cached_bank
from ui.context import now
from ui.probes import probe_problem

RATINGS = ("again", "hard", "good", "easy")
#: Said when a typed answer reached that length: the box keeps no more, so the rest may have been cut.
AT_LIMIT = (
    f"This reached the {MAX_EXPLANATION_CHARS:,}-character limit: only that much is checked and kept, "
    "so anything past it was cut."
)
#: The clock choices for typing an explanation (seconds; 0 is no clock).
TIMER_CHOICES = (0, 60, 120, 180)

# Characters Streamlit's Markdown would read as formatting (and $ as LaTeX): typed text shows as typed.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&=])")


def escape_markdown(text: str) -> str:
    """``text`` with every Markdown-active character escaped, and line breaks kept."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


def highlighted_markdown(text: str, check: ExplanationCheck) -> str:
    """The explanation as Markdown: words that made a point on blue, a misconception's or a sum worked out
    wrong on red."""
    marks = [(start, end, "blue") for spans in check.spans for start, end in spans]
    marks += [(start, end, "red") for spans in check.misconception_spans for start, end in spans]
    marks += [(start, end, "red") for start, end in check.slip_spans]
    out: list[str] = []
    cursor = 0
    # A misconception's mark wins over a point's where they overlap: it is the thing to notice.
    for start, end, colour in sorted(marks, key=lambda m: (m[0], m[2] != "red", -m[1])):
        if start < cursor:
            continue
        out.append(escape_markdown(text[cursor:start]))
        inner = escape_markdown(text[start:end]).replace("  \n", " ")
        out.append(f":{colour}-background[{inner}]")
        cursor = end
    out.append(escape_markdown(text[cursor:]))
    return "".join(out)


# The checks of the explanations on screen. Every rerun draws the checks again (a tick of the clock, an
# overrule), and checking a long text costs far more than drawing it: each text is checked once.
_CHECKS: OrderedDict[tuple[object, ...], ExplanationCheck] = OrderedDict()
_CHECKS_LOCK = threading.Lock()
_CHECKS_KEPT = 32


def checked(problem: Problem, text: str) -> ExplanationCheck:
    """:func:`grader.check_explanation` of ``text``, remembered for the explanations recently on screen."""
    key = (
        problem.template_id,
        problem.seed,
        getattr(problem, "step", None),
        problem.prompt,
        tuple(problem.key_points),
        tuple(m.name for m in problem.misconceptions),
        text,
    )
    with _CHECKS_LOCK:
        found = _CHECKS.get(key)
        if found is not None:
            _CHECKS.move_to_end(key)
            return found
    fresh = check_explanation(problem, text)
    with _CHECKS_LOCK:
        _CHECKS[key] = fresh
        while len(_CHECKS) > _CHECKS_KEPT:
            _CHECKS.popitem(last=False)
    return fresh


def _point_key(prefix: str, index: int) -> str:
    return f"{prefix}{index}"


def record_from_state(
    problem: Problem,
    text: str,
    *,
    point_prefix: str,
    misconception_prefix: str,
    rating: str,
    seconds: float | None = None,
    time_limit_s: float | None = None,
) -> ExplanationRecord:
    """The explanation as checked, with the overrules the user made through the checkboxes."""
    check = checked(problem, text)
    overrides: dict[int, bool] = {}
    for i, hit in enumerate(check.hits):
        chosen = st.session_state.get(_point_key(point_prefix, i), hit)
        if bool(chosen) != hit:
            overrides[i] = bool(chosen)
    dismissed = {
        name: bool(st.session_state.get(_point_key(misconception_prefix, j), True))
        for j, name in enumerate(check.misconceptions)
    }
    slips_kept = {
        slip: bool(st.session_state.get(_slip_key(misconception_prefix, k), True))
        for k, slip in enumerate(check.slips)
    }
    probes: dict[int, bool] = {}
    for i in range(len(check.hits)):
        answered = st.session_state.get(_probe_result_key(point_prefix, i))
        if isinstance(answered, dict) and "correct" in answered:
            probes[i] = bool(answered["correct"])
    return ExplanationRecord(
        text=text,
        check=check,
        overrides=overrides,
        misconception_overrides={name: kept for name, kept in dismissed.items() if not kept},
        probes=probes,
        slip_overrides={slip: kept for slip, kept in slips_kept.items() if not kept},
        rating=rating,
        seconds=seconds,
        time_limit_s=time_limit_s,
    )


def _slip_key(misconception_prefix: str, index: int) -> str:
    return f"{misconception_prefix}slip_{index}"


def _probe_key(point_prefix: str, index: int) -> str:
    return f"{point_prefix}probe_{index}"


def _probe_result_key(point_prefix: str, index: int) -> str:
    return f"{point_prefix}probe_result_{index}"


def _answer_probe(probe: Problem, index: int, point_prefix: str) -> None:
    """Grade the follow-up; right, it ticks its key point (the user may still untick it)."""
    response = st.session_state.get(_probe_key(point_prefix, index))
    verdict = grade(probe, "" if response is None else str(response))
    if verdict.status is VerdictStatus.UNPARSABLE:
        st.session_state[_probe_result_key(point_prefix, index)] = {"message": verdict.message}
        return
    st.session_state[_probe_result_key(point_prefix, index)] = {
        "correct": verdict.correct,
        "message": verdict.message,
    }
    if verdict.correct:
        st.session_state[_point_key(point_prefix, index)] = True


def _show_probe(problem: Problem, index: int, point_prefix: str) -> None:
    """The follow-up an interviewer would ask about a point the check did not find, and its result."""
    probe = probe_problem(problem, index, cached_bank())
    if probe is None:
        return
    answered = st.session_state.get(_probe_result_key(point_prefix, index))
    with st.expander("Follow-up question on this point", expanded=answered is not None):
        st.markdown(bank_markdown(probe.prompt))
        if probe.kind is Kind.CHOICE:
            st.radio(
                "Your answer",
                list(range(len(probe.choices))),
                format_func=lambda i: probe.choices[i].text,
                index=None,
                key=_probe_key(point_prefix, index),
            )
        else:
            st.text_input(f"Your answer ({probe.unit})", key=_probe_key(point_prefix, index))
        st.button(
            "Answer the follow-up",
            key=f"{_probe_key(point_prefix, index)}_check",
            on_click=_answer_probe,
            args=(probe, index, point_prefix),
        )
        if isinstance(answered, dict):
            if "correct" not in answered:
                st.warning(str(answered.get("message", "")))
            elif answered["correct"]:
                st.success("Right: the point counts as made on the follow-up.")
            else:
                st.error("Not right: " + str(answered.get("message", "")))


def _point_caption(check: ExplanationCheck, index: int) -> str:
    """Where a key point was made, or the figure that kept it from being made, or that it is missing."""
    if check.hits[index]:
        sentence = check.sentences[index] if index < len(check.sentences) else ""
        if sentence:
            return "Made in: “" + escape_markdown(" ".join(sentence.split())) + "”"
        return "Found: " + ", ".join(f"“{escape_markdown(w)}”" for w in check.evidence[index])
    typed, expected = check.wrong_figures[index] if index < len(check.wrong_figures) else ("", "")
    if typed:
        return (
            f"Not made: your {escape_markdown(typed)} is not this point's figure; "
            f"it is about {escape_markdown(expected)}."
        )
    if index < len(check.contradicted) and check.contradicted[index]:
        said = check.denial_sentences[index] if index < len(check.denial_sentences) else ""
        if said:
            return (
                "Not made: you wrote “"
                + escape_markdown(" ".join(said.split()))
                + "”, the opposite of this point."
            )
        return "Not made: what you wrote says the opposite of this point."
    return "Not found in what you wrote."


def show_checks(
    problem: Problem, text: str, *, point_prefix: str, misconception_prefix: str
) -> ExplanationRecord:
    """The typed text with its evidence highlighted, one checkbox per key point and misconception.

    Each point says the sentence that made it, the wrong figure, or that it is missing; each
    misconception quotes the sentence that says it. The counts follow the ticks, overrules included.
    Returns the record as the checkboxes stand now (its ``suggested_rating`` follows the overrules).
    """
    check = checked(problem, text)
    with st.container(border=True):
        st.markdown("**What you wrote**")
        st.markdown(highlighted_markdown(text, check))
    if check.truncated:
        st.caption(f"Only the first {MAX_EXPLANATION_CHARS:,} characters were read.")
    if not check.checkable:
        st.info("This question has no rubric to check against: compare with the key points yourself.")
    if check.salad:
        # Say why points are missing: otherwise a list of the right terms looks like a checker miss.
        st.warning(
            "This reads as terms strung together more than as claims that link them, so at most one "
            "key point counts. Say what causes what (“X, so Y”), or tick the points you did make.",
            icon=":material/format_list_bulleted:",
        )
    # Drawn once the checkboxes below are, so that the count is that of the ticks, overrules included.
    header = st.empty()
    ticked = 0
    for i, (point, hit) in enumerate(zip(problem.key_points, check.hits, strict=True)):
        ticked += bool(st.checkbox(bank_markdown(point), value=hit, key=_point_key(point_prefix, i)))
        st.caption(_point_caption(check, i))
        if not hit:
            _show_probe(problem, i, point_prefix)
    header.markdown(
        f"**Key points**: {ticked} of {len(check.hits)} made. Tick or untick one to overrule the check."
    )
    by_name = {m.name: m for m in problem.misconceptions}
    for j, name in enumerate(check.misconceptions):
        correction = by_name[name].correction if name in by_name else ""
        st.error(f"**Misconception: {name}.** {correction}", icon=":material/report:")
        if j < len(check.misconception_sentences) and check.misconception_sentences[j]:
            said = " ".join(check.misconception_sentences[j].split())
            st.caption("You wrote: “" + escape_markdown(said) + "”")
        st.checkbox(
            "I did say this (untick if it was read wrongly)",
            value=True,
            key=_point_key(misconception_prefix, j),
        )
    for k, slip in enumerate(check.slips):
        st.error(f"**Arithmetic slip:** {escape_markdown(slip)}.", icon=":material/calculate:")
        st.checkbox(
            "It is a slip (untick if the sum was read wrongly)",
            value=True,
            key=_slip_key(misconception_prefix, k),
        )
    return record_from_state(
        problem, text, point_prefix=point_prefix, misconception_prefix=misconception_prefix, rating=""
    )


def rating_buttons(
    suggested: str,
    *,
    key_prefix: str,
    on_rate: Callable[..., None],
    args: Sequence[object] = (),
    shortcuts: Sequence[str] | None = None,
) -> None:
    """The four ratings, the suggested one highlighted; ``on_rate(*args, rating)`` on a click."""
    st.markdown(f"Suggested rating: **{suggested.capitalize()}**. Confirm it or pick another.")
    for n, (column, rating) in enumerate(zip(st.columns(len(RATINGS)), RATINGS, strict=True)):
        column.button(
            rating.capitalize(),
            key=f"{key_prefix}{rating}",
            type="primary" if rating == suggested else "secondary",
            on_click=on_rate,
            args=(*args, rating),
            width="stretch",
            shortcut=shortcuts[n] if shortcuts else None,
        )


# --- practice: the box and its clock ------------------------------------------------------------------


def _start_clock() -> None:
    st.session_state[keys.PRACTICE_TIMER_STARTED] = now().isoformat()


def timer_seconds() -> int:
    """The clock the user chose for this explanation (0: none)."""
    return int(st.session_state.get(keys.PRACTICE_TIMER) or 0)


@st.fragment(run_every="1s")
def _clock(limit_s: int, started_iso: str) -> None:
    left = limit_s - (now() - datetime.fromisoformat(started_iso)).total_seconds()
    if left > 0:
        st.progress(min(1.0, left / limit_s), text=f"{int(left) + 1} s left")
    else:
        st.warning("Time is up: check what you have.", icon=":material/timer_off:")


def explanation_input(*, on_check: Callable[[], None]) -> None:
    """The text area, the optional clock and the button that checks the explanation."""
    st.text_area(
        "Your explanation (optional)",
        key=keys.PRACTICE_EXPLANATION,
        placeholder="Explain it as you would out loud in an interview…",
        height=160,
        max_chars=MAX_EXPLANATION_CHARS,
    )
    clock_col, check_col = st.columns([2, 1], vertical_alignment="bottom")
    clock_col.selectbox(
        "Clock",
        TIMER_CHOICES,
        key=keys.PRACTICE_TIMER,
        format_func=lambda s: "No clock" if not s else f"Answer in {s} s",
        on_change=_start_clock,
    )
    check_col.button("Check my explanation", key=keys.PRACTICE_CHECK, type="primary", on_click=on_check,
                     width="stretch")  # fmt: skip
    limit_s = timer_seconds()
    started = st.session_state.get(keys.PRACTICE_TIMER_STARTED)
    if limit_s and started:
        _clock(limit_s, started)


def practice_seconds(started_at: datetime, *, at: datetime) -> tuple[float, float | None]:
    """Seconds spent on the explanation (from the clock's start when one runs) and the clock's limit."""
    limit_s = timer_seconds()
    started = st.session_state.get(keys.PRACTICE_TIMER_STARTED)
    since = datetime.fromisoformat(started) if limit_s and started else started_at
    return max(0.0, (at - since).total_seconds()), (float(limit_s) if limit_s else None)


def reset_practice_explanation() -> None:
    """A new problem: an empty box, no checks, no overrules; a chosen clock starts again now."""
    for key in [k for k in st.session_state if str(k).startswith(_OVERRULE_PREFIXES)]:
        del st.session_state[key]
    st.session_state.pop(keys.PRACTICE_CHECKED, None)
    st.session_state[keys.PRACTICE_EXPLANATION] = ""
    if timer_seconds():
        _start_clock()
    else:
        st.session_state.pop(keys.PRACTICE_TIMER_STARTED, None)


_OVERRULE_PREFIXES = (keys.PRACTICE_POINT_PREFIX, keys.PRACTICE_MISCONCEPTION_PREFIX)


def check_practice_explanation(started_at: datetime) -> None:
    """Keep the typed explanation as checked (with its time, no more than :data:`MAX_EXPLANATION_CHARS`);
    a notice when there is nothing to check.

    ``started_at`` is when the question (or scenario step) appeared, for the time spent without a clock.
    """
    text = str(st.session_state.get(keys.PRACTICE_EXPLANATION) or "").strip()
    if not text:
        st.session_state[keys.PRACTICE_NOTICE] = (
            "Type your explanation first, or press **Show the model answer** to rate yourself."
        )
        return
    # The box keeps no more than the cap (Streamlit cuts what the browser sends): a text at the cap
    # may have been cut, and the checks say so.
    text = text[:MAX_EXPLANATION_CHARS]
    seconds, limit_s = practice_seconds(started_at, at=now())
    st.session_state[keys.PRACTICE_CHECKED] = {
        "text": text,
        "seconds": seconds,
        "time_limit_s": limit_s,
        "at_limit": len(text) >= MAX_EXPLANATION_CHARS - 1,  # less a space stripped at the cut
    }
    st.session_state.pop(keys.PRACTICE_NOTICE, None)


def practice_record(problem: Problem, rating: str) -> ExplanationRecord | None:
    """The checked explanation with the user's overrules and chosen rating, or None when none was checked."""
    checked = st.session_state.get(keys.PRACTICE_CHECKED)
    if not checked:
        return None
    return record_from_state(
        problem,
        str(checked["text"]),
        point_prefix=keys.PRACTICE_POINT_PREFIX,
        misconception_prefix=keys.PRACTICE_MISCONCEPTION_PREFIX,
        rating=rating,
        seconds=checked.get("seconds"),
        time_limit_s=checked.get("time_limit_s"),
    )


def show_practice_checks(
    problem: Problem,
    *,
    on_rate: Callable[[str], None],
    shortcuts: Sequence[str],
    rate_prefix: str = keys.PRACTICE_RATE_PREFIX,
) -> None:
    """After the check: the checks to confirm or overrule, the model answer, the rating buttons."""
    checked = st.session_state[keys.PRACTICE_CHECKED]
    record = show_checks(
        problem,
        str(checked["text"]),
        point_prefix=keys.PRACTICE_POINT_PREFIX,
        misconception_prefix=keys.PRACTICE_MISCONCEPTION_PREFIX,
    )
    if checked.get("time_limit_s"):
        st.caption(f"Written in {checked['seconds']:.0f} s against a {checked['time_limit_s']:.0f} s clock.")
    if checked.get("at_limit"):
        st.warning(AT_LIMIT)
    with st.container(border=True):
        st.markdown("**Model answer**")
        st.markdown(bank_markdown(problem.model_answer or problem.explanation))
    rating_buttons(record.suggested_rating, key_prefix=rate_prefix, on_rate=on_rate, shortcuts=shortcuts)


#: Keyboard shortcuts of the four ratings, as in flash-card tools (Streamlit shows each on its button).
RATING_SHORTCUTS = ("1", "2", "3", "4")


def show_recall_answer(
    problem: Problem,
    *,
    started_at: datetime,
    revealed: bool,
    on_reveal: Callable[[], None],
    on_rate: Callable[[str], None],
    reveal_key: str,
    rate_prefix: str,
) -> None:
    """A recall answer on practice (a question or a scenario's step): explain it or reveal, then rate.

    Typed and checked: the checks to confirm or overrule, the model answer and the suggested rating.
    Not typed: **Show the model answer** (``on_reveal``; the caller keeps ``revealed``), then the key
    points and a self-rating. ``on_rate(rating)`` gets the rating; :func:`practice_record` then holds
    the checked explanation, if any. ``started_at`` is when the question appeared.
    """
    if keys.PRACTICE_CHECKED in st.session_state:
        show_practice_checks(problem, on_rate=on_rate, shortcuts=RATING_SHORTCUTS, rate_prefix=rate_prefix)
    elif not revealed:
        st.info("Write it as you would say it and check it against the key points, or answer out loud.")
        explanation_input(on_check=lambda: check_practice_explanation(started_at))
        st.button("Show the model answer", key=reveal_key, type="secondary", on_click=on_reveal, shortcut="S")
    else:
        st.markdown("**Key points**\n\n" + "\n".join(f"- {bank_markdown(p)}" for p in problem.key_points))
        if problem.explanation:
            st.markdown(bank_markdown(problem.explanation))
        st.markdown("How well did you recall it?")
        columns = st.columns(len(RATINGS))
        for column, rating, shortcut in zip(columns, RATINGS, RATING_SHORTCUTS, strict=True):
            column.button(
                rating.capitalize(),
                key=rate_prefix + rating,
                on_click=on_rate,
                args=(rating,),
                width="stretch",
                shortcut=shortcut,
            )


# --- mock debrief ---------------------------------------------------------------------------------------


def show_mock_checks(
    problem: Problem,
    response: str,
    *,
    position: int,
    seconds: float,
    on_rate: Callable[[int, str, dict[str, object]], None],
) -> None:
    """A mock's recall answer at the debrief: its checks to confirm or overrule, then the rating buttons.

    ``on_rate(position, rating, explanation)`` gets the record (as stored) built when the button is
    clicked, so the overrules made until then count.
    """
    point_prefix = f"{keys.MOCK_POINT_PREFIX}{position}_"
    misconception_prefix = f"{keys.MOCK_MISCONCEPTION_PREFIX}{position}_"
    if len(response) > MAX_EXPLANATION_CHARS:  # stored before answers were cut to that length
        st.caption(f"Only the first {MAX_EXPLANATION_CHARS:,} of its {len(response):,} characters are read.")
        response = response[:MAX_EXPLANATION_CHARS]
    record = show_checks(
        problem, response, point_prefix=point_prefix, misconception_prefix=misconception_prefix
    )

    def rate(rating: str) -> None:
        final = record_from_state(
            problem,
            response,
            point_prefix=point_prefix,
            misconception_prefix=misconception_prefix,
            rating=rating,
            seconds=seconds,
        )
        on_rate(position, rating, dict(final.to_dict()))

    rating_buttons(record.suggested_rating, key_prefix=f"{keys.MOCK_RATE_PREFIX}{position}_", on_rate=rate)


def show_confirmed_checks(problem: Problem, explanation: dict[str, object]) -> None:
    """The key points a rated explanation made and missed, as the user confirmed them."""
    made = list(explanation.get("made") or [])  # type: ignore[call-overload]
    if len(made) != len(problem.key_points):
        return
    lines = [
        "- "
        + (":green[:material/check:] made" if hit else ":red[:material/close:] missed")
        + f": {bank_markdown(point)}"
        for hit, point in zip(made, problem.key_points, strict=True)
    ]
    st.markdown(f"**Key points made: {sum(map(bool, made))} of {len(made)}**\n" + "\n".join(lines))
    for name in explanation.get("standing_misconceptions") or []:  # type: ignore[attr-defined]
        st.caption(f"Misconception: {name}")
