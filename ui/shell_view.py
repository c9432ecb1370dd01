"""Every page opens inside the app shell (app.py), even when its address is opened directly.

Streamlit runs a project with a ``pages/`` folder in its older multipage mode until ``app.py`` has
called ``st.navigation`` once in the server's life. A bookmark to ``/readiness`` opened on a freshly
started server would then run the page script on its own: no page config, no shared sidebar, and a
navigation built from file names. Such a visit is sent through ``app.py`` once, which then opens the
page that was asked for.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from ui import state_keys as keys

#: The main script, relative to the project root.
APP = "app.py"


def open_inside_app(page: str) -> None:
    """Call first in a page script: outside the shell, remember ``page`` and go through ``app.py``."""
    if not PagesManager.uses_pages_directory:
        return  # the usual case: the page runs under app.py's navigation
    if st.session_state.get(keys.APP_SHELL_SEEN):
        # app.py has run in this session, so its navigation is known: the older mode is only the
        # test harness starting each run afresh, and a detour would swallow the widget event.
        return
    # The query string goes along: a running mock is found again by its ?mock=<id>.
    st.session_state[keys.OPEN_PAGE] = {"page": page, "query": st.query_params.to_dict()}
    st.switch_page(APP)


def open_requested_page() -> None:
    """Call in ``app.py`` once the navigation exists: open the page a direct visit asked for."""
    st.session_state[keys.APP_SHELL_SEEN] = True
    request = st.session_state.pop(keys.OPEN_PAGE, None)
    if request:
        st.switch_page(request["page"], query_params=request["query"])
