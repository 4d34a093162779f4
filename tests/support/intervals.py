"""An independent Wilson interval, to check the engine's intervals against."""

from __future__ import annotations

import math
from typing import Any


def wilson(k: int, n: int) -> tuple[float, float]:
    """An independent Wilson 95% interval, written out from the textbook formula."""
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = (z / (1 + z * z / n)) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def approx_interval(actual: Any, expected: tuple[float, float]) -> bool:
    """``actual`` is an interval equal to ``expected`` up to rounding."""
    return actual is not None and all(
        math.isclose(a, b, abs_tol=1e-12) for a, b in zip(actual, expected, strict=True)
    )
