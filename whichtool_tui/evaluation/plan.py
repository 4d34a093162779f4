"""Planning a run: tag selection, seeded tool orders per (task, trial), budgets and estimates.

The checks are split so the command can apply them in the contract's order: the plan cap and
impossible thresholds before a dry run returns, the tool and trial budgets only for a real run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.evaluation.seeds import attempt_seed, shuffled, trial_seed
from whichtool_tui.gc_phases import gc_paused

# Re-exported: the run budgets and defaults live in limits.py; older callers import them here.
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS as ABSOLUTE_MAX_TOOLS
from whichtool_tui.limits import ABSOLUTE_MAX_TRIALS as ABSOLUTE_MAX_TRIALS
from whichtool_tui.limits import DEFAULT_CONCURRENCY as DEFAULT_CONCURRENCY
from whichtool_tui.limits import DEFAULT_MAX_TOOLS as DEFAULT_MAX_TOOLS
from whichtool_tui.limits import DEFAULT_MAX_TRIALS as DEFAULT_MAX_TRIALS
from whichtool_tui.limits import DEFAULT_REPEAT as DEFAULT_REPEAT
from whichtool_tui.limits import DEFAULT_SEED as DEFAULT_SEED
from whichtool_tui.limits import DEFAULT_TEMPERATURE as DEFAULT_TEMPERATURE
from whichtool_tui.limits import PLAN_CAP as PLAN_CAP

MAX_REORDER_ATTEMPTS = 24
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class TaskSpec:
    """One task as the engine needs it; ``expected`` None marks a distractor."""

    id: str
    prompt: str
    expected: str | None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlannedTrial:
    """One request to make: which task, which repetition, its seed and the tool order shown."""

    task: TaskSpec
    trial_index: int
    seed: int
    order: tuple[str, ...]

    @property
    def expected_position(self) -> int:
        """Index of the expected tool in the order shown, or -1 for a distractor."""
        expected = self.task.expected
        if expected is None or expected not in self.order:
            return -1
        return self.order.index(expected)


@dataclass(frozen=True)
class TrialPlan:
    """The selected tasks and how their trials are laid out.

    ``trials`` (every seed and tool order) is computed on first use: a dry run of a
    100,000-trial plan on a large surface needs only the counts, never the orders.
    """

    tasks_in_file: int
    selected: tuple[TaskSpec, ...]
    only: tuple[str, ...]
    skip: tuple[str, ...]
    repeat: int
    seed: int
    permuted: bool
    tool_names: tuple[str, ...]

    @property
    def planned(self) -> int:
        """Total trials: selected tasks times repeat."""
        return len(self.selected) * self.repeat

    @cached_property
    def trials(self) -> tuple[PlannedTrial, ...]:
        """Every trial in task order then trial index, with its seed and tool order."""
        laid_out: list[PlannedTrial] = []
        with gc_paused():  # every trial laid out here lives as long as the plan
            for task in self.selected:
                orders = _orders_for_task(
                    task, self.tool_names, self.repeat, self.seed, self.permuted
                )
                for index, (seed, order) in enumerate(orders):
                    laid_out.append(PlannedTrial(task, index, seed, order))
        return tuple(laid_out)


@dataclass(frozen=True)
class Estimate:
    """A lower bound on the prompt tokens a run sends, and a wall-clock guess when asked."""

    trials: int
    surface_tokens: int
    task_text_tokens: int
    prompt_tokens_per_trial: int
    prompt_tokens_total: int
    concurrency: int
    seconds_per_trial: float | None
    estimated_seconds: int | None


def select_tasks(
    tasks: Sequence[TaskSpec], only: Iterable[str], skip: Iterable[str]
) -> list[TaskSpec]:
    """Keep tasks carrying an --only tag (when any are given) and none of the --skip tags."""
    only_tags = set(only)
    skip_tags = set(skip)
    selected = [
        task
        for task in tasks
        if not (skip_tags & set(task.tags)) and (not only_tags or only_tags & set(task.tags))
    ]
    if not selected:
        raise WhichtoolError(
            "tasks/none-selected",
            f"No task selected from {len(tasks)} in the task file",
            "Check the --only and --skip tags against the tags in the task file.",
        )
    return selected


def _distinct_orders_target(tool_count: int, repeat: int) -> int:
    """min(n!, repeat + 1), computed without building a huge factorial."""
    limit = repeat + 1
    value = 1
    for factor in range(2, tool_count + 1):
        value *= factor
        if value >= limit:
            return limit
    return min(value, limit)


def _orders_for_task(
    task: TaskSpec, tool_names: tuple[str, ...], repeat: int, run_seed: int, permute: bool
) -> list[tuple[int, tuple[str, ...]]]:
    """The (seed, order) of each repetition, avoiding repeats while distinct orders remain."""
    result: list[tuple[int, tuple[str, ...]]] = []
    used: set[tuple[str, ...]] = set()
    target = _distinct_orders_target(len(tool_names), repeat)
    for trial_index in range(repeat):
        seed = trial_seed(run_seed, task.id, trial_index)
        if not permute or len(tool_names) <= 1:
            result.append((seed, tool_names))
            continue
        order = tuple(shuffled(tool_names, seed))
        attempt = 1
        while order in used and len(used) < target and attempt < MAX_REORDER_ATTEMPTS:
            order = tuple(shuffled(tool_names, attempt_seed(seed, attempt)))
            attempt += 1
        used.add(order)
        result.append((seed, order))
    return result


def check_plan_size(selected_count: int, repeat: int) -> None:
    """Refuse plans above 100,000 trials, even for a dry run."""
    planned = selected_count * repeat
    if planned > PLAN_CAP:
        raise WhichtoolError(
            "trials/plan-too-large",
            f"The plan has {planned:,} trials; the most any plan may hold is {PLAN_CAP:,}",
            "Select fewer tasks with --only/--skip or lower --repeat.",
        )


def plan_trials(
    tasks: Sequence[TaskSpec],
    tool_names: Sequence[str],
    *,
    repeat: int = DEFAULT_REPEAT,
    seed: int = DEFAULT_SEED,
    permute: bool = True,
    only: Sequence[str] = (),
    skip: Sequence[str] = (),
) -> TrialPlan:
    """Select tasks by tag and fix the plan; its trials are laid out on first use."""
    selected = select_tasks(tasks, only, skip)
    check_plan_size(len(selected), repeat)
    return TrialPlan(
        tasks_in_file=len(tasks),
        selected=tuple(selected),
        only=tuple(only),
        skip=tuple(skip),
        repeat=repeat,
        seed=seed,
        permuted=permute,
        tool_names=tuple(tool_names),
    )


def check_min_scored(min_scored: int, planned: int) -> None:
    """A run can never score more trials than it plans: refuse an unreachable --min-scored."""
    if min_scored > planned:
        raise WhichtoolError(
            "run/impossible-min-scored",
            f"--min-scored {min_scored} can never be met: the plan has {planned} trials",
            "Lower --min-scored, or plan more trials with --repeat or more tasks.",
        )


def check_tool_limit(tool_count: int, max_tools: int) -> None:
    """Refuse a real run on more tools than --max-tools allows."""
    if tool_count > max_tools:
        raise WhichtoolError(
            TOOL_LIMIT,
            f"The surface has {tool_count} tools, above the tool limit of {max_tools}",
            f"Raise the limit with --max-tools {tool_count} (at most {ABSOLUTE_MAX_TOOLS}).",
        )


def check_trial_limit(planned: int, max_trials: int) -> None:
    """Refuse a real run of more trials than --max-trials allows."""
    if planned > max_trials:
        if planned > ABSOLUTE_MAX_TRIALS:
            hint = (
                f"Raising --max-trials stops at {ABSOLUTE_MAX_TRIALS}; select fewer tasks with "
                "--only/--skip or lower --repeat."
            )
        else:
            hint = f"Raise the limit with --max-trials {planned}."
        raise WhichtoolError(
            TRIAL_LIMIT,
            f"The plan has {planned} trials, above the trial limit of {max_trials}",
            hint,
        )


def estimate_run(
    plan: TrialPlan,
    surface_tokens: int,
    concurrency: int,
    seconds_per_trial: float | None,
) -> Estimate:
    """Prompt-token floor per trial (surface + mean task text) and an optional time estimate."""
    prompt_tokens = [math.ceil(len(task.prompt) / CHARS_PER_TOKEN) for task in plan.selected]
    mean_prompt = sum(prompt_tokens) / len(prompt_tokens) if prompt_tokens else 0.0
    task_text = _round_half_up(mean_prompt)
    per_trial = surface_tokens + task_text
    seconds = None
    if seconds_per_trial is not None:
        seconds = math.ceil(plan.planned * seconds_per_trial / concurrency)
    return Estimate(
        trials=plan.planned,
        surface_tokens=surface_tokens,
        task_text_tokens=task_text,
        prompt_tokens_per_trial=per_trial,
        prompt_tokens_total=per_trial * plan.planned,
        concurrency=concurrency,
        seconds_per_trial=seconds_per_trial,
        estimated_seconds=seconds,
    )


def _round_half_up(value: float) -> int:
    """JavaScript's Math.round for non-negative values (halves go up, not to even)."""
    return math.floor(value + 0.5)
