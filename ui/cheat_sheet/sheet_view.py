"""Drawing the cheat sheet: the preset tables and the formulas, each with a way to practise what it serves."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from question_bank import load_checklist
from question_bank.cheat_sheet import CheatSheet, Formula, Table, build_cheat_sheet, cheat_sheet_markdown
from ui import state_keys as keys
from ui.practice_link_view import practice_button


@st.cache_resource(show_spinner=False)
def cheat_sheet() -> CheatSheet:
    """The sheet, built once per server: it depends only on the shipped presets and the estimator."""
    return build_cheat_sheet()


@st.cache_resource(show_spinner=False)
def cheat_sheet_download() -> str:
    return cheat_sheet_markdown(cheat_sheet())


def _frame(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> pd.DataFrame:
    # The first column names the row: as the index it stays bold and needs no row numbers.
    return pd.DataFrame(list(rows), columns=list(columns)).set_index(columns[0])


def _practice_buttons(section: str, items: Sequence[str]) -> None:
    titles = {item.id: item.title for item in load_checklist()}
    # One row that wraps on a phone, rather than a column of buttons.
    with st.container(horizontal=True):
        for item in items:
            key = f"{keys.CHEAT_PRACTICE_PREFIX}{section}_{item}"
            practice_button(item, f"Practise {titles[item]}", key=key)


def show_table(table: Table, *, section: str) -> None:
    st.subheader(table.title)
    st.caption(table.note)
    st.table(_frame(table.columns, table.rows))
    with st.expander("Sources, and where they disagree"):
        st.markdown("\n".join(f"- **{name}**: " + " ".join(lines) for name, lines in table.provenance))
    _practice_buttons(section, table.checklist)


def show_formulas(formulas: Sequence[Formula]) -> None:
    """The formulas grouped by the checklist item they serve, in the topic card's order."""
    st.subheader("Formulas")
    st.caption("Each worked example is the estimator's own arithmetic on the presets above.")
    for item in load_checklist():
        mine = [f for f in formulas if f.checklist == item.id]
        if not mine:
            continue
        st.markdown(f"**{item.title}**: {item.ready_when}")
        st.table(
            _frame(("what", "formula", "worked example"), [(f.label, f.formula, f.example) for f in mine])
        )
        _practice_buttons("formulas", (item.id,))


# Paper wants the tables whole: no sidebar, buttons or expanders, full width, landscape, small type.
# A fixed stylesheet of ours (nothing a user typed), which Streamlit applies without showing anything.
_PRINT_CSS = """<style>
@media print {
  @page { size: A4 landscape; margin: 10mm; }
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stExpander"], [data-testid="stButton"], [data-testid="stDownloadButton"] {
    display: none !important;
  }
  [data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 0 !important; }
  [data-testid="stAppViewContainer"], [data-testid="stMain"] { overflow: visible !important; }
  /* An inline-table never splits across pages; a plain table does. */
  [data-testid="stTable"] table { display: table !important; width: 100%; font-size: 8pt; }
  [data-testid="stAppViewContainer"], [data-testid="stMain"] { display: block !important; }
  [data-testid="stTable"], [data-testid="stTable"] div { overflow: visible !important; }
  /* Flex columns do not split across pages in Chromium: lay the page out as plain blocks. */
  [data-testid="stVerticalBlock"], [data-testid="stElementContainer"] { display: block !important; }
  [data-testid="stElementContainer"] { break-inside: auto !important; margin-bottom: 4pt; }
}
</style>"""


def show_cheat_sheet() -> None:
    st.html(_PRINT_CSS)
    sheet = cheat_sheet()
    st.download_button(
        "Download as Markdown",
        data=cheat_sheet_download(),
        file_name="roofline-drill-cheat-sheet.md",
        mime="text/markdown",
        key=keys.CHEAT_DOWNLOAD,
        on_click="ignore",
        icon=":material/download:",
    )
    show_table(sheet.accelerators, section="gpus")
    show_table(sheet.models, section="models")
    show_formulas(sheet.formulas)
