"""The diff's paired comparisons with the task as the unit, and Holm's adjustment per tool.

Repeats of one prompt are near-copies, so six identical flips of one task are one observation,
not six: each task contributes its mean change, and the sign-flip test runs over tasks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.permutation import holm_adjust, mean_interval, sign_flip_test
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.evaluation.signtest import PAIRED_SIGNIFICANCE_LEVEL

Paired = tuple[ScoredTrial | None, ScoredTrial | None]
Passes = Callable[[ScoredTrial], bool]


def is_correct(trial: ScoredTrial) -> bool:
    """The pass rule every paired accuracy comparison uses: the trial's verdict is correct."""
    return trial.verdict == "correct"


def correct_and_scored(trials: Iterable[ScoredTrial]) -> tuple[int, int]:
    """(correct, scored) over trials that did not error: the numerator and denominator of an
    accuracy that a comparison reports per task and per arm."""
    scored = [trial for trial in trials if trial.verdict != "error"]
    return sum(1 for trial in scored if is_correct(trial)), len(scored)


def task_changes(pairs: Iterable[Paired], passes: Passes) -> dict[str, Fraction]:
    """Per task with a matched pair: mean over its pairs of passes(head) - passes(base)."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for before, after in pairs:
        if before is None or after is None or "error" in (before.verdict, after.verdict):
            continue
        counts = totals[before.task_id]
        counts[0] += int(passes(after)) - int(passes(before))
        counts[1] += 1
    return {task: Fraction(change, matched) for task, (change, matched) in totals.items()}


def _significant(changes: Sequence[Fraction], p_value: float) -> bool:
    return any(changes) and p_value <= PAIRED_SIGNIFICANCE_LEVEL


def task_paired(pairs: Iterable[Paired], passes: Passes) -> TaskPairedComparison:
    """The task-level paired comparison: mean change, t interval, sign-flip p over tasks."""
    changes = list(task_changes(pairs, passes).values())
    values = [float(change) for change in changes]
    test = sign_flip_test(changes)
    return TaskPairedComparison(
        tasks=len(changes),
        improved=sum(1 for change in changes if change > 0),
        regressed=sum(1 for change in changes if change < 0),
        unchanged=sum(1 for change in changes if change == 0),
        mean_delta=sum(values) / len(values) if values else None,
        ci95=mean_interval(values),
        p_value=test.p_value,
        test=test.method,
        distinguishable=_significant(changes, test.p_value),
    )


def holm_family(comparisons: Sequence[TaskPairedComparison]) -> list[TaskPairedComparison]:
    """The comparisons with Holm-adjusted p-values over those that compared any task."""
    tested = [index for index, comparison in enumerate(comparisons) if comparison.tasks > 0]
    adjusted = holm_adjust([comparisons[index].p_value for index in tested])
    result = list(comparisons)
    for index, p_value in zip(tested, adjusted, strict=True):
        comparison = comparisons[index]
        result[index] = comparison.model_copy(
            update={
                "adjusted_p_value": p_value,
                "test": f"{comparison.test}; holm-adjusted over {len(tested)} tools",
                "distinguishable": comparison.improved + comparison.regressed > 0
                and p_value <= PAIRED_SIGNIFICANCE_LEVEL,
            }
        )
    return result
