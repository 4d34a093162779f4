"""The run's numbers with the task as the unit: clustered rates, pass^k, stability, position test.

Every figure here is a pure function of the scored trials, so the reader recomputes it for files
that lack it (upstream's and older ones) and checks it for files that carry it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction

from whichtool_tui.evaluation.clustered import CLUSTERED_METHOD, clustered_rate
from whichtool_tui.evaluation.metrics import picked_column
from whichtool_tui.evaluation.permutation import mean_interval, sign_flip_test
from whichtool_tui.evaluation.report_model import (
    ClusteredRate,
    ClusteredRates,
    Consistency,
    PassHatK,
    PositionTest,
    RunStatistics,
    ScoredTrial,
    TaskConsistency,
    ToolClusteredRate,
)
from whichtool_tui.evaluation.signtest import PAIRED_SIGNIFICANCE_LEVEL

POSITION_TEST = "first position minus other positions within a task; t interval; sign-flip"
Holds = Callable[[ScoredTrial], bool]


def _clustered(
    by_task: dict[str, list[ScoredTrial]], eligible: Holds, success: Holds
) -> ClusteredRate:
    counts = []
    for trials in by_task.values():
        chosen = [trial for trial in trials if eligible(trial)]
        counts.append((sum(1 for trial in chosen if success(trial)), len(chosen)))
    estimate = clustered_rate(counts)
    return ClusteredRate(
        value=estimate.value,
        tasks=estimate.tasks,
        trials=estimate.trials,
        design_effect=estimate.design_effect,
        effective_size=estimate.effective_size,
        ci95=estimate.ci95,
    )


def _targeted(trial: ScoredTrial) -> bool:
    return trial.expected is not None


def _rates(by_task: dict[str, list[ScoredTrial]], tool_names: Sequence[str]) -> ClusteredRates:
    def verdict_is(verdict: str) -> Holds:
        return lambda trial: trial.verdict == verdict

    tasks_by_tool: dict[str | None, dict[str, list[ScoredTrial]]] = defaultdict(dict)
    for task, trials in by_task.items():
        tasks_by_tool[trials[0].expected][task] = trials
    by_tool = [
        ToolClusteredRate(
            tool=tool, accuracy=_clustered(tasks_by_tool[tool], _targeted, verdict_is("correct"))
        )
        for tool in tool_names
    ]
    return ClusteredRates(
        accuracy=_clustered(by_task, _targeted, verdict_is("correct")),
        abstention=_clustered(by_task, _targeted, verdict_is("abstained")),
        over_trigger=_clustered(
            by_task, lambda trial: trial.expected is None, verdict_is("over-triggered")
        ),
        phantom=_clustered(by_task, _targeted, verdict_is("phantom")),
        multi_call_rate=_clustered(by_task, lambda _: True, lambda trial: trial.call_count > 1),
        by_tool=sorted(by_tool, key=lambda row: row.tool),
    )


def pass_hat_k(correct: int, scored: int, k: int) -> float:
    """The unbiased estimate C(c, k) / C(n, k) that k repeats drawn without replacement pass."""
    if not 1 <= k <= scored or not 0 <= correct <= scored:
        raise ValueError(f"pass^{k} is undefined for {correct}/{scored}")
    return math.comb(correct, k) / math.comb(scored, k)


def _consistency(
    by_task: dict[str, list[ScoredTrial]], repeat: int, surface: set[str]
) -> Consistency:
    rows = []
    sums: dict[int, list[float]] = defaultdict(list)
    unchanged = compared = 0
    for task_id, trials in by_task.items():
        if len(trials) >= 2:
            compared += 1
            stable = len({picked_column(trial, surface) for trial in trials}) == 1
            unchanged += stable
        else:
            stable = True
        if not _targeted(trials[0]):
            continue
        correct = sum(1 for trial in trials if trial.verdict == "correct")
        values = [pass_hat_k(correct, len(trials), k) for k in range(1, len(trials) + 1)]
        for k, value in enumerate(values, start=1):
            sums[k].append(value)
        rows.append(
            TaskConsistency(
                task_id=task_id,
                scored=len(trials),
                correct=correct,
                pass_hat_k=values,
                unchanged=stable,
            )
        )
    overall = [
        PassHatK(
            k=k,
            value=math.fsum(sums[k]) / len(sums[k]) if sums[k] else None,
            tasks=len(sums[k]),
        )
        for k in range(1, repeat + 1)
    ]
    return Consistency(
        pass_hat_k=overall,
        unchanged_tasks=unchanged,
        compared_tasks=compared,
        unchanged_share=unchanged / compared if compared else None,
        by_task=rows,
    )


def first_position_changes(by_task: dict[str, list[ScoredTrial]]) -> list[Fraction]:
    """Per task tried both first and elsewhere: success rate first minus rate elsewhere."""
    changes = []
    for trials in by_task.values():
        if not _targeted(trials[0]):
            continue
        first = [trial.verdict == "correct" for trial in trials if trial.expected_position == 0]
        other = [trial.verdict == "correct" for trial in trials if trial.expected_position > 0]
        if first and other:
            changes.append(Fraction(sum(first), len(first)) - Fraction(sum(other), len(other)))
    return changes


def _position(by_task: dict[str, list[ScoredTrial]]) -> PositionTest:
    changes = first_position_changes(by_task)
    if not changes:
        return PositionTest(
            tasks=0, advantage=None, ci95=None, p_value=None, test=POSITION_TEST, significant=False
        )
    values = [float(change) for change in changes]
    advantage = math.fsum(values) / len(values)
    test = sign_flip_test(changes)
    return PositionTest(
        tasks=len(changes),
        advantage=advantage,
        ci95=mean_interval(values),
        p_value=test.p_value,
        test=f"{POSITION_TEST} ({test.method})",
        significant=advantage != 0 and test.p_value <= PAIRED_SIGNIFICANCE_LEVEL,
    )


def scored_by_task(trials: Sequence[ScoredTrial]) -> dict[str, list[ScoredTrial]]:
    """Scored trials grouped by task, in trial order, tasks in first-seen order."""
    groups: dict[str, list[ScoredTrial]] = defaultdict(list)
    for trial in trials:
        if trial.verdict != "error":
            groups[trial.task_id].append(trial)
    for group in groups.values():
        group.sort(key=lambda trial: trial.trial_index)
    return dict(groups)


def compute_statistics(
    trials: Sequence[ScoredTrial], tool_names: Sequence[str], repeat: int
) -> RunStatistics:
    """Task-clustered rates, consistency and the position test of one run's trials."""
    by_task = scored_by_task(trials)
    return RunStatistics(
        unit="task",
        interval_method=CLUSTERED_METHOD,
        rates=_rates(by_task, tool_names),
        consistency=_consistency(by_task, repeat, set(tool_names)),
        position=_position(by_task),
    )
