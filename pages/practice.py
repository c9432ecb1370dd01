"""Practice: today's spaced-repetition queue, one fresh problem at a time, instant feedback."""

from ui.practice.page_view import show_practice_page

show_practice_page()
