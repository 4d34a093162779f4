"""Deferred against upfront on the same tasks: a paired, task-level comparison.

Trials pair by (task, trial index): both arms run one plan. The test is the statistics
engine's task-level paired comparison (``evaluation.diff_tasks.task_paired``): each task's mean
change in correctness is one observation, a sign-flip test over tasks gives the p-value, and a
Student-t interval bounds the mean change. Only tasks with an expected tool take part.
"""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.discovery.run_model import DeferredComparison, DeferredTrial, TaskComparison
from whichtool_tui.evaluation.diff_tasks import correct_and_scored, is_correct, task_paired
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.evaluation.stats import proportion

METHOD_PREFIX = "task-level paired (deferred - upfront), "


def compare_arms(
    deferred: Sequence[ScoredTrial],
    upfront: Sequence[ScoredTrial],
    steps: Sequence[DeferredTrial],
) -> DeferredComparison:
    """Pair the two arms by task and trial, and test the task-level accuracy change."""
    found_by_key = {(step.task_id, step.trial_index): step.found for step in steps}
    upfront_by_key = {(t.task_id, t.trial_index): t for t in upfront}
    targeted = [t for t in deferred if t.expected is not None]
    task_ids = list(dict.fromkeys(t.task_id for t in targeted))
    rows: list[TaskComparison] = []
    for task_id in task_ids:
        mine = [t for t in targeted if t.task_id == task_id]
        theirs = [t for t in upfront if t.task_id == task_id]
        found = [found_by_key.get((t.task_id, t.trial_index)) for t in mine if t.verdict != "error"]
        rows.append(
            TaskComparison(
                task_id=task_id,
                expected=mine[0].expected or "",
                deferred=proportion(*correct_and_scored(mine)),
                upfront=proportion(*correct_and_scored(theirs)),
                found=proportion(sum(1 for f in found if f), len(found)),
            )
        )
    pairs = [(upfront_by_key.get((t.task_id, t.trial_index)), t) for t in targeted]
    paired = task_paired(pairs, is_correct)
    theirs_targeted = [t for t in upfront if t.expected is not None]
    return DeferredComparison(
        method=METHOD_PREFIX + paired.test + "; Student-t 95% interval of the mean per-task change",
        tasks=rows,
        deferred_accuracy=proportion(*correct_and_scored(targeted)),
        upfront_accuracy=proportion(*correct_and_scored(theirs_targeted)),
        improved=paired.improved,
        regressed=paired.regressed,
        ties=paired.unchanged,
        p_value=paired.p_value,
        distinguishable=paired.distinguishable,
        mean_difference=paired.mean_delta,
        ci95=paired.ci95,
    )
