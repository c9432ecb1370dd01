"""Progress: the SQLite store, FSRS scheduling, mocks and export. Imports neither streamlit nor torch.

``Store(path)`` is the way in; ``progress.scheduling`` and ``progress.mock.rows`` work on a store.
"""

from progress.attempt import Attempt, AttemptDict, Mode, Status
from progress.errors import (
    CorruptDatabaseError,
    DatabaseAccessError,
    DatabaseBusyError,
    DiskFullError,
    NewerSchemaError,
    StoreError,
    VanishedDatabaseError,
)
from progress.export import ExportFormat, export_attempts
from progress.paths import default_db_path
from progress.scheduling import (
    CardState,
    Queue,
    QueueItem,
    card_states,
    due_queue,
    next_due,
    rating_for_recall,
    rating_for_status,
    review,
    streak,
)
from progress.settings import Settings
from progress.store import Store

__all__ = [
    "Attempt",
    "AttemptDict",
    "CardState",
    "CorruptDatabaseError",
    "DatabaseAccessError",
    "DatabaseBusyError",
    "DiskFullError",
    "ExportFormat",
    "Mode",
    "NewerSchemaError",
    "Queue",
    "QueueItem",
    "Settings",
    "Status",
    "Store",
    "StoreError",
    "VanishedDatabaseError",
    "card_states",
    "default_db_path",
    "due_queue",
    "export_attempts",
    "next_due",
    "rating_for_recall",
    "rating_for_status",
    "review",
    "streak",
]
