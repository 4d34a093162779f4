"""Proportions with Wilson 95% intervals: every rate in a run report is one of these."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

# The two-sided 95% normal quantile, to the digits the report format fixes.
WILSON_Z = 1.959963984540054


class Proportion(BaseModel):
    """k of n with its value and Wilson 95% interval; value and interval are null when n is 0."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    numerator: int
    denominator: int
    value: float | None
    ci95: tuple[float, float] | None


def wilson_interval(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float] | None:
    """The Wilson score interval, clamped to [0, 1]; None when there are no trials."""
    if trials <= 0:
        return None
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(successes: int, trials: int) -> Proportion:
    """Build a Proportion; a zero denominator gives null value and interval rather than 0."""
    if successes < 0 or trials < 0 or successes > trials:
        raise ValueError(f"invalid proportion {successes}/{trials}")
    if trials == 0:
        return Proportion(numerator=successes, denominator=0, value=None, ci95=None)
    return Proportion(
        numerator=successes,
        denominator=trials,
        value=successes / trials,
        ci95=wilson_interval(successes, trials),
    )
