"""Explore's setup in the address (``?model=…&gpu=…&chips=…&weights=…&kv=…&batch=…&prompt=…&output=…``).

Read through :mod:`ui.query_params` (one place for every page's parameters); what it could not use
stays at the default. No Streamlit.
"""

from __future__ import annotations

from dataclasses import fields, replace

from ui.explore.figures import Setup
from ui.query_params import PAGES, Address

#: The address's parameters, each named as the Setup field it sets.
NAMES = tuple(param.name for param in PAGES["explore"])


def setup_from_address(address: Address, *, default: Setup | None = None) -> Setup:
    """``default`` (the page's own) with each usable parameter of ``address`` put in."""
    given = {name: address.get(name) for name in NAMES if address.get(name) is not None}
    return replace(default or Setup(), **given)  # type: ignore[arg-type]


def to_query(setup: Setup) -> dict[str, str]:
    """The address's parameters for ``setup``: what a link that reproduces it carries."""
    known = {f.name for f in fields(Setup)}
    return {name: str(getattr(setup, name)) for name in NAMES if name in known}
