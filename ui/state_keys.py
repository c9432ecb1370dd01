"""Every session-state key the app uses, in one place.

Widget keys are prefixed with their page so that two pages never share a widget by accident.
"""

from __future__ import annotations

# --- per-session context, set by ui.context.init_session ---------------------------------------
#: Path of the SQLite progress file for this session (tests seed it with a temporary file).
DB_PATH = "ctx_db_path"
#: A zero-argument callable returning the current aware UTC datetime (tests seed a fake clock).
CLOCK = "ctx_clock"
#: An int seed source for new problems (tests seed it for repeatable problems).
RNG_SEED = "ctx_rng_seed"

# --- practice page ---------------------------------------------------------------------------------
#: Checklist item the practice queue is filtered on (None for all); other pages may set it before
#: switching to the practice page.
PRACTICE_FILTER_ITEM = "practice_filter_item"
#: The problem on screen: {"template_id", "seed", "scheduled", "started_at"} or absent.
PRACTICE_CURRENT = "practice_current"
#: The verdict of the problem on screen once answered (Verdict.to_dict()), or absent.
PRACTICE_VERDICT = "practice_verdict"
#: A message for an unparsable answer (not an attempt), or absent.
PRACTICE_NOTICE = "practice_notice"
#: This browser session's tally: {"answered", "correct", "seconds"}.
PRACTICE_TALLY = "practice_tally"
#: Whether the model answer of a recall problem is shown.
PRACTICE_REVEALED = "practice_revealed"
PRACTICE_ANSWER = "practice_answer"
PRACTICE_CHOICE = "practice_choice"
PRACTICE_SUBMIT = "practice_submit"
PRACTICE_NEXT = "practice_next"
PRACTICE_VARIANT = "practice_variant"
PRACTICE_EXTRA = "practice_extra"
PRACTICE_REVEAL = "practice_reveal"
#: Prefix of the four self-rating buttons of a recall problem: practice_rate_again, ..._easy.
PRACTICE_RATE_PREFIX = "practice_rate_"
PRACTICE_EXPORT_CSV = "practice_export_csv"
PRACTICE_EXPORT_JSON = "practice_export_json"
