"""The affected tasks re-run on base and head with one plan, and their paired task-level result.

Both sides share the seed, repeat and permutation flag; each trial's seed is derived from the
task id and trial index, so a task's trials on base and head differ only by the surface. The
comparison is the statistics engine's task-level paired test (``diff_tasks.task_paired``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from whichtool_tui.evaluation.diff_tasks import correct_and_scored, is_correct, task_paired
from whichtool_tui.evaluation.engine import RunInputs, RunOptions, run_evaluation
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.providers.base import Provider
from whichtool_tui.surface.behaviour_diff_model import AffectedTask, SurfaceRerun, TaskRerun

METHOD = (
    "affected tasks on base then head with one seed, repeat and permutation; task-level paired "
    "(head - base) correctness: "
)


def rerun_tasks(
    tasks: Sequence[TaskSpec], affected: Sequence[AffectedTask]
) -> tuple[tuple[TaskSpec, ...], tuple[TaskSpec, ...]]:
    """The runnable affected tasks as base sees them and as head sees them (renames applied)."""
    runnable = {task.task_id: task for task in affected if task.runnable}
    base = tuple(task for task in tasks if task.id in runnable)
    head = tuple(
        dataclasses.replace(task, expected=runnable[task.id].head_expected) for task in base
    )
    return base, head


def pair_reports(base: RunReport, head: RunReport) -> SurfaceRerun:
    """Match trials by (task, trial index) and compare the two runs task by task."""
    by_key = {(t.task_id, t.trial_index): t for t in head.trials}
    pairs = [(trial, by_key.get((trial.task_id, trial.trial_index))) for trial in base.trials]
    paired = task_paired(pairs, is_correct)
    rows: list[TaskRerun] = []
    for task_id in dict.fromkeys(trial.task_id for trial in base.trials):
        base_correct, base_scored = correct_and_scored(
            [t for t in base.trials if t.task_id == task_id]
        )
        head_correct, head_scored = correct_and_scored(
            [t for t in head.trials if t.task_id == task_id]
        )
        change = (
            head_correct / head_scored - base_correct / base_scored
            if base_scored and head_scored
            else None
        )
        rows.append(
            TaskRerun(
                task_id=task_id,
                base_correct=base_correct,
                base_scored=base_scored,
                head_correct=head_correct,
                head_scored=head_scored,
                change=change,
            )
        )
    recorded = base.reproducibility
    return SurfaceRerun(
        provider=recorded.provider,
        model=recorded.model,
        seed=recorded.seed,
        repeat=recorded.repeat,
        permuted=recorded.permuted,
        trials_per_side=len(base.trials),
        tasks=rows,
        paired=paired,
        method=METHOD + paired.test + "; Student-t 95% interval of the mean per-task change",
    )


async def rerun_both(
    base: RunInputs, head: RunInputs, options: RunOptions, provider: Provider
) -> SurfaceRerun:
    """Run base then head with the same options and provider, and pair the two reports."""
    base_report = await run_evaluation(base, options, provider)
    head_report = await run_evaluation(head, options, provider)
    return pair_reports(base_report, head_report)
