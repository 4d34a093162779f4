"""The power plan in a few plain lines, shared by the dry run and the Run screen."""

from __future__ import annotations

import math

from whichtool_tui.evaluation.power import (
    MAX_PLANNED_REPEATS,
    MAX_PLANNED_TASKS,
    PlanOption,
    PowerPlan,
)
from whichtool_tui.evaluation.power_sim import PowerEstimate

_SHOWN_TOOLS = 4


def _price(option: PlanOption) -> str:
    if option.tasks is None:
        return f"x {option.repeat}: more than {MAX_PLANNED_TASKS} tasks"
    minutes = "" if option.seconds is None else f", ~{math.ceil(option.seconds / 60)} min"
    return (
        f"{option.tasks} tasks x {option.repeat} = {option.trials} trials, "
        f"~{option.prompt_tokens:,} prompt tokens{minutes}"
    )


def _margin(estimate: PowerEstimate) -> str:
    """The 95% Monte Carlo margin, in points."""
    return f"+/-{1.96 * estimate.error * 100:.1f} pts"


def _tools_line(plan: PowerPlan) -> str | None:
    if len(plan.tools) < 2:
        return None
    needed = plan.tools[0].needed
    short = [reach for reach in plan.tools if not reach.reachable]
    line = (
        f"per tool: Holm over {len(plan.tools)} tools needs >= {needed} changed tasks for a "
        f"tool's own p <= 0.05; {len(plan.tools) - len(short)} of {len(plan.tools)} tools "
        "have that many"
    )
    if short:
        named = ", ".join(f"{reach.tool} ({reach.tasks})" for reach in short[:_SHOWN_TOOLS])
        more = f" and {len(short) - _SHOWN_TOOLS} more" if len(short) > _SHOWN_TOOLS else ""
        line += f"; too few: {named}{more}"
    return line


def power_lines(plan: PowerPlan) -> list[str]:
    """The simulated power, what can never gate, the per-tool reach and the 80% plans."""
    spread, concentrated = plan.power["spread"], plan.power["concentrated"]
    gate = "p <= 0.05"
    if plan.max_accuracy_drop is not None:
        gate += f" and a mean drop above --max-accuracy-drop {plan.max_accuracy_drop:g}"
    lines = [
        f"{spread.power:.0%} to detect a {plan.detect * 100:g}-point drop with {plan.tasks} "
        f"tasks x {plan.repeat} repeats if it is spread (every task loses the same); "
        f"{concentrated.power:.0%} if it is concentrated (the best tasks fall to 0)",
        f"simulated: diff's own task-level test ({gate}) on {spread.draws:,} seeded pairs of "
        f"runs per model, Monte Carlo margin {_margin(spread)} / {_margin(concentrated)}; "
        f"base rates: {plan.rates_source}",
        f"can never gate: fewer than {plan.min_tasks} changed tasks (the exact test's smallest "
        "p over K tasks is 2^(1-K))"
        + (f"; this plan has {plan.tasks} tasks" if plan.tasks < plan.min_tasks else ""),
    ]
    tools = _tools_line(plan)
    if tools is not None:
        lines.append(tools)
    if plan.repeats_needed is None:
        with_these = (
            f"no repeat count up to {MAX_PLANNED_REPEATS} reaches 80% with {plan.tasks} tasks"
        )
    else:
        with_these = f"{plan.repeats_needed} repeats reach 80% with these {plan.tasks} tasks"
    reachable = [option for option in plan.options if option.tasks is not None]
    cheapest = (
        f"; cheapest plan {_price(min(reachable, key=lambda o: (o.trials, o.repeat)))}"
        if reachable
        else ""
    )
    lines += [
        f"80% power (spread): {with_these}{cheapest}",
        "80% plans: " + "; ".join(_price(option) for option in plan.options),
    ]
    return lines
