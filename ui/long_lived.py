"""What lives as long as the server: loaded once, then kept out of the cyclic garbage collector's walk.

Streamlit runs a full ``gc.collect(2)`` after every script run. It walks every tracked object in the
process, and nearly all of them are imported modules, the parsed question bank, the presets and the
unit registry, which live until the server stops. Walking them cost more than the rest of an answer's
rerun. ``gc.freeze()`` moves every object alive at that moment into a permanent generation that
collections skip; objects are still freed by reference counting, and everything made later (each
rerun's own garbage) is collected as before. So it is called once, after the long-lived things are
loaded, rather than switching the collection off.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import threading

# Modules the pages import; importing them here means the first visit to a page finds them loaded
# and their objects frozen. altair (GPU checks only) and torch stay lazy: most sessions never need them.
MODULES = (
    "fsrs",
    "grader",
    "progress.aggregates",
    "progress.plan",
    "progress.readiness",
    "progress.scheduling",
    "question_bank",
    "ui.mock.interview",
    "ui.mock.setup_view",
    "ui.mock.interview_view",
    "ui.practice.loop",
    "ui.readiness.charts",
    "ui.render_view",
    "ui.roofline_answer",
)

_lock = threading.Lock()
# Set once the heap is frozen. An Event, not a bool, so the second check reads as what it is: another
# thread may have set it while this one waited for the lock.
_frozen = threading.Event()


def load_long_lived() -> None:
    """Import the pages' modules and load the bank and the presets (each is loaded once per process)."""
    for name in MODULES:
        importlib.import_module(name)
    from question_bank import BankError, load_checklist, load_hardware
    from ui import cached

    load_hardware()
    load_checklist()
    with contextlib.suppress(BankError):  # a broken bank is reported by the page that needs it
        cached.bank()


def freeze_long_lived() -> bool:
    """Load what :func:`load_long_lived` loads, then freeze; later calls do nothing.

    Returns True on the call that froze. A bank that fails to load is left for the page to report
    (the freeze still happens, so a fixed bank loads on the next rerun as usual).
    """
    if _frozen.is_set():
        return False
    with _lock:
        if _frozen.is_set():
            return False
        load_long_lived()
        gc.collect()  # what is already garbage is freed now, not kept forever
        gc.freeze()
        _frozen.set()
        return True
