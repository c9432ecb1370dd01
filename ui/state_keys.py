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
