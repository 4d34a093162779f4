"""Every rate of a run, computed from its scored trials alone so a reader can recompute it."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from whichtool_tui.evaluation.report_model import (
    ConfusionPair,
    Metrics,
    PositionBucket,
    PositionSensitivity,
    ScoredTrial,
    ToolCount,
    ToolMetrics,
    TrialCounts,
)
from whichtool_tui.evaluation.stats import proportion
from whichtool_tui.evaluation.verdicts import argument_check_valid

MIN_TRIALS_PER_TOOL = 5
NONE_KEY = "(none)"
PHANTOM_KEY = "(phantom)"
MULTIPLE_KEY = "(multiple calls)"
POSITION_METHOD = "within-task-range"


def picked_column(trial: ScoredTrial, surface: set[str]) -> str:
    """The confusion-matrix column of a scored trial: a tool, none, phantom or multiple."""
    if trial.call_count > 1:
        return MULTIPLE_KEY
    if trial.call_count == 0:
        return NONE_KEY
    if trial.pick is None or trial.pick not in surface:
        return PHANTOM_KEY
    return trial.pick


def _tool_metrics(tool: str, expecting: Sequence[ScoredTrial], context_tokens: int) -> ToolMetrics:
    """The per-tool row, from the trials (errored included) that expected this tool, in one pass."""
    scored = correct = abstained = phantom = checked = valid = hallucinated = 0
    confused: Counter[str] = Counter()
    for trial in expecting:
        check = trial.argument_check
        if check is not None:
            hallucinated += len(check.hallucinated)
        verdict = trial.verdict
        if verdict == "error":
            continue
        scored += 1
        if verdict == "correct":
            correct += 1
            if check is not None and not check.vacuous:
                checked += 1
                valid += argument_check_valid(check)
        elif verdict == "wrong-tool":
            if trial.pick is not None:
                confused[trial.pick] += 1
        elif verdict == "abstained":
            abstained += 1
        elif verdict == "phantom":
            phantom += 1
    return ToolMetrics(
        tool=tool,
        accuracy=proportion(correct, scored),
        confused_with=[
            ToolCount(tool=name, count=count)
            for name, count in sorted(confused.items(), key=lambda item: (-item[1], item[0]))
        ],
        abstained=abstained,
        phantom=phantom,
        errors=len(expecting) - scored,
        argument_accuracy=proportion(valid, checked),
        hallucinated_parameters=hallucinated,
        context_tokens=context_tokens,
    )


def _confusion_pairs(scored: Sequence[ScoredTrial]) -> list[ConfusionPair]:
    expecting = Counter(t.expected for t in scored if t.expected is not None)
    directed: Counter[tuple[str, str]] = Counter()
    for trial in scored:
        if trial.verdict == "wrong-tool" and trial.expected is not None and trial.pick is not None:
            directed[(trial.expected, trial.pick)] += 1
    pairs: dict[tuple[str, str], ConfusionPair] = {}
    for expected, picked in directed:
        first, second = sorted((expected, picked))
        if (first, second) in pairs:
            continue
        b_chosen_when_a = directed[(first, second)]
        a_chosen_when_b = directed[(second, first)]
        swaps = a_chosen_when_b + b_chosen_when_a
        denominator = expecting[first] + expecting[second]
        pairs[(first, second)] = ConfusionPair(
            tools=(first, second),
            swaps=swaps,
            rate=proportion(swaps, denominator),
            a_chosen_when_b_expected=a_chosen_when_b,
            b_chosen_when_a_expected=b_chosen_when_a,
        )
    return sorted(pairs.values(), key=lambda pair: (-pair.swaps, pair.tools))


def _position(scored: Sequence[ScoredTrial]) -> PositionSensitivity:
    # [correct, total] per expected position, pooled and per task (insertion order kept).
    pooled: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    per_task: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for trial in scored:
        position = trial.expected_position
        if trial.expected is None or position < 0:
            continue
        hit = trial.verdict == "correct"
        for counts in (pooled[position], per_task[trial.task_id][position]):
            counts[0] += hit
            counts[1] += 1
    ranges = []
    for positions in per_task.values():
        if len(positions) < 2:
            continue
        rates = [correct / total for correct, total in positions.values()]
        ranges.append(max(rates) - min(rates))
    return PositionSensitivity(
        buckets=[
            PositionBucket(position=position, accuracy=proportion(*pooled[position]))
            for position in sorted(pooled)
        ],
        spread=sum(ranges) / len(ranges) if ranges else None,
        comparable_tasks=len(ranges),
        method=POSITION_METHOD,
    )


def _tool_sort_key(metrics: ToolMetrics) -> tuple[int, float, str]:
    value = metrics.accuracy.value
    return (1, 0.0, metrics.tool) if value is None else (0, value, metrics.tool)


def compute_metrics(
    trials: Sequence[ScoredTrial],
    tool_names: Sequence[str],
    context_tokens: Mapping[str, int],
    planned: int,
) -> Metrics:
    """Rates with Wilson intervals, per-tool table, confusion matrix and pairs, position."""
    # One pass groups every trial by expected tool and counts verdicts, so the work stays linear
    # in the trials however many tools the surface has.
    expecting: dict[str | None, list[ScoredTrial]] = defaultdict(list)
    scored: list[ScoredTrial] = []
    targeted_verdicts: Counter[str] = Counter()
    distractor_verdicts: Counter[str] = Counter()
    surface = set(tool_names)
    matrix: dict[str, Counter[str]] = defaultdict(Counter)
    multi_call = clarification = 0
    for trial in trials:
        expecting[trial.expected].append(trial)
        if trial.verdict == "error":
            continue
        scored.append(trial)
        if trial.expected is None:
            distractor_verdicts[trial.verdict] += 1
        else:
            targeted_verdicts[trial.verdict] += 1
        matrix[trial.expected or NONE_KEY][picked_column(trial, surface)] += 1
        multi_call += trial.call_count > 1
        clarification += trial.asked_for_clarification
    targeted = sum(targeted_verdicts.values())
    distractors = sum(distractor_verdicts.values())
    by_tool = sorted(
        (
            _tool_metrics(tool, expecting.get(tool, ()), context_tokens.get(tool, 0))
            for tool in tool_names
        ),
        key=_tool_sort_key,
    )
    return Metrics(
        trials=TrialCounts(planned=planned, scored=len(scored), errored=planned - len(scored)),
        accuracy=proportion(targeted_verdicts["correct"], targeted),
        abstention=proportion(targeted_verdicts["abstained"], targeted),
        over_trigger=proportion(distractor_verdicts["over-triggered"], distractors),
        phantom=proportion(targeted_verdicts["phantom"], targeted),
        multi_call_rate=proportion(multi_call, len(scored)),
        clarification=proportion(clarification, len(scored)),
        by_tool=by_tool,
        confusion_matrix={
            row: dict(sorted(columns.items())) for row, columns in sorted(matrix.items())
        },
        confusion_pairs=_confusion_pairs(scored),
        position=_position(scored),
        min_trials_per_tool=MIN_TRIALS_PER_TOOL,
    )
