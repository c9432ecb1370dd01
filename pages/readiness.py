"""Readiness: the ten checklist items, how ready and why, a plan to the interview date, the export."""

from ui.readiness.page_view import show_readiness_page

show_readiness_page()
