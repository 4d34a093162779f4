"""The run's numbers with the task as the unit: clustered rates, pass^k, stability, position test.

Every figure here is a pure function of the scored trials, so the reader recomputes it for files
that lack it (upstream's and older ones) and checks it for files that carry it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

from whichtool_tui.evaluation.clustered import CLUSTERED_METHOD, clustered_rate
from whichtool_tui.evaluation.metrics import picked_column
from whichtool_tui.evaluation.permutation import mean_interval, sign_flip_test
from whichtool_tui.evaluation.position_test import PositionCounts, position_permutation_test
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

POSITION_TEST = "first position minus other positions within a task; t interval; permutation"
LEGACY_POSITION_TEST = "first position minus other positions within a task; t interval; sign-flip"


def _clustered(counts: Sequence[tuple[int, int]]) -> ClusteredRate:
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
    """Every clustered rate from one count per task and verdict (one pass over the trials)."""
    verdicts: dict[str, Counter[str]] = {}
    multi: list[tuple[int, int]] = []
    for task, trials in by_task.items():
        verdicts[task] = Counter(trial.verdict for trial in trials)
        multi.append((sum(1 for trial in trials if trial.call_count > 1), len(trials)))

    def counts(verdict: str, targeted: bool, tool: str | None = None) -> list[tuple[int, int]]:
        rows = []
        for task, trials in by_task.items():
            expected = trials[0].expected
            if (expected is not None) != targeted or (tool is not None and expected != tool):
                continue
            rows.append((verdicts[task][verdict], len(trials)))
        return rows

    tasks_by_tool: dict[str | None, list[tuple[int, int]]] = defaultdict(list)
    for task, trials in by_task.items():
        tasks_by_tool[trials[0].expected].append((verdicts[task]["correct"], len(trials)))
    return ClusteredRates(
        accuracy=_clustered(counts("correct", True)),
        abstention=_clustered(counts("abstained", True)),
        over_trigger=_clustered(counts("over-triggered", False)),
        phantom=_clustered(counts("phantom", True)),
        multi_call_rate=_clustered(multi),
        by_tool=[
            ToolClusteredRate(tool=tool, accuracy=_clustered(tasks_by_tool.get(tool, [])))
            for tool in sorted(tool_names)
        ],
    )


def pass_hat_k(correct: int, scored: int) -> list[float]:
    """C(c, k) / C(n, k) for k = 1..n: the chance that k repeats drawn without replacement pass.

    Built by the ratio C(c, k) / C(c, k-1) over C(n, k) / C(n, k-1), so a task with 1,000
    repeats costs 1,000 multiplications rather than 1,000 big binomials.
    """
    if not 0 <= correct <= scored:
        raise ValueError(f"pass^k is undefined for {correct}/{scored}")
    values = []
    value = 1.0
    for k in range(1, scored + 1):
        value *= max(0, correct - k + 1) / (scored - k + 1)
        values.append(value)
    return values


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
        values = pass_hat_k(correct, len(trials))
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


def first_position_counts(by_task: dict[str, list[ScoredTrial]]) -> list[PositionCounts]:
    """Per targeted task tried both first and elsewhere: its trials, successes, and the first
    ones among them."""
    rows = []
    for trials in by_task.values():
        if not _targeted(trials[0]):
            continue
        shown = [trial for trial in trials if trial.expected_position >= 0]
        first = [trial.verdict == "correct" for trial in shown if trial.expected_position == 0]
        if first and len(first) < len(shown):
            successes = sum(1 for trial in shown if trial.verdict == "correct")
            rows.append(PositionCounts(len(shown), successes, len(first), sum(first)))
    return rows


def first_position_changes(by_task: dict[str, list[ScoredTrial]]) -> list[Fraction]:
    """Per task tried both first and elsewhere: success rate first minus rate elsewhere."""
    return [row.change(row.first_successes) for row in first_position_counts(by_task)]


def _position(by_task: dict[str, list[ScoredTrial]]) -> PositionTest:
    counts = first_position_counts(by_task)
    if not counts:
        return PositionTest(
            tasks=0, advantage=None, ci95=None, p_value=None, test=POSITION_TEST, significant=False
        )
    values = [float(row.change(row.first_successes)) for row in counts]
    advantage = math.fsum(values) / len(values)
    test = position_permutation_test(counts)
    return PositionTest(
        tasks=len(counts),
        advantage=advantage,
        ci95=mean_interval(values),
        p_value=test.p_value,
        test=f"{POSITION_TEST} ({test.method})",
        significant=advantage != 0 and test.p_value <= PAIRED_SIGNIFICANCE_LEVEL,
    )


def legacy_position(trials: Sequence[ScoredTrial]) -> PositionTest:
    """The position test as files written before the permutation test carry it (a sign flip
    over tasks): only to check such a file's stored block before it is replaced."""
    counts = first_position_counts(scored_by_task(trials))
    if not counts:
        return PositionTest(
            tasks=0,
            advantage=None,
            ci95=None,
            p_value=None,
            test=LEGACY_POSITION_TEST,
            significant=False,
        )
    changes = [row.change(row.first_successes) for row in counts]
    values = [float(change) for change in changes]
    advantage = math.fsum(values) / len(values)
    test = sign_flip_test(changes)
    return PositionTest(
        tasks=len(counts),
        advantage=advantage,
        ci95=mean_interval(values),
        p_value=test.p_value,
        test=f"{LEGACY_POSITION_TEST} ({test.method})",
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
