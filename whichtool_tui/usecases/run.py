"""The run use cases: prepare (surface + task set → checked inputs and a priced plan) and spend
(the plan through a provider, with the trial cache and events), the same for ``run`` on the
command line, the TUI's Run screen and the MCP server's ``run_evaluation``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whichtool_tui.errors import TASKS_INVALID, WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.diagnostics import Diagnostic
    from whichtool_tui.discovery.options import DiscoveryOptions
    from whichtool_tui.evaluation.cache import TrialCache
    from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions
    from whichtool_tui.evaluation.events import EventSink
    from whichtool_tui.evaluation.power import PowerInputs, PowerPlan
    from whichtool_tui.evaluation.report_model import RunReport
    from whichtool_tui.providers.base import Provider
    from whichtool_tui.surface.listing import ServedListing
    from whichtool_tui.surface.model import NormalizedSurface
    from whichtool_tui.surface.rule_settings import RuleSetting
    from whichtool_tui.tasks.load import LoadedTaskSet


class TaskSetBlockedError(WhichtoolError):
    """The task set has error findings against this surface: the run cannot be planned.

    ``findings`` carries them, so each face can show them its own way (stderr lines, an
    envelope's capped list); the hint says where to see them all, in the face's words.
    """

    def __init__(self, source: str, findings: Sequence[Diagnostic], hint: str) -> None:
        super().__init__(
            TASKS_INVALID, f"{source} has {len(findings)} error(s) against this surface", hint
        )
        self.findings = list(findings)


@dataclass(frozen=True)
class RunSource:
    """Where a run's tools and tasks come from: the target as typed and the task file."""

    target: str | None = None
    transport: str | None = None
    tasks: str | None = None
    workspace: Path | None = None  # confines relative task paths (the MCP server's workspace)


def normalize(listing: ServedListing) -> NormalizedSurface:
    """The listing normalised as a run sees it (tools sorted by name, served index kept)."""
    from whichtool_tui.evaluation.inputs import normalize_listing

    return normalize_listing(listing)


def blocking_findings(loaded: LoadedTaskSet, surface: NormalizedSurface) -> list[Diagnostic]:
    """The task set's error-level findings against this surface (any one blocks the run)."""
    from whichtool_tui.evaluation.inputs import lint_for_run

    return [d for d in lint_for_run(loaded, surface) if d.severity == "error"]


def inputs_for(
    listing: ServedListing,
    loaded: LoadedTaskSet,
    max_tools: int,
    approximates: str | None,
    *,
    blocked_hint: str,
    surface: NormalizedSurface | None = None,
    full_review: bool = False,
    rules: Mapping[str, RuleSetting] | None = None,
    before_review: Callable[[RunInputs], None] | None = None,
) -> RunInputs:
    """A loaded listing and task set as checked run inputs; error findings raise
    ``TaskSetBlockedError`` (with ``blocked_hint``), before any budget or review runs."""
    from whichtool_tui.evaluation.inputs import build_run_inputs

    surface = surface if surface is not None else normalize(listing)
    findings = blocking_findings(loaded, surface)
    if findings:
        raise TaskSetBlockedError(loaded.source, findings, blocked_hint)
    return build_run_inputs(
        listing,
        surface,
        loaded,
        max_tools,
        approximates,
        full_review=full_review,
        rules=rules,
        before_review=before_review,
    )


@dataclass(frozen=True)
class DraftPlan:
    """A run planned but not checked: inputs, the priced plan and the findings that block it
    (the TUI's Run screen shows them and redraws the plan per keystroke)."""

    inputs: RunInputs
    prepared: PreparedRun
    blocking: list[Diagnostic]


def draft_plan(
    listing: ServedListing,
    surface: NormalizedSurface,
    loaded: LoadedTaskSet,
    options: RunOptions,
) -> DraftPlan:
    """Inputs and plan of a run whose blocking findings are reported rather than raised."""
    from whichtool_tui.evaluation.inputs import build_run_inputs

    blocking = blocking_findings(loaded, surface)
    inputs = build_run_inputs(listing, surface, loaded, options.max_tools)
    return DraftPlan(inputs, prepare(inputs, options), blocking)


def load_inputs(
    source: RunSource,
    settings: Settings,
    max_tools: int,
    approximates: str | None,
    *,
    blocked_hint: str,
) -> RunInputs:
    """Open the target, read its surface once, load and check the task set (blocking I/O)."""
    from whichtool_tui.usecases.inspect import read_listing, target_spec
    from whichtool_tui.usecases.tasks import load_tasks, task_file

    listing = read_listing(target_spec(source.target, source.transport, settings))
    surface = normalize(listing)
    loaded = load_tasks(task_file(source.tasks, settings, source.workspace), source.workspace)
    return inputs_for(
        listing, loaded, max_tools, approximates, blocked_hint=blocked_hint, surface=surface
    )


def prepare(inputs: RunInputs, options: RunOptions) -> PreparedRun:
    """Select and plan the trials and price the run (nothing is spent)."""
    from whichtool_tui.evaluation.engine import prepare_run

    return prepare_run(inputs, options)


def check_budgets(inputs: RunInputs, prepared: PreparedRun, options: RunOptions) -> None:
    """The budgets a real run (never a dry run) must pass: the tool limit first, then trials."""
    from whichtool_tui.evaluation.engine import check_budgets as check

    check(inputs, prepared, options)


def power_plan(prepared: PreparedRun, options: RunOptions) -> PowerPlan:
    """The dry run's power plan: how many repeats detect the wanted accuracy drop."""
    from whichtool_tui.evaluation.power import power_for_run

    return power_for_run(prepared, options)


def power_inputs(prepared: PreparedRun, options: RunOptions) -> PowerInputs:
    """What the power plan of a prepared run depends on: a key for plans already made."""
    from whichtool_tui.evaluation.power import power_inputs as inputs_of

    return inputs_of(prepared, options)


def sized_power(inputs: PowerInputs, stop: Callable[[], bool] | None = None) -> PowerPlan:
    """The power plan for ``inputs``; with ``stop``, a ``CancelledError`` as soon as it says
    so (a face sizing plans in the background drops one the user no longer waits for)."""
    from whichtool_tui.evaluation.power import plan_for
    from whichtool_tui.evaluation.power_sim import stoppable

    if stop is None:
        return plan_for(inputs)
    with stoppable(stop):
        return plan_for(inputs)


async def spend(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: Provider,
    *,
    cache: TrialCache | None = None,
    sink: EventSink | None = None,
    discovery: DiscoveryOptions | None = None,
) -> RunReport:
    """Spend a prepared run through ``provider`` (upfront, or deferred discovery); the provider
    is closed afterwards whatever happens, even when the run is cancelled."""
    import anyio

    from whichtool_tui.evaluation.events import discard_event

    events = sink or discard_event
    try:
        if discovery is not None:
            from whichtool_tui.discovery.deferred_run import run_deferred_evaluation

            return await run_deferred_evaluation(
                inputs, options, provider, discovery, prepared=prepared, cache=cache, sink=events
            )
        from whichtool_tui.evaluation.engine import run_evaluation

        return await run_evaluation(
            inputs, options, provider, prepared=prepared, cache=cache, sink=events
        )
    finally:
        with anyio.CancelScope(shield=True):
            await provider.aclose()
