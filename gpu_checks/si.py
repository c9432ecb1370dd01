"""Figures for people: SI prefixes, 3 significant figures, decimal (1 MB = 10^6 B, as datasheets count).

Its own module so that the report's own sentences (``gpu_checks.report``) and the tables
(``gpu_checks.table``, which reads reports) write sizes the same way.
"""

from __future__ import annotations

import math

__all__ = ["format_si"]

_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))
_SUBUNIT_SECONDS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))


def format_si(value: float | None, unit: str) -> str:
    """``value`` (SI, in ``unit``) with a decimal prefix and 3 significant figures; "n/a" for None."""
    if value is None or not math.isfinite(value):
        return "n/a"
    if unit == "s":
        scale, name = next(((s, n) for s, n in _SUBUNIT_SECONDS if abs(value) >= s), _SUBUNIT_SECONDS[-1])
        return f"{value / scale:.3g} {name}"
    if unit in ("", "FLOP/B"):
        return f"{value:,.3g}" + (f" {unit}" if unit else "")
    scale, prefix = next(((s, p) for s, p in _PREFIXES if abs(value) >= s), _PREFIXES[-1])
    return f"{value / scale:.3g} {prefix}{unit}"
