"""The mock interview's screens: setup, the running mock, the debrief, past mocks.

- :mod:`.interview`: the bank, the grader and the store joined up for the page; no Streamlit;
- :mod:`.setup`: what the setup screen starts from; no Streamlit;
- :mod:`.page_view`, :mod:`.setup_view`, :mod:`.interview_view`: what the page draws.

The mock's domain (config, selection, session, timer, debrief, scorecard) is :mod:`progress.mock`.
"""
