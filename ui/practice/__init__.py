"""Practice, with its scenarios: the due queue, one problem or one scenario step at a time, feedback.

- :mod:`.loop`: the loop behind the page (pick, grade, record, schedule); no Streamlit;
- :mod:`.address`: the problem on screen kept in the page's address;
- :mod:`.scenario`: a scenario step by step with follow-through, one card; no Streamlit;
- :mod:`.page_view`, :mod:`.scenario_view`, :mod:`.take_away_view`: what the page draws.
"""
