"""Power and budget planning for diff's accuracy gate, by simulating the gate itself.

The plan is what ``power_sim`` measures: diff's own task-level test run on 2,000 seeded
simulated pairs of runs, from a pilot run's per-task rates when one is given (else a stated
prior), under two drop models. It also states what no amount of repeats can change: the exact
sign-flip test over tasks cannot reach p <= 0.05 unless at least 6 tasks change, and under Holm
over m tools a tool needs more (9 tasks at 8 tools).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from whichtool_tui.evaluation.power_sim import (
    DROP_MODELS,
    SIMULATION_DRAWS,
    DropModel,
    PowerEstimate,
    min_changed_tasks,
    simulate_power,
)
from whichtool_tui.evaluation.report_model import RunReport

if TYPE_CHECKING:
    from whichtool_tui.evaluation.engine import PreparedRun, RunOptions

POWER_TARGET = 0.80
PLANNING_REPEATS = (1, 3, 5, 10, 20)
MAX_PLANNED_TASKS = 400
MAX_PLANNED_REPEATS = 50
PRIOR = "prior: task base rates spread evenly over 50-100% (no pilot run given)"
_SEARCH_DRAWS = 1_000


def prior_rates(tasks: int) -> list[float]:
    """The stated prior: base rates at the quantiles of a uniform 0.5-1.0."""
    return [0.5 + 0.5 * (index + 0.5) / tasks for index in range(tasks)]


def pilot_rates(report: RunReport) -> list[float]:
    """Each targeted task's success rate over its scored trials in the pilot run."""
    counts: dict[str, list[int]] = {}
    for trial in report.trials:
        if trial.expected is None or trial.verdict == "error":
            continue
        row = counts.setdefault(trial.task_id, [0, 0])
        row[0] += trial.verdict == "correct"
        row[1] += 1
    return sorted(correct / scored for correct, scored in counts.values())


def design_rates(source: Sequence[float] | None, tasks: int) -> tuple[float, ...]:
    """``tasks`` base rates: the source's quantiles (a pilot of any size), else the prior."""
    if not source:
        return tuple(prior_rates(tasks))
    ordered = sorted(source)
    return tuple(
        ordered[min(len(ordered) - 1, int((i + 0.5) / tasks * len(ordered)))] for i in range(tasks)
    )


@dataclass(frozen=True)
class PlanOption:
    """The fewest tasks at one repeat count whose simulated power reaches the target."""

    repeat: int
    tasks: int | None  # None: not within MAX_PLANNED_TASKS
    power: PowerEstimate | None
    trials: int
    prompt_tokens: int
    seconds: int | None


@dataclass(frozen=True)
class ToolReach:
    """Whether a tool's own task-level comparison can reach p <= 0.05 after Holm."""

    tool: str
    tasks: int
    needed: int

    @property
    def reachable(self) -> bool:
        """It has enough tasks for Holm's adjusted floor to reach the level."""
        return self.tasks >= self.needed


@dataclass(frozen=True)
class PowerPlan:
    """The planned run's simulated power, what can never gate, and the 80% plans."""

    detect: float
    tasks: int
    repeat: int
    max_accuracy_drop: float | None
    rates_source: str
    power: Mapping[DropModel, PowerEstimate]
    min_tasks: int
    tools: tuple[ToolReach, ...]
    options: tuple[PlanOption, ...]
    repeats_needed: int | None

    @property
    def headline(self) -> PowerEstimate:
        """The spread model's power: the figure the plan leads with."""
        return self.power["spread"]


def _simulate(
    source: tuple[float, ...] | None,
    tasks: int,
    repeat: int,
    detect: float,
    model: DropModel,
    max_drop: float | None,
    draws: int = SIMULATION_DRAWS,
    decide: bool = False,
) -> PowerEstimate:
    rates = design_rates(source, tasks)
    if detect > sum(rates) / len(rates):
        return PowerEstimate(0.0, draws)  # the base accuracy is below the drop to detect
    target = POWER_TARGET if decide else None
    return simulate_power(rates, repeat, detect, model, max_drop, draws, decide_against=target)


def _reaches(
    source: tuple[float, ...] | None, tasks: int, repeat: int, detect: float, cap: float | None
) -> bool:
    """Whether the spread model's power reaches the target (a search step: stops early)."""
    estimate = _simulate(source, tasks, repeat, detect, "spread", cap, _SEARCH_DRAWS, True)
    return estimate.power >= POWER_TARGET


