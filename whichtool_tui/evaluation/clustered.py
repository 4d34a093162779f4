"""Rates with the task as the unit: a Korn-Graubard interval on the design-effect sample size.

Repeats of one prompt are not independent (at temperature 0 they are nearly copies), so the
trial-level Wilson interval is too narrow. This interval estimates the variance of the pooled
rate from the spread between task totals, turns it into an effective number of observations,
guards that number against tasks not seen, shrinks it for the few degrees of freedom that few
tasks give, and takes an exact (Clopper-Pearson) interval on it. ``docs/statistics.md`` gives
the reasons and the measured coverage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from whichtool_tui.evaluation.distributions import clopper_pearson, student_t_quantile

CLUSTERED_METHOD = (
    "task-clustered: clopper-pearson on the korn-graubard effective size, "
    "guarded by one half-successful pseudo-task"
)
_UPPER = 0.975


@lru_cache(maxsize=4096)
def _t_upper(degrees_of_freedom: int) -> float:
    return student_t_quantile(_UPPER, degrees_of_freedom)


@dataclass(frozen=True)
class ClusteredEstimate:
    """A pooled rate over tasks, its 95% interval, and the sizes the interval was built from."""

    successes: int
    trials: int
    tasks: int
    value: float | None
    design_effect: float | None
    effective_size: float | None
    ci95: tuple[float, float] | None


def _effective_size(counts: Sequence[tuple[float, float]]) -> float | None:
    """p(1-p) over the cluster-robust variance of the pooled rate; None when it is 0."""
    tasks = len(counts)
    total = sum(trials for _, trials in counts)
    value = sum(successes for successes, _ in counts) / total
    spread = sum((successes - value * trials) ** 2 for successes, trials in counts)
    variance = tasks / (tasks - 1) * spread / (total * total)
    return value * (1 - value) / variance if variance > 0 else None


def clustered_rate(counts: Sequence[tuple[int, int]]) -> ClusteredEstimate:
    """The task-clustered estimate from (successes, trials) per task; tasks with 0 trials skip."""
    used = [(successes, trials) for successes, trials in counts if trials > 0]
    for successes, trials in used:
        if not 0 <= successes <= trials:
            raise ValueError(f"invalid task counts {successes}/{trials}")
    tasks = len(used)
    total = sum(trials for _, trials in used)
    hits = sum(successes for successes, _ in used)
    if total == 0:
        return ClusteredEstimate(hits, 0, 0, None, None, None, None)
    value = hits / total
    if tasks == 1:
        effective = 1.0  # one task is one observation, however often it was asked
    else:
        observed = _effective_size([(float(s), float(t)) for s, t in used])
        # No spread at all cannot tell independent repeats from copies: assume copies.
        effective = float(tasks) if observed is None else min(float(total), observed)
        # A task not in the sample may be unlike every task in it; one pseudo-task of average
        # size that half succeeds keeps near-perfect samples of few tasks from looking certain.
        mean_size = total / tasks
        guarded = _effective_size(
            [*((float(s), float(t)) for s, t in used), (mean_size / 2, mean_size)]
        )
        if guarded is not None:
            effective = min(effective, guarded)
        effective = max(1.0, effective)
    design_effect = total / effective
    if tasks > 1 and total > 1:
        ratio = _t_upper(total - 1) / _t_upper(tasks - 1)
        effective *= ratio * ratio
    low, high = clopper_pearson(value * effective, effective)
    return ClusteredEstimate(
        successes=hits,
        trials=total,
        tasks=tasks,
        value=value,
        design_effect=design_effect,
        effective_size=effective,
        ci95=(max(0.0, low), min(1.0, high)),
    )
