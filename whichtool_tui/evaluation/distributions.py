"""Beta and Student-t quantiles in pure Python, so the runtime needs no statistics library.

The task-clustered interval is a Clopper-Pearson interval on a fractional sample size and the
paired intervals use Student's t; the standard library has neither.
"""

from __future__ import annotations

import math

_EPSILON = 1e-16
_TINY = 1e-300
_MAX_ITERATIONS = 500


def _continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's evaluation of the incomplete beta continued fraction (converges for small x)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    result = d
    for m in range(1, _MAX_ITERATIONS + 1):
        m2 = 2 * m
        even = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + even * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + even / c
        c = c if abs(c) > _TINY else _TINY
        result *= d * c
        odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + odd * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + odd / c
        c = c if abs(c) > _TINY else _TINY
        step = d * c
        result *= step
        if abs(step - 1.0) < _EPSILON:
            break
    return result


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the beta distribution's cumulative probability at x."""
    if a <= 0 or b <= 0:
        raise ValueError("beta parameters must be positive")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def _beta_density(x: float, a: float, b: float) -> float:
    return math.exp((a - 1) * math.log(x) + (b - 1) * math.log1p(-x) - _log_beta(a, b))


def beta_quantile(probability: float, a: float, b: float) -> float:
    """The x with I_x(a, b) = probability: safeguarded Newton steps inside a shrinking bracket."""
    if not 0.0 <= probability <= 1.0:
        raise ValueError("probability must lie in [0, 1]")
    if probability == 0.0:
        return 0.0
    if probability == 1.0:
        return 1.0
    low, high = 0.0, 1.0
    x = a / (a + b)
    for _ in range(_MAX_ITERATIONS):
        error = regularized_beta(x, a, b) - probability
        if error > 0:
            high = x
        else:
            low = x
        density = _beta_density(x, a, b) if 0.0 < x < 1.0 else 0.0
        candidate = x - error / density if density > 0 else -1.0
        if not low < candidate < high:
            candidate = (low + high) / 2.0
        if abs(candidate - x) <= 1e-15 * max(1.0, x) or high - low <= 1e-15:
            return candidate
        x = candidate
    return x


def student_t_quantile(probability: float, degrees_of_freedom: float) -> float:
    """The Student-t quantile, from the beta quantile (t² / (ν + t²) is beta(1/2, ν/2))."""
    if degrees_of_freedom <= 0:
        raise ValueError("degrees of freedom must be positive")
    if not 0.0 < probability < 1.0:
        raise ValueError("probability must lie strictly inside (0, 1)")
    if probability == 0.5:
        return 0.0
    tail = 2.0 * min(probability, 1.0 - probability)
    x = beta_quantile(tail, degrees_of_freedom / 2.0, 0.5)
    magnitude = math.sqrt(degrees_of_freedom * (1.0 - x) / x) if x > 0 else math.inf
    return magnitude if probability > 0.5 else -magnitude


def clopper_pearson(successes: float, trials: float, level: float = 0.95) -> tuple[float, float]:
    """The exact binomial interval, taken as a beta quantile so fractional counts work too."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"invalid binomial counts {successes}/{trials}")
    alpha = 1.0 - level
    low = 0.0 if successes <= 0 else beta_quantile(alpha / 2, successes, trials - successes + 1)
    high = (
        1.0
        if successes >= trials
        else beta_quantile(1 - alpha / 2, successes + 1, trials - successes)
    )
    return (low, high)
