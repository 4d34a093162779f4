"""Deferred against upfront on the same tasks: a paired, task-level comparison.

Each task with an expected tool gets its accuracy in both arms (errored trials left out). Tasks
whose deferred accuracy is higher count as improved, lower as regressed; the exact two-sided
sign test over those decides whether the change is distinguishable (p <= 0.05). The interval
is a percentile bootstrap of the mean per-task difference, resampling tasks with a seeded
generator so the same run gives the same interval.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from whichtool_tui.discovery.run_model import DeferredComparison, DeferredTrial, TaskComparison
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.evaluation.signtest import is_distinguishable, sign_test_p_value
from whichtool_tui.evaluation.stats import proportion

BOOTSTRAP_RESAMPLES = 2000
METHOD = (
    "task-level paired: exact two-sided sign test over tasks whose accuracy changed; "
    f"95% percentile bootstrap of the mean per-task difference ({BOOTSTRAP_RESAMPLES} "
    "resamples of tasks, seeded by the run seed)"
)


def _counts(trials: Sequence[ScoredTrial]) -> tuple[int, int]:
    scored = [trial for trial in trials if trial.verdict != "error"]
    return sum(1 for trial in scored if trial.verdict == "correct"), len(scored)


def bootstrap_interval(
    differences: Sequence[float], seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float] | None:
    """The 95% percentile interval of the mean of ``differences`` (None when empty)."""
    if not differences:
        return None
    generator = random.Random(seed)
    count = len(differences)
    means = sorted(
        sum(differences[generator.randrange(count)] for _ in range(count)) / count
        for _ in range(resamples)
    )
    low = means[int(0.025 * (resamples - 1))]
    high = means[int(0.975 * (resamples - 1))]
    return (round(low, 6), round(high, 6))


def compare_arms(
    deferred: Sequence[ScoredTrial],
    upfront: Sequence[ScoredTrial],
    steps: Sequence[DeferredTrial],
    seed: int,
) -> DeferredComparison:
    """Pair the two arms by task and test the task-level accuracy change."""
    found_by_key = {(step.task_id, step.trial_index): step.found for step in steps}
    task_ids = list(dict.fromkeys(t.task_id for t in deferred if t.expected is not None))
    rows: list[TaskComparison] = []
    differences: list[float] = []
    improved = regressed = ties = 0
    total = [0, 0, 0, 0]
    for task_id in task_ids:
        mine = [t for t in deferred if t.task_id == task_id]
        theirs = [t for t in upfront if t.task_id == task_id]
        d_correct, d_scored = _counts(mine)
        u_correct, u_scored = _counts(theirs)
        found = [found_by_key.get((t.task_id, t.trial_index)) for t in mine if t.verdict != "error"]
        rows.append(
            TaskComparison(
                task_id=task_id,
                expected=mine[0].expected or "",
                deferred=proportion(d_correct, d_scored),
                upfront=proportion(u_correct, u_scored),
                found=proportion(sum(1 for f in found if f), len(found)),
            )
        )
        total = [
            total[0] + d_correct,
            total[1] + d_scored,
            total[2] + u_correct,
            total[3] + u_scored,
        ]
        if d_scored == 0 or u_scored == 0:
            continue
        difference = d_correct / d_scored - u_correct / u_scored
        differences.append(difference)
        if difference > 0:
            improved += 1
        elif difference < 0:
            regressed += 1
        else:
            ties += 1
    p_value = sign_test_p_value(improved, regressed)
    return DeferredComparison(
        method=METHOD,
        tasks=rows,
        deferred_accuracy=proportion(total[0], total[1]),
        upfront_accuracy=proportion(total[2], total[3]),
        improved=improved,
        regressed=regressed,
        ties=ties,
        p_value=p_value,
        distinguishable=is_distinguishable(improved, regressed, p_value),
        mean_difference=round(sum(differences) / len(differences), 6) if differences else None,
        ci95=bootstrap_interval(differences, seed),
    )
