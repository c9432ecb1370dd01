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
#: A tzinfo to show times in (tests seed one); absent: the browser's time zone (st.context.timezone).
ZONE = "ctx_zone"
#: A page a direct visit asked for, opened by app.py once its navigation exists (see ui.shell_view).
OPEN_PAGE = "ctx_open_page"
#: True once app.py has run in this session (see ui.shell_view).
APP_SHELL_SEEN = "ctx_app_shell_seen"

# --- practice page ---------------------------------------------------------------------------------
#: Checklist item the practice queue is filtered on (None for all, "scenarios" for scenarios only);
#: other pages may set it before switching to the practice page.
PRACTICE_FILTER_ITEM = "practice_filter_item"
#: The sidebar's Anki export: variants per question, and the download button.
PRACTICE_ANKI_VARIANTS = "practice_anki_variants"
PRACTICE_ANKI_DOWNLOAD = "practice_anki_download"
PRACTICE_CHEAT_SHEET = "practice_cheat_sheet"
#: The problem on screen: {"template_id", "seed", "scheduled", "started_at"} or absent.
PRACTICE_CURRENT = "practice_current"
#: The grader.Verdict of the problem on screen once answered, or absent.
PRACTICE_VERDICT = "practice_verdict"
#: A message for an unparsable answer (not an attempt), or absent.
PRACTICE_NOTICE = "practice_notice"
#: This browser session's tally: {"answered", "correct", "seconds"}.
PRACTICE_TALLY = "practice_tally"
#: Whether the model answer of a recall problem is shown.
PRACTICE_REVEALED = "practice_revealed"
PRACTICE_ANSWER = "practice_answer"
#: The 0-based index of the option picked on a choice question, or None.
PRACTICE_CHOICE = "practice_choice"
#: Prefix of a choice question's option buttons: practice_option_<index>.
PRACTICE_OPTION_PREFIX = "practice_option_"
PRACTICE_SUBMIT = "practice_submit"
PRACTICE_NEXT = "practice_next"
PRACTICE_VARIANT = "practice_variant"
PRACTICE_EXTRA = "practice_extra"
PRACTICE_REVEAL = "practice_reveal"
#: Prefix of the four self-rating buttons of a recall problem: practice_rate_again, ..._easy.
PRACTICE_RATE_PREFIX = "practice_rate_"
#: The typed explanation of a recall problem (a text area), its clock (0, 60, 120 or 180 s) and the
#: moment that clock started (ISO text), and the button that checks it.
PRACTICE_EXPLANATION = "practice_explanation"
PRACTICE_TIMER = "practice_timer"
PRACTICE_TIMER_STARTED = "practice_timer_started"
PRACTICE_CHECK = "practice_check"
#: The explanation once checked: {"text", "seconds", "time_limit_s"}, or absent.
PRACTICE_CHECKED = "practice_checked"
#: Prefixes of the overrule checkboxes: practice_point_<key point index>, practice_misconception_<index>.
PRACTICE_POINT_PREFIX = "practice_point_"
PRACTICE_MISCONCEPTION_PREFIX = "practice_misconception_"
#: The ui.practice.scenario.ScenarioRun of the scenario on screen, or absent.
PRACTICE_SCENARIO_RUN = "practice_scenario_run"
#: Prefixes of a scenario step's answer widgets: practice_step_answer_<seed>_<step>.
PRACTICE_STEP_ANSWER_PREFIX = "practice_step_answer_"
PRACTICE_STEP_CHOICE_PREFIX = "practice_step_choice_"
#: Prefix of a choice step's option buttons: practice_step_option_<seed>_<step>_<index>.
PRACTICE_STEP_OPTION_PREFIX = "practice_step_option_"
PRACTICE_STEP_SUBMIT = "practice_step_submit"
PRACTICE_STEP_NEXT = "practice_step_next"
PRACTICE_STEP_REVEAL = "practice_step_reveal"
#: Prefix of a recall step's four self-rating buttons: practice_step_rate_again, ..._easy.
PRACTICE_STEP_RATE_PREFIX = "practice_step_rate_"
#: The button that creates a new progress file after the old one was deleted or emptied.
PRACTICE_START_AFRESH = "practice_start_afresh"
#: Template ids whose problems failed to generate in this session; practice skips them.
PRACTICE_SKIPPED = "practice_skipped"
#: Template and scenario ids this session has put on screen, oldest first: extra practice rotates over them.
PRACTICE_RECENT = "practice_recent"
#: Why the last problem was skipped (shown once above the next one), or absent.
PRACTICE_SKIP_NOTE = "practice_skip_note"

