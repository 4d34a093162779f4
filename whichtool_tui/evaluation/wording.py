"""How statistical numbers are written, once for every report: points, p-values, no evidence.

A change between two rates is a difference of percentage points, never a percent change; a
p-value that rounds to nothing is a floor (``p < 1e-6``), never ``p=0``; and a comparison of
nothing is "no evidence", never a p-value of 1.
"""

from __future__ import annotations

P_FLOOR = 1e-6
NO_EVIDENCE = "no evidence"
TOO_FEW_TASKS = "too few tasks"
MIN_EFFECTIVE_SIZE = 2.0
"""Below this effective number of observations an interval is the whole range in disguise."""


def signed_points(delta: float | None) -> str:
    """A change in rate as signed percentage points (``-20.0 pts``), or ``n/a``."""
    if delta is None:
        return "n/a"
    return f"{delta * 100:+.1f} pts"


def points(delta: float) -> str:
    """An unsigned size of a change in percentage points (``20.0 pts``)."""
    return f"{abs(delta) * 100:.1f} pts"


def p_text(p_value: float, spaced: bool = False) -> str:
    """``p=0.0313`` (or ``p = 0.0313`` in a sentence); ``p < 1e-6`` below the floor."""
    if p_value < P_FLOOR:
        return "p < 1e-6"
    return f"p = {p_value:.3g}" if spaced else f"p={p_value:.3g}"


def units(count: int, noun: str) -> str:
    """``1 task``, ``3 tasks``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def no_evidence(count: int = 0, noun: str = "task") -> str:
    """What a comparison with nothing paired says instead of a p-value."""
    return f"{NO_EVIDENCE} ({units(count, noun)})"
