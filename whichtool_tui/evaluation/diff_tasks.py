"""The diff's paired comparisons with the task as the unit, and Holm's adjustment per tool.

Repeats of one prompt are near-copies, so six identical flips of one task are one observation,
not six: each task contributes its mean change, and the sign-flip test runs over tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.permutation import (
    SignFlipResult,
    holm_adjust,
    integer_changes,
    mean_interval,
    sign_flip_scaled,
)
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


@dataclass
class PairTally:
    """One pass over (base, head) pairs: the trial-level flips of a pass rule and, per task,
    its summed change and matched pairs (an error or a missing side excludes the pair)."""

    matched: int = 0
    gained: int = 0
    lost: int = 0
    excluded: int = 0
    by_task: dict[str, list[int]] = field(default_factory=dict)

    def inverted(self) -> PairTally:
        """The same pairs under the opposite pass rule (``not passes``): gained and lost swap
        and every task's change changes sign, with no second pass over the pairs."""
        return PairTally(
            matched=self.matched,
            gained=self.lost,
            lost=self.gained,
            excluded=self.excluded,
            by_task={task: [-change, matched] for task, (change, matched) in self.by_task.items()},
        )

    def changes(self) -> dict[str, Fraction]:
        """Per task with a matched pair: mean over its pairs of passes(head) - passes(base)."""
        return {task: Fraction(change, matched) for task, (change, matched) in self.by_task.items()}


def tally_pairs(pairs: Iterable[Paired], passes: Passes) -> PairTally:
    """Count the pairs once for both the trial-level sign test and the task-level test."""
    tally = PairTally()
    totals = tally.by_task
    for before, after in pairs:
        if before is None or after is None or "error" in (before.verdict, after.verdict):
            tally.excluded += 1
            continue
        tally.matched += 1
        was, now = passes(before), passes(after)
        if now and not was:
            tally.gained += 1
        elif was and not now:
            tally.lost += 1
        counts = totals.get(before.task_id)
        if counts is None:
            counts = totals[before.task_id] = [0, 0]
        counts[0] += int(now) - int(was)
        counts[1] += 1
    return tally


def significant_change(scaled: Sequence[int]) -> tuple[SignFlipResult, bool]:
    """The task-level test of per-task changes on one integer scale, and its verdict: some
    task changed and p <= 0.05 (diff's rule, which the power planner asks of simulated runs)."""
    test = sign_flip_scaled(scaled)
    return test, any(scaled) and test.p_value <= PAIRED_SIGNIFICANCE_LEVEL


def task_paired(pairs: Iterable[Paired], passes: Passes) -> TaskPairedComparison:
    """The task-level paired comparison: mean change, t interval, sign-flip p over tasks."""
    return tallied_task_paired(tally_pairs(pairs, passes))


def tallied_task_paired(tally: PairTally) -> TaskPairedComparison:
    """``task_paired`` from pairs already counted."""
    changes = list(tally.changes().values())
    values = [float(change) for change in changes]
    test, distinguishable = significant_change(integer_changes(changes))
    return TaskPairedComparison(
        tasks=len(changes),
        improved=sum(1 for change in changes if change > 0),
        regressed=sum(1 for change in changes if change < 0),
        unchanged=sum(1 for change in changes if change == 0),
        mean_delta=sum(values) / len(values) if values else None,
        ci95=mean_interval(values),
        p_value=test.p_value,
        test=test.method,
        distinguishable=distinguishable,
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
