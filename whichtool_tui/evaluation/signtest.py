"""The exact two-sided sign test that decides whether a paired change between runs is real."""

from __future__ import annotations

import math

# A paired change counts as distinguishable at or below this p-value.
PAIRED_SIGNIFICANCE_LEVEL = 0.05


def sign_test_p_value(improved: int, regressed: int) -> float:
    """Two-sided exact p-value for ``improved`` vs ``regressed`` discordant pairs (1 when none).

    Computed in log space so that large counts neither overflow nor lose the tail.
    """
    if improved < 0 or regressed < 0:
        raise ValueError("discordant pair counts cannot be negative")
    n = improved + regressed
    if n == 0:
        return 1.0
    smaller = min(improved, regressed)
    log_half_n = n * math.log(0.5)
    log_terms = [
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + log_half_n
        for k in range(smaller + 1)
    ]
    peak = max(log_terms)
    tail = math.exp(peak) * math.fsum(math.exp(term - peak) for term in log_terms)
    return min(1.0, 2.0 * tail)


def is_distinguishable(improved: int, regressed: int, p_value: float | None = None) -> bool:
    """A change is distinguishable when there is at least one discordant pair and p <= 0.05."""
    if improved + regressed == 0:
        return False
    p = sign_test_p_value(improved, regressed) if p_value is None else p_value
    return p <= PAIRED_SIGNIFICANCE_LEVEL
