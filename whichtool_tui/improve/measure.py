"""Held-out figures of a candidate against the surface it would replace, and the decision.

Base and candidate ran the same held-out tasks with one seed, repeat and permutation, so trials
pair by (task, trial index). Accuracy is single-call correctness on the tasks that expect a
tool; over-trigger is a call on a distractor. Both get the task-clustered interval, and every
comparison is the statistics engine's task-level paired test (``diff_tasks.task_paired``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from whichtool_tui.evaluation.clustered import clustered_rate
from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.diff_tasks import is_correct, task_paired
from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial
from whichtool_tui.evaluation.wording import points, signed_points
from whichtool_tui.improve.model import HeldOutRate, Measurement, Target

Passes = Callable[[ScoredTrial], bool]


def _abstained(trial: ScoredTrial) -> bool:
    return trial.verdict == "correct-abstention"


def _over_triggered(trial: ScoredTrial) -> bool:
    return trial.verdict == "over-triggered"


def held_out_rate(trials: Sequence[ScoredTrial], passes: Passes) -> HeldOutRate:
    """Successes over scored trials, with the task-clustered 95% interval."""
    counts: dict[str, list[int]] = {}
    for trial in trials:
        if trial.verdict == "error":
            continue
        entry = counts.setdefault(trial.task_id, [0, 0])
        entry[0] += int(passes(trial))
        entry[1] += 1
    estimate = clustered_rate([(hits, total) for hits, total in counts.values()])
    return HeldOutRate(
        successes=estimate.successes,
        trials=estimate.trials,
        tasks=estimate.tasks,
        value=estimate.value,
        ci95=estimate.ci95,
    )


def _paired(
    base: RunReport, head: RunReport, task_ids: Collection[str], passes: Passes
) -> TaskPairedComparison:
    by_key = {(t.task_id, t.trial_index): t for t in head.trials}
    pairs = [
        (trial, by_key.get((trial.task_id, trial.trial_index)))
        for trial in base.trials
        if trial.task_id in task_ids
    ]
    return task_paired(pairs, passes)


def targeted_task_ids(base: RunReport, target: Target) -> list[str]:
    """Held-out tasks the target is about: expecting a targeted tool, or the distractors."""
    if target.kind == "static":
        return []
    if target.kind == "over-trigger":
        wanted: set[str | None] = {None}
    else:
        wanted = set(target.tools)
    return list(dict.fromkeys(t.task_id for t in base.trials if t.expected in wanted))


def measure(
    base: RunReport, head: RunReport, target: Target, tokens: tuple[int, int]
) -> Measurement:
    """Every figure of one comparison; ``tokens`` is the tool's estimate before and after."""
    tool_tasks = {t.task_id for t in base.trials if t.expected is not None}
    distractors = {t.task_id for t in base.trials if t.expected is None}
    targeted = targeted_task_ids(base, target)
    passes = _abstained if target.kind == "over-trigger" else is_correct
    before, after = tokens
    return Measurement(
        accuracy_before=held_out_rate(
            [t for t in base.trials if t.task_id in tool_tasks], is_correct
        ),
        accuracy_after=held_out_rate(
            [t for t in head.trials if t.task_id in tool_tasks], is_correct
        ),
        over_trigger_before=held_out_rate(
            [t for t in base.trials if t.task_id in distractors], _over_triggered
        ),
        over_trigger_after=held_out_rate(
            [t for t in head.trials if t.task_id in distractors], _over_triggered
        ),
        accuracy_paired=_paired(base, head, tool_tasks, is_correct),
        abstention_paired=_paired(base, head, distractors, _abstained),
        targeted_tasks=targeted,
        targeted_paired=_paired(base, head, set(targeted), passes) if targeted else None,
        tokens_before=before,
        tokens_after=after,
        token_growth=round(after / before - 1, 6) if before else 0.0,
    )


def _change(comparison: TaskPairedComparison) -> float:
    return comparison.mean_delta if comparison.mean_delta is not None else 0.0


def decide(measured: Measurement, target: Target, max_token_growth: float) -> tuple[bool, str]:
    """Accept only with no held-out accuracy drop, no over-trigger rise, the token cost within
    its bound, and (for a targeted rewrite) an improvement on the tasks it targeted; the reason
    names every gate that failed, or the figures that passed."""
    failed: list[str] = []
    if measured.token_growth > max_token_growth:
        failed.append(
            f"token cost grew by {measured.token_growth:.1%} ({measured.tokens_before} -> "
            f"{measured.tokens_after}), above the allowed {max_token_growth:.0%}"
        )
    accuracy = _change(measured.accuracy_paired)
    if accuracy < 0:
        failed.append(
            f"held-out accuracy fell by {points(accuracy)} per task over "
            f"{measured.accuracy_paired.tasks} tasks"
        )
    abstention = _change(measured.abstention_paired)
    if abstention < 0:
        failed.append(
            f"over-trigger rose by {points(abstention)} per distractor over "
            f"{measured.abstention_paired.tasks} held-out distractors"
        )
    targeted = ""
    if target.kind != "static":
        about = (
            "held-out distractors"
            if target.kind == "over-trigger"
            else "held-out tasks expecting " + ", ".join(f"`{name}`" for name in target.tools)
        )
        paired = measured.targeted_paired
        if paired is None:
            failed.append(f"no {about}: the improvement it targets cannot be measured")
        elif _change(paired) <= 0:
            failed.append(f"no improvement on the {paired.tasks} {about}")
        else:
            gain = signed_points(_change(paired))
            targeted = f"improved the {paired.tasks} {about} by {gain} per task; "
    if failed:
        return False, "; ".join(failed)
    return True, (
        f"{targeted}held-out accuracy {signed_points(accuracy)} per task, over-trigger did not "
        f"rise, token cost {measured.token_growth:+.1%}"
    )
