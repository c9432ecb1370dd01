"""A choice question answered from the keyboard: number keys 1 to n pick an option, Enter checks it
(in Practice) or saves it (in a mock).

The options are buttons drawn as a radio list rather than a radio widget: a focused radio input
swallows every key shortcut (the browser gives its keys to the input), so after a click on an option
Enter would do nothing. A button keeps the keys working, and each option shows its number key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

#: Options past the ninth have no number key (a key shortcut is one character).
_MAX_KEYED = 9
_PICKED = ":material/radio_button_checked:"
_UNPICKED = ":material/radio_button_unchecked:"
#: The notice for **Check** pressed with no option picked.
PICK_FIRST = "Pick one of the options (a click, or its number key), then press **Check** (or Enter)."


def option_shortcut(index: int) -> str | None:
    """The number key that picks the option at 0-based ``index``: "1" for the first; None past nine."""
    return str(index + 1) if index < _MAX_KEYED else None


def keys_caption(n_options: int, *, enter_does: str = "check") -> str:
    """The line under the options that says how to answer from the keyboard; ``enter_does`` is what
    Enter then does ("check", "save")."""
    last = min(n_options, _MAX_KEYED)
    keys = "1" if last == 1 else f"1–{last}"
    return f"Press {keys} to pick an option, then Enter to {enter_does}."


def show_choice(
    options: Sequence[str],
    *,
    picked: int | None,
    option_key: Callable[[int], str],
    on_pick: Callable[[int], None],
    check_key: str,
    on_check: Callable[[], None],
    check_label: str = "Check",
) -> None:
    """The options, the picked one marked, then **Check** (Enter). ``option_key(i)`` is option i's key;
    ``check_label`` names the button Enter presses ("Save answer" in a mock)."""
    st.markdown("Your answer")
    for index, text in enumerate(options):
        st.button(
            text,
            key=option_key(index),
            icon=_PICKED if index == picked else _UNPICKED,
            type="tertiary",
            on_click=on_pick,
            args=(index,),
            shortcut=option_shortcut(index),
        )
    st.caption(keys_caption(len(options), enter_does=check_label.split()[0].lower()))
    st.button(check_label, key=check_key, type="primary", on_click=on_check, shortcut="Enter")
