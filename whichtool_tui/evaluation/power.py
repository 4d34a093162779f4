"""Power and budget planning for the task-level gate: how many tasks x repeats detect a drop.

A normal approximation to the sign-flip test over tasks. Each task's change in success rate is
modelled as a true drop concentrated in a share ``detect`` of the tasks (each of which flips
wholesale, as a temperature-0 model does: variance detect x (1 - detect)) plus fresh sampling
noise in both runs (2 x within-task variance / repeats). The within-task variance comes from a
pilot run when one is given, otherwise it is assumed to be 0.25, its largest possible value.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import TYPE_CHECKING

from whichtool_tui.evaluation.report_model import RunReport

if TYPE_CHECKING:
    from whichtool_tui.evaluation.engine import PreparedRun, RunOptions

POWER_TARGET = 0.80
ASSUMED_WITHIN_VARIANCE = 0.25
PLANNING_REPEATS = (1, 3, 5, 10, 20)
_LEVEL = 0.05


@dataclass(frozen=True)
class PlanOption:
    """One tasks x repeats plan that reaches the target power, with its price."""

    repeat: int
    tasks: int
    trials: int
    prompt_tokens: int
    seconds: int | None


@dataclass(frozen=True)
class PowerPlan:
    """The power of the planned run and the cheapest plans that reach the target."""

    detect: float
    tasks: int
    repeat: int
    within_variance: float
    variance_source: str
    power: float
    options: tuple[PlanOption, ...]

    @property
    def cheapest(self) -> PlanOption:
        """The plan with the fewest trials (then the fewest repeats)."""
        return min(self.options, key=lambda option: (option.trials, option.repeat))


def change_variance(detect: float, within_variance: float, repeat: int) -> float:
    """Variance of one task's change in success rate under the planning model."""
    return detect * (1 - detect) + 2 * within_variance / repeat


def gate_power(tasks: int, repeat: int, detect: float, within_variance: float) -> float:
    """Approximate chance that the two-sided task-level gate (p <= 0.05) sees the drop."""
    if tasks < 1:
        return 0.0
    spread = math.sqrt(change_variance(detect, within_variance, repeat))
    normal = NormalDist()
    shift = math.sqrt(tasks) * detect / spread
    critical = normal.inv_cdf(1 - _LEVEL / 2)
    return normal.cdf(shift - critical) + normal.cdf(-shift - critical)


def tasks_needed(repeat: int, detect: float, within_variance: float) -> int:
    """Tasks for the target power at this repeat count (normal approximation)."""
    normal = NormalDist()
    z = normal.inv_cdf(1 - _LEVEL / 2) + normal.inv_cdf(POWER_TARGET)
    return max(2, math.ceil(z * z * change_variance(detect, within_variance, repeat) / detect**2))


def pilot_within_variance(report: RunReport) -> float | None:
    """Mean unbiased within-task variance of success over targeted tasks with 2+ scored trials."""
    counts: dict[str, list[int]] = {}
    for trial in report.trials:
        if trial.expected is None or trial.verdict == "error":
            continue
        row = counts.setdefault(trial.task_id, [0, 0])
        row[0] += trial.verdict == "correct"
        row[1] += 1
    variances = [
        correct * (scored - correct) / (scored * (scored - 1))
        for correct, scored in counts.values()
        if scored >= 2
    ]
    return sum(variances) / len(variances) if variances else None