# --- mock interview page ---------------------------------------------------------------------------
#: Id of the mock this session shows (running, or its debrief); absent on the setup screen.
MOCK_ACTIVE_ID = "mock_active_id"
#: 0-based index of the problem on screen during a running mock.
MOCK_POSITION = "mock_position"
#: True after "Start" was clicked, until the start is confirmed or cancelled.
MOCK_CONFIRMING = "mock_confirming"
#: ui.mock.interview.ScreenTime as a dict: seconds each problem was on screen since its answer was saved.
MOCK_SCREEN_TIME = "mock_screen_time"
#: A sentence for the user from the last action (a refused answer, a failed start), or absent.
MOCK_NOTICE = "mock_notice"
#: The query-string parameter that carries the mock id, so that a browser refresh resumes it.
MOCK_QUERY_PARAM = "mock"
#: The query-string parameter that carries the problem on screen (1-based), so a refresh resumes there.
MOCK_PROBLEM_QUERY_PARAM = "problem"
#: True after "Finish" was clicked during a running mock, until confirmed or cancelled.
MOCK_FINISH_CONFIRMING = "mock_finish_confirming"
MOCK_DURATION = "mock_duration"
MOCK_CUSTOM_MINUTES = "mock_custom_minutes"
MOCK_N_PROBLEMS = "mock_n_problems"
MOCK_MIX = "mock_mix"
MOCK_DIFFICULTY = "mock_difficulty"
MOCK_UPDATES_SCHEDULE = "mock_updates_schedule"
MOCK_START = "mock_start"
MOCK_CONFIRM = "mock_confirm"
MOCK_CANCEL = "mock_cancel"
MOCK_RESUME = "mock_resume"
MOCK_PREV = "mock_prev"
MOCK_NEXT = "mock_next"
MOCK_SAVE = "mock_save"
MOCK_FINISH = "mock_finish"
MOCK_FINISH_CONFIRM = "mock_finish_confirm"
MOCK_FINISH_CANCEL = "mock_finish_cancel"
#: Prefix of the per-problem answer widgets: mock_answer_<mock id>_<position>.
MOCK_ANSWER_PREFIX = "mock_answer_"
#: Prefix of the recall self-rating buttons at the debrief: mock_rate_<position>_<rating>.
MOCK_RATE_PREFIX = "mock_rate_"
#: Prefixes of the debrief's overrule checkboxes: mock_point_<position>_<index> and
#: mock_misconception_<position>_<index>.
MOCK_POINT_PREFIX = "mock_point_"
MOCK_MISCONCEPTION_PREFIX = "mock_misconception_"
MOCK_DOWNLOAD = "mock_download"
MOCK_NEW = "mock_new"
MOCK_HISTORY_PICK = "mock_history_pick"
MOCK_HISTORY_OPEN = "mock_history_open"
MOCK_START_AFRESH = "mock_start_afresh"

# --- readiness page --------------------------------------------------------------------------------
# Its "practise this item" buttons set PRACTICE_FILTER_ITEM (above) to a checklist id, then switch page.
READY_INTERVIEW_DATE = "ready_interview_date"
READY_MINUTES_PER_DAY = "ready_minutes_per_day"
READY_DAILY_NEW_LIMIT = "ready_daily_new_limit"
READY_DESIRED_RETENTION = "ready_desired_retention"
READY_SAVE_SETTINGS = "ready_save_settings"
#: The plan's button that applies the new-card limit meeting every question type before the date.
READY_APPLY_NEW_LIMIT = "ready_apply_new_limit"
#: Prefix of the per-item practice buttons: ready_practice_<checklist id>.
READY_PRACTICE_PREFIX = "ready_practice_"
#: Prefix of the verdict's buttons for the items holding readiness back: ready_next_<checklist id>.
READY_NEXT_PREFIX = "ready_next_"
#: The empty state's button to the practice page.
READY_START = "ready_start"
READY_EXPORT_CSV = "ready_export_csv"
READY_EXPORT_JSON = "ready_export_json"
READY_START_AFRESH = "ready_start_afresh"

# --- GPU checks page -------------------------------------------------------------------------------
#: The runner the page starts runs with (a gpu_checks.Runner; tests seed a fast fake).
GPU_RUNNER = "gpu_runner"
#: The gpu_checks.RunHandle of the run started from this session, or absent.
GPU_HANDLE = "gpu_handle"
GPU_DEVICE = "gpu_device"
GPU_QUICK = "gpu_quick"
GPU_FULL = "gpu_full"
GPU_STOP = "gpu_stop"
GPU_HISTORY_PICK = "gpu_history_pick"
#: started_at of the last run of this session that landed and was put on show (a newer one is shown).
GPU_LANDED = "gpu_landed"
GPU_CSV_SAMPLES = "gpu_csv_samples"
GPU_CSV_COMPARISONS = "gpu_csv_comparisons"
#: Prefix of the per-checklist-item practice buttons: gpu_practice_<checklist id>.
GPU_PRACTICE_PREFIX = "gpu_practice_"

# --- cheat sheet page ------------------------------------------------------------------------------
CHEAT_DOWNLOAD = "cheat_download"
#: Prefix of the practise buttons: cheat_practice_<section>_<checklist id>.
CHEAT_PRACTICE_PREFIX = "cheat_practice_"

# --- explore page ----------------------------------------------------------------------------------
#: The setup's widgets; their values are the setup (and the address's parameters).
EXPLORE_MODEL = "explore_model"
EXPLORE_GPU = "explore_gpu"
EXPLORE_CHIPS = "explore_chips"
EXPLORE_WEIGHTS = "explore_weights"
EXPLORE_ACTIVATIONS = "explore_activations"
EXPLORE_KV = "explore_kv"
EXPLORE_BATCH = "explore_batch"
EXPLORE_PROMPT = "explore_prompt"
EXPLORE_OUTPUT = "explore_output"
EXPLORE_MFU = "explore_mfu"
EXPLORE_PRICE = "explore_price"
#: The second setup of the side-by-side comparison: on or off, and what it changes.
EXPLORE_COMPARE = "explore_compare"
EXPLORE_B_CHIPS = "explore_b_chips"
EXPLORE_B_WEIGHTS = "explore_b_weights"
EXPLORE_B_KV = "explore_b_kv"
EXPLORE_B_BATCH = "explore_b_batch"
#: The Markdown export's download button.
EXPLORE_EXPORT = "explore_export"
#: Explore's "Drill this setup" button.
EXPLORE_DRILL = "explore_drill"
#: True once this session has read the address into the widgets (read once: the widgets then lead).
EXPLORE_ADDRESS_READ = "explore_address_read"
#: The address's notices about values it ignored, kept to show on later reruns.
EXPLORE_NOTICES = "explore_notices"
#: A custom model's figures: one widget per field, keyed by this prefix and the field's name (n_layers...).
EXPLORE_CUSTOM_PREFIX = "explore_custom_"