def _fewest(reaches: Callable[[int], bool], low: int, cap: int) -> int | None:
    """The smallest n in [low, cap] for which ``reaches(n)``, to within 5%: steps up by half
    again each time (small plans stay cheap to find), then bisects the last step; None when
    even ``cap`` fails."""
    below, step = low - 1, low
    while not reaches(step):
        if step >= cap:
            return None
        below, step = step, min(cap, max(step + 1, step * 3 // 2))
    while step - below > max(1, step // 20):
        middle = (below + step) // 2
        if reaches(middle):
            step = middle
        else:
            below = middle
    return step


def _fewest_tasks(
    source: tuple[float, ...] | None,
    repeat: int,
    detect: float,
    cap: float | None,
    start: int,
) -> int | None:
    """The fewest tasks reaching the target at this repeat count, searched from ``start``
    (what more repeats needed: fewer repeats need at least about as many tasks)."""
    return _fewest(
        lambda tasks: _reaches(source, tasks, repeat, detect, cap), start, MAX_PLANNED_TASKS
    )


@lru_cache(maxsize=64)
def _fewest_repeats(
    source: tuple[float, ...] | None, tasks: int, detect: float, cap: float | None
) -> int | None:
    """The fewest repeats reaching the target with these tasks; None when none can."""
    if tasks < min_changed_tasks():
        return None
    return _fewest(
        lambda repeat: _reaches(source, tasks, repeat, detect, cap), 1, MAX_PLANNED_REPEATS
    )


def tool_reach(tasks_by_tool: Mapping[str, int]) -> tuple[ToolReach, ...]:
    """Per tool with a task: its task count and the fewest Holm lets reach p <= 0.05."""
    compared = sum(1 for count in tasks_by_tool.values() if count > 0)
    needed = min_changed_tasks(max(1, compared))
    return tuple(
        ToolReach(tool, count, needed) for tool, count in sorted(tasks_by_tool.items()) if count
    )


PlanRow = tuple[int, int | None, PowerEstimate | None]


@lru_cache(maxsize=256)
def _plan_row(
    source: tuple[float, ...] | None,
    repeat: int,
    detect: float,
    cap: float | None,
    start: int | None,
) -> PlanRow:
    """One 80% plan, confirmed with the full draws; searched from ``start`` (None: hopeless)."""
    fewest = None if start is None else _fewest_tasks(source, repeat, detect, cap, start)
    confirmed = None if fewest is None else _simulate(source, fewest, repeat, detect, "spread", cap)
    return repeat, fewest, confirmed


@lru_cache(maxsize=32)
def _standard_rows(
    source: tuple[float, ...] | None, detect: float, cap: float | None
) -> tuple[PlanRow, ...]:
    """The plans at the standard repeat counts, each search starting from the next larger's
    answer; they do not depend on the planned run, so the Run screen reuses them."""
    rows: list[PlanRow] = []
    start: int | None = min_changed_tasks()
    for planned in sorted(PLANNING_REPEATS, reverse=True):
        row = _plan_row(source, planned, detect, cap, start)
        rows.append(row)
        start = row[1]
    return tuple(reversed(rows))


@lru_cache(maxsize=32)
def _plan(
    source: tuple[float, ...] | None,
    tasks: int,
    repeat: int,
    detect: float,
    cap: float | None,
) -> tuple[dict[DropModel, PowerEstimate], tuple[PlanRow, ...], int | None]:
    power = {
        model: _simulate(source, tasks, repeat, detect, model, cap)
        if tasks
        else PowerEstimate(0.0, SIMULATION_DRAWS)
        for model in DROP_MODELS
    }
    rows = list(_standard_rows(source, detect, cap))
    if repeat not in PLANNING_REPEATS:
        larger = [row for row in rows if row[0] > repeat]
        start = larger[0][1] if larger else min_changed_tasks()
        rows = sorted([*rows, _plan_row(source, repeat, detect, cap, start)])
    return power, tuple(rows), _fewest_repeats(source, tasks, detect, cap)


def plan_power(
    tasks: int,
    repeat: int,
    detect: float,
    prompt_tokens_per_trial: int,
    concurrency: int,
    seconds_per_trial: float | None,
    pilot: RunReport | None = None,
    max_accuracy_drop: float | None = None,
    tasks_by_tool: Mapping[str, int] | None = None,
) -> PowerPlan:
    """The planned run's simulated power under both drop models, and the 80% plans."""
    if not 0 < detect < 1:
        raise ValueError("the effect to detect must lie strictly between 0 and 1")
    measured = pilot_rates(pilot) if pilot is not None else []
    if measured:
        source: tuple[float, ...] | None = tuple(measured)
        described = f"per-task rates of the pilot run ({len(measured)} tasks)"
    else:
        source, described = None, PRIOR
        if pilot is not None:
            described += "; the pilot run has no scored targeted trial"
    power, rows, repeats = _plan(source, tasks, repeat, detect, max_accuracy_drop)
    options = []
    for planned, fewest, confirmed in rows:
        trials = (fewest or 0) * planned
        seconds = (
            None
            if seconds_per_trial is None
            else math.ceil(trials * seconds_per_trial / max(1, concurrency))
        )
        options.append(
            PlanOption(
                planned, fewest, confirmed, trials, trials * prompt_tokens_per_trial, seconds
            )
        )
    return PowerPlan(
        detect=detect,
        tasks=tasks,
        repeat=repeat,
        max_accuracy_drop=max_accuracy_drop,
        rates_source=described,
        power=power,
        min_tasks=min_changed_tasks(),
        tools=tool_reach(tasks_by_tool or {}),
        options=tuple(options),
        repeats_needed=repeats,
    )


@dataclass(frozen=True)
class PowerInputs:
    """All a run's power plan depends on, hashable: equal inputs give an equal plan, so a face
    may keep plans per inputs and know a plan is ready before asking for it."""

    tasks: int
    repeat: int
    detect: float
    prompt_tokens_per_trial: int
    concurrency: int
    seconds_per_trial: float | None
    max_accuracy_drop: float | None
    tasks_by_tool: tuple[tuple[str, int], ...]
    pilot: str | None  # the pilot run's path (options.baseline)
    pilot_version: tuple[int, int]  # its (mtime_ns, size) when read; (0, -1) unreadable


def _file_version(path: str) -> tuple[int, int]:
    try:
        stat = os.stat(path)
    except OSError:
        return (0, -1)  # let the reader name the problem
    return (stat.st_mtime_ns, stat.st_size)


def power_inputs(prepared: PreparedRun, options: RunOptions) -> PowerInputs:
    """What the power plan of a prepared run depends on (cheap: no file is read)."""
    targeted = [task for task in prepared.plan.selected if task.expected is not None]
    estimate = prepared.estimate
    by_tool = Counter(task.expected for task in targeted if task.expected is not None)
    pilot = options.baseline
    return PowerInputs(
        tasks=len(targeted),
        repeat=prepared.plan.repeat,
        detect=options.detect,
        prompt_tokens_per_trial=estimate.prompt_tokens_per_trial,
        concurrency=estimate.concurrency,
        seconds_per_trial=estimate.seconds_per_trial,
        max_accuracy_drop=options.max_accuracy_drop,
        tasks_by_tool=tuple(sorted(by_tool.items())),
        pilot=pilot,
        pilot_version=(0, -1) if pilot is None else _file_version(pilot),
    )


@lru_cache(maxsize=2)
def _load_pilot_version(path: str, version: tuple[int, int]) -> RunReport:
    """The pilot run, read once per file version (the Run screen replans on every keystroke)."""
    from whichtool_tui.evaluation.reader import load_run_report

    return load_run_report(path)


def plan_for(inputs: PowerInputs) -> PowerPlan:
    """The power plan for these inputs (seconds of CPU the first time; see ``stoppable``)."""
    pilot = None
    if inputs.pilot is not None:
        pilot = _load_pilot_version(inputs.pilot, inputs.pilot_version)
    return plan_power(
        inputs.tasks,
        inputs.repeat,
        inputs.detect,
        inputs.prompt_tokens_per_trial,
        inputs.concurrency,
        inputs.seconds_per_trial,
        pilot,
        inputs.max_accuracy_drop,
        dict(inputs.tasks_by_tool),
    )


def power_for_run(prepared: PreparedRun, options: RunOptions) -> PowerPlan:
    """The power plan of a prepared run, reading ``options.baseline`` as the pilot when set."""
    return plan_for(power_inputs(prepared, options))