def plan_power(
    tasks: int,
    repeat: int,
    detect: float,
    prompt_tokens_per_trial: int,
    concurrency: int,
    seconds_per_trial: float | None,
    pilot: RunReport | None = None,
) -> PowerPlan:
    """Power of the planned run, and for each planning repeat count the tasks it would need."""
    if not 0 < detect < 1:
        raise ValueError("the effect to detect must lie strictly between 0 and 1")
    measured = pilot_within_variance(pilot) if pilot is not None else None
    if measured is None:
        within, source = ASSUMED_WITHIN_VARIANCE, "assumed 0.25 (the largest possible)"
        if pilot is not None:
            source += "; the pilot run has no task with two scored repeats"
    else:
        within, source = measured, "measured on the pilot run"
    options = []
    for planned_repeat in sorted({*PLANNING_REPEATS, repeat}):
        needed = tasks_needed(planned_repeat, detect, within)
        trials = needed * planned_repeat
        seconds = (
            None
            if seconds_per_trial is None
            else math.ceil(trials * seconds_per_trial / max(1, concurrency))
        )
        options.append(
            PlanOption(
                repeat=planned_repeat,
                tasks=needed,
                trials=trials,
                prompt_tokens=trials * prompt_tokens_per_trial,
                seconds=seconds,
            )
        )
    return PowerPlan(
        detect=detect,
        tasks=tasks,
        repeat=repeat,
        within_variance=within,
        variance_source=source,
        power=gate_power(tasks, repeat, detect, within),
        options=tuple(options),
    )


def _load_pilot(path: str) -> RunReport:
    """The pilot run, read once per file version (the Run screen replans on every keystroke)."""
    try:
        stat = os.stat(path)
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, -1)  # let the reader name the problem
    return _load_pilot_version(path, version)


@lru_cache(maxsize=2)
def _load_pilot_version(path: str, version: tuple[int, int]) -> RunReport:
    from whichtool_tui.evaluation.reader import load_run_report

    return load_run_report(path)


def power_for_run(prepared: PreparedRun, options: RunOptions) -> PowerPlan:
    """The power plan of a prepared run, reading ``options.baseline`` as the pilot when set."""
    pilot = None if options.baseline is None else _load_pilot(options.baseline)
    targeted = sum(1 for task in prepared.plan.selected if task.expected is not None)
    estimate = prepared.estimate
    return plan_power(
        targeted,
        prepared.plan.repeat,
        options.detect,
        estimate.prompt_tokens_per_trial,
        estimate.concurrency,
        estimate.seconds_per_trial,
        pilot,
    )


def repeats_needed(tasks: int, detect: float, within_variance: float) -> int | None:
    """Fewest repeats that give the target power with this many tasks; None when none can."""
    normal = NormalDist()
    z = normal.inv_cdf(1 - _LEVEL / 2) + normal.inv_cdf(POWER_TARGET)
    room = tasks * detect**2 / (z * z) - detect * (1 - detect)
    if room <= 0:
        return None
    return max(1, math.ceil(2 * within_variance / room))


def _price(option: PlanOption) -> str:
    minutes = "" if option.seconds is None else f", ~{math.ceil(option.seconds / 60)} min"
    return (
        f"{option.tasks} tasks x {option.repeat} = {option.trials} trials, "
        f"~{option.prompt_tokens:,} prompt tokens{minutes}"
    )


def power_lines(plan: PowerPlan) -> list[str]:
    """The plan in a few plain lines, shared by the dry run and the Run screen."""
    repeats = repeats_needed(plan.tasks, plan.detect, plan.within_variance)
    floor = tasks_needed(10**9, plan.detect, plan.within_variance)
    if repeats is None:
        with_these = (
            f"no repeat count reaches 80% with {plan.tasks} tasks: the drop must show in "
            f"enough tasks (at least {floor})"
        )
    else:
        with_these = f"{repeats} repeats reach 80% with these {plan.tasks} tasks"
    return [
        f"{plan.power:.0%} to detect a {plan.detect * 100:g}-point drop with {plan.tasks} "
        f"tasks x {plan.repeat} repeats (task-level gate, p <= 0.05; within-task variance "
        f"{plan.within_variance:.3g}, {plan.variance_source})",
        f"80% power: {with_these}; cheapest plan {_price(plan.cheapest)}",
        "80% plans: " + "; ".join(_price(option) for option in plan.options),
    ]
