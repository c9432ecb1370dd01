"""Progress: the SQLite store, FSRS scheduling, readiness and export. Imports neither streamlit nor torch."""

from progress.paths import default_db_path

__all__ = ["default_db_path"]
