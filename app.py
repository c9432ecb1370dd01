"""Roofline Drill: page config, navigation over the pages that exist, the shared sidebar."""

from pathlib import Path

import streamlit as st

from ui.context import db_path, init_session
from ui.long_lived import freeze_long_lived
from ui.shell_view import open_requested_page

_HERE = Path(__file__).parent
# The app's own icon files: a favicon from the material-icon font is fetched from a font server on
# every rerun, which fails offline and tells a third party that the app is in use.
_ICON = str(_HERE / "ui" / "assets" / "icon.svg")
_LOGO = str(_HERE / "ui" / "assets" / "logo.svg")
# (file, title, icon); the first page that exists is the default.
_PAGES = (
    ("pages/practice.py", "Practice", ":material/school:"),
    ("pages/mock_interview.py", "Mock interview", ":material/timer:"),
    ("pages/readiness.py", "Readiness", ":material/checklist:"),
    ("pages/gpu_checks.py", "GPU checks", ":material/speed:"),
    ("pages/cheat_sheet.py", "Cheat sheet", ":material/description:"),
    ("pages/explore.py", "Explore", ":material/calculate:"),
)

st.set_page_config(page_title="Roofline Drill", page_icon=_ICON, layout="wide")
st.logo(_LOGO, icon_image=_ICON, size="large")
init_session()
freeze_long_lived()
pages = [
    st.Page(path, title=title, icon=icon, default=not i)
    for i, (path, title, icon) in enumerate(p for p in _PAGES if (_HERE / p[0]).exists())
]
nav = st.navigation(pages)
open_requested_page()
with st.sidebar:
    st.markdown("**Roofline Drill**: why LLM inference is memory-bound.")
    st.caption(f"Progress is saved in `{db_path()}`.")
nav.run()
