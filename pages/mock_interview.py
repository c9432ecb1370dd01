"""Mock interview: a timed, mixed set; no feedback until the debrief; a scorecard to keep."""

from ui.mock.page_view import show_mock_page

show_mock_page()
