"""Practice's "take it with you" corner: the Anki deck download and the way to the cheat sheet."""

from __future__ import annotations

import streamlit as st

from question_bank import Bank, load_checklist
from question_bank.anki import DEFAULT_VARIANTS, anki_bytes
from ui import state_keys as keys

CHEAT_SHEET_PAGE = "pages/cheat_sheet.py"
_MAX_DOWNLOAD_VARIANTS = 10


def show_take_away(bank: Bank, *, checklist_item: str | None) -> None:
    """In the sidebar: an Anki package of fresh variants (the filtered item, or all) and the cheat sheet."""
    with st.sidebar:
        st.markdown("**Take it with you**")
        variants = st.number_input(
            "Variants per question",
            min_value=1,
            max_value=_MAX_DOWNLOAD_VARIANTS,
            value=DEFAULT_VARIANTS,
            key=keys.PRACTICE_ANKI_VARIANTS,
            help="Each variant is the same question with other numbers; re-importing updates the notes.",
        )
        items = (checklist_item,) if checklist_item else ()
        titles = {item.id: item.title for item in load_checklist()}
        scope = titles.get(checklist_item or "", "all ten items")
        st.download_button(
            f"Anki deck: {scope}",
            # Built only when clicked: a full deck takes about a second to generate.
            data=lambda: anki_bytes(bank, variants=int(variants), checklist=items),
            file_name=f"roofline-drill-{checklist_item or 'all'}.apkg",
            mime="application/octet-stream",
            key=keys.PRACTICE_ANKI_DOWNLOAD,
            on_click="ignore",
            icon=":material/download:",
        )
        if st.button(
            "Cheat sheet: numbers to know", key=keys.PRACTICE_CHEAT_SHEET, icon=":material/description:"
        ):
            st.switch_page(CHEAT_SHEET_PAGE)
