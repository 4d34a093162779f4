"""The Run screen's plan: every line in full before a run, one summary line during and after it.

Lines sit in a two-column grid, so a line that wraps keeps its indent under the label instead
of starting at the screen's edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import power_lines
from whichtool_tui.usecases.options import from_config

if TYPE_CHECKING:
    from whichtool_tui.ui.run_control import RunSetup
    from whichtool_tui.usecases.api import PowerPlan

LABEL_WIDTH = 5  # "Plan" and a space: continuation lines start under the plan's text


def hanging(label: str, lines: list[Text]) -> Table:
    """``label`` on the first line, every line (and each wrap of it) indented past it."""
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(width=LABEL_WIDTH, no_wrap=True, style="bold")
    grid.add_column(ratio=1)
    for index, line in enumerate(lines):
        grid.add_row(label if index == 0 else "", line)
    return grid


def _limits(setup: RunSetup) -> Text:
    """The two limits, each marked ``(config)`` when a config file set it: they are what the
    user raises or not, and a discovered config may have set them."""
    trial_ok = setup.prepared.within_trial_limit
    tool_ok = setup.prepared.within_tool_limit
    sources = setup.options.sources
    text = Text()
    for name, value, what, ok, gap in (
        ("max_trials", setup.options.max_trials, "trials", trial_ok, " "),
        ("max_tools", setup.options.max_tools, "tools", tool_ok, ""),
    ):
        text.append(f"{value} {what}", style="green" if ok else "bold red")
        if sources.get(name) == "config":
            text.append(" (config)", style="dim")
        text.append(f" {'✓' if ok else '✖'}{gap}", style="green" if ok else "bold red")
    return text


SIZING = Text("power: sizing… (simulating diff's own gate on this plan)", style="dim")


def power_plan_lines(power: PowerPlan | WhichtoolError | None) -> list[Text]:
    """The plan's power lines: diff's own gate simulated, or ``SIZING`` while it is (the App
    simulates it in a thread: seconds of CPU on a first plan)."""
    if power is None:
        return [SIZING]
    if isinstance(power, WhichtoolError):
        return [Text(f"power plan: {sanitize_text(power.message)}", style="yellow")]
    return [Text(line, style="dim") for line in power_lines(power)]


def plan_lines(
    setup: RunSetup, provider: str, power: PowerPlan | WhichtoolError | None
) -> list[Text]:
    """The whole dry-run plan: shape, prompt floor and limits, wall clock, power (``None``:
    being sized), warnings."""
    plan = setup.prepared.plan
    estimate = setup.prepared.estimate
    options = setup.options
    lines = [
        Text(
            f"{len(plan.selected)} tasks × {plan.repeat} repeats = {plan.planned} trials · "
            f"{len(setup.inputs.tools)} tools · {'permuted' if plan.permuted else 'fixed order'}"
            f" · temperature {options.temperature:g} · seed {plan.seed}"
        )
    ]
    floor = Text(
        f"prompt floor ~{estimate.prompt_tokens_per_trial:,} tokens/trial, "
        f"~{estimate.prompt_tokens_total:,} total (lower bound) · limits "
    )
    lines.append(floor.append_text(_limits(setup)))
    clock = Text("wall clock ")
    if estimate.estimated_seconds is not None:
        clock.append(
            f"~{estimate.estimated_seconds:,} s at {estimate.seconds_per_trial:g} s/trial, "
            f"concurrency {options.concurrency}"
        )
    else:
        clock.append("unknown: type seconds per trial (s/trial) for an estimate", style="dim")
    lines.append(clock)
    configured = from_config(options, skip=("max_trials", "max_tools"))
    if configured:
        lines.append(Text("from config: " + sanitize_text(", ".join(configured)), style="dim"))
    lines.extend(power_plan_lines(power))
    if setup.needs_raise:
        lines.append(Text("the run will ask before raising the limits", style="yellow"))
    for finding in setup.blocking:
        lines.append(Text(f"✖ {finding.code}: {sanitize_text(finding.message)}", style="red"))
    if provider == "keyword":
        lines.append(Text("keyword is an offline lexical baseline, not a model", style="dim"))
    return lines


def plan_summary(setup: RunSetup) -> Text:
    """One line for a screen busy with a run: its shape and limits (``p`` shows the rest)."""
    plan = setup.prepared.plan
    text = Text(
        f"{len(plan.selected)} tasks × {plan.repeat} = {plan.planned} trials · "
        f"{len(setup.inputs.tools)} tools · limits "
    )
    text.append_text(_limits(setup))  # the footer's p unfolds the rest
    return text
