"""Numbers for people: significant figures and the way the app prints a number.

The estimator prints figures into its derivations, and the answer side prints them into feedback;
both use these two functions, which need nothing but ``math``.
"""

from __future__ import annotations

import math

#: Significant figures of a number shown to people.
SIGNIFICANT_FIGURES = 4


def round_sig(x: float, *, sig_figs: int = SIGNIFICANT_FIGURES) -> float:
    """``x`` rounded to ``sig_figs`` significant figures; zero, NaN and ±inf come back unchanged."""
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.{sig_figs}g}")


def format_number(x: float, *, sig_figs: int = SIGNIFICANT_FIGURES) -> str:
    """A number for people: ``sig_figs`` significant figures, thousands separators, no trailing zeros.

    Integers after rounding print whole (``819,200``); magnitudes from 0.001 up to 10¹⁵ print in
    fixed point (``16.72``, ``0.0125``); anything else in e-notation (``1.6e-5``), which the
    answer parser reads back.
    """
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    r = round_sig(x, sig_figs=sig_figs)
    if r == 0:
        return "0"
    magnitude = abs(r)
    if magnitude >= 1e15 or magnitude < 1e-3:
        mantissa, exponent = f"{r:.{sig_figs - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(exponent)}"
    if r.is_integer():
        return f"{int(r):,}"
    decimals = max(0, sig_figs - 1 - math.floor(math.log10(magnitude)))
    return f"{r:,.{decimals}f}".rstrip("0").rstrip(".")
