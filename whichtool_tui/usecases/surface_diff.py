"""The surface-diff use case: two snapshots (and optionally a task set and a provider) in, one
SurfaceDiffReport out, with the run options through the one options merge.

``build_request`` validates the flags before anything is read; ``run_surface_diff`` loads both
surfaces, diffs them, finds the affected tasks and, given a provider, re-runs only those.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.behaviour_diff_model import (
    SurfaceDiffGate,
    SurfaceDiffReport,
    SurfaceRerun,
)

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.evaluation.engine import RunOptions
    from whichtool_tui.surface.behaviour_diff import TaskImpact
    from whichtool_tui.surface.listing import ServedListing
    from whichtool_tui.surface.model import NormalizedSurface
    from whichtool_tui.tasks.load import LoadedTaskSet
    from whichtool_tui.usecases.options import ProviderChoice

USAGE = (
    "Usage: whichtool-tui surface-diff BASE.json HEAD.json [--tasks T] [--provider P] "
    "[--fail-on-regression] [--max-accuracy-drop X]"
)

RERUN_FLAGS = (
    "model",
    "base_url",
    "repeat",
    "seed",
    "permute",
    "max_trials",
    "max_tools",
    "concurrency",
    "timeout",
)
"""Flags that only shape the re-run, refused without --provider rather than ignored."""


@dataclass(frozen=True)
class SurfaceDiffRequest:
    """What one surface diff reads and runs, validated and merged."""

    base: str
    head: str
    tasks: str | None
    provider: ProviderChoice | None
    options: RunOptions
    allow_http_provider: bool
    fail_on_regression: bool
    max_accuracy_drop: float | None


def _bad(message: str, hint: str = USAGE) -> WhichtoolError:
    return WhichtoolError("cli/bad-arguments", message, hint)


def build_request(args: argparse.Namespace, settings: Settings) -> SurfaceDiffRequest:
    """The flags checked against each other, run options and provider through the merge."""
    from whichtool_tui.usecases.options import (
        ProviderOverrides,
        RunOverrides,
        from_namespace,
        merge_provider,
        merge_run_options,
    )

    if len(args.snapshots) != 2:
        raise _bad(f"`surface-diff` needs exactly 2 snapshot files, got {len(args.snapshots)}")
    if args.provider is None:
        stray = [flag for flag in RERUN_FLAGS if getattr(args, flag, None) is not None]
        if stray:
            flag = "--" + stray[0].replace("_", "-")
            raise _bad(f"{flag} applies to the re-run: it needs --tasks FILE and --provider NAME")
    provider = None
    if args.provider is not None:
        if args.tasks is None:
            raise _bad("--provider re-runs the affected tasks: it needs --tasks FILE")
        provider = merge_provider(from_namespace(ProviderOverrides, args), settings, "flag")
    gates = args.fail_on_regression or args.max_accuracy_drop is not None
    if gates and provider is None:
        raise _bad(
            "--fail-on-regression and --max-accuracy-drop gate on the re-run: they need "
            "--tasks FILE and --provider NAME"
        )
    return SurfaceDiffRequest(
        base=args.snapshots[0],
        head=args.snapshots[1],
        tasks=args.tasks,
        provider=provider,
        options=merge_run_options(from_namespace(RunOverrides, args), settings, face="flag"),
        allow_http_provider=bool(args.allow_http_provider),
        fail_on_regression=bool(args.fail_on_regression),
        max_accuracy_drop=args.max_accuracy_drop,
    )


def run_surface_diff(
    request: SurfaceDiffRequest, settings: Settings, env: Mapping[str, str] | None = None
) -> SurfaceDiffReport:
    """Load, diff, find the affected tasks, re-run them when a provider is given, and gate."""
    from whichtool_tui.event_loop import run_coroutine

    return run_coroutine(run_surface_diff_async(request, settings, env))


async def run_surface_diff_async(
    request: SurfaceDiffRequest, settings: Settings, env: Mapping[str, str] | None = None
) -> SurfaceDiffReport:
    """``run_surface_diff`` on the running loop (the MCP server's), so cancelling it stops the
    re-run between two requests; the snapshots and task set are read before the first await."""
    from whichtool_tui.evaluation.inputs import normalize_listing
    from whichtool_tui.surface.behaviour_diff import (
        PARTNER_THRESHOLD,
        affected_tasks,
        confusable_partners,
        tool_changes,
    )
    from whichtool_tui.surface.behaviour_diff_model import SurfaceRef
    from whichtool_tui.surface.load import load_snapshot
    from whichtool_tui.tasks.load import load_task_set

    base_listing, head_listing = load_snapshot(request.base), load_snapshot(request.head)
    base, head = normalize_listing(base_listing), normalize_listing(head_listing)
    loaded = load_task_set(request.tasks) if request.tasks is not None else None
    tasks = (
        [TaskSpec(t.id, t.prompt, t.expected, tuple(t.tags)) for t in loaded.task_set.tasks]
        if loaded
        else []
    )
    changes = tool_changes(base, head)
    partners = confusable_partners(changes, base, head)
    impact = affected_tasks(tasks, changes, partners)
    rerun = None
    notes: list[str] = []
    if request.provider is not None and loaded is not None:
        sides = ((base_listing, base), (head_listing, head))
        rerun = await _rerun(request, settings, env or os.environ, loaded, tasks, impact, sides)
        if rerun is None:
            notes.append("no affected task is runnable on both surfaces: nothing was re-run")
    report = SurfaceDiffReport(
        base=SurfaceRef(source=base_listing.ref, surface_hash=base.hash, tools=len(base.tools)),
        head=SurfaceRef(source=head_listing.ref, surface_hash=head.hash, tools=len(head.tools)),
        changes=changes,
        unchanged_tools=len(base.tools)
        - sum(1 for change in changes if change.base_name is not None),
        partners=partners,
        partner_threshold=PARTNER_THRESHOLD,
        task_set=loaded.source if loaded else None,
        affected_tasks=impact.affected,
        unaffected_tasks=impact.unaffected,
        rerun=rerun,
        notes=notes,
        gate=SurfaceDiffGate(checked=[], failed=False, failures=[]),
    )
    return report.model_copy(update={"gate": evaluate_gate(report, request)})


async def _rerun(
    request: SurfaceDiffRequest,
    settings: Settings,
    env: Mapping[str, str],
    loaded: LoadedTaskSet,
    tasks: Sequence[TaskSpec],
    impact: TaskImpact,
    sides: tuple[tuple[ServedListing, NormalizedSurface], tuple[ServedListing, NormalizedSurface]],
) -> SurfaceRerun | None:
    """Both sides on the runnable affected tasks, one provider; None when none is runnable."""
    import anyio

    from whichtool_tui.evaluation.inputs import build_run_inputs
    from whichtool_tui.evaluation.surface_rerun import rerun_both, rerun_tasks
    from whichtool_tui.usecases.providers import ProviderRequest, open_provider

    base_tasks, head_tasks = rerun_tasks(tasks, impact.affected)
    if not base_tasks:
        return None
    options = rerun_options(request.options)
    chosen = request.provider
    assert chosen is not None  # build_request only sets a request up to re-run with one
    (base_listing, base), (head_listing, head) = sides
    name = chosen.name or "keyword"
    inputs = [
        dataclasses.replace(
            build_run_inputs(listing, surface, loaded, options.max_tools, approximates=name),
            tasks=selected,
        )
        for listing, surface, selected in (
            (base_listing, base, base_tasks),
            (head_listing, head, head_tasks),
        )
    ]
    provider = open_provider(
        ProviderRequest.of(
            chosen,
            default_name=name,
            allow_http=request.allow_http_provider,
            timeout=options.timeout,
            max_output_tokens=options.max_output_tokens,
        ),
        env,
    )

    try:
        return await rerun_both(inputs[0], inputs[1], options, provider)
    finally:
        with anyio.CancelScope(shield=True):
            await provider.aclose()


def evaluate_gate(report: SurfaceDiffReport, request: SurfaceDiffRequest) -> SurfaceDiffGate:
    """--fail-on-regression: a distinguishable task-level drop; --max-accuracy-drop X: the mean
    per-task drop in correctness above X, distinguishable or not (a deterministic baseline)."""
    from whichtool_tui.evaluation.wording import p_text, points

    checked: list[str] = []
    failures: list[str] = []
    paired = report.rerun.paired if report.rerun else None
    mean = paired.mean_delta if paired and paired.mean_delta is not None else 0.0
    if request.fail_on_regression and paired is not None:
        checked.append("fail-on-regression")
        if paired.distinguishable and mean < 0:
            failures.append(
                f"correctness fell by {points(mean)} per task over {paired.tasks} affected tasks "
                f"(task-level {p_text(paired.p_value, spaced=True)})"
            )
    if request.max_accuracy_drop is not None and paired is not None:
        checked.append(f"max-accuracy-drop {request.max_accuracy_drop:g}")
        if -mean > request.max_accuracy_drop:
            failures.append(
                f"correctness fell by {points(mean)} per task over {paired.tasks} affected tasks, "
                f"above the allowed {points(request.max_accuracy_drop)}"
            )
    return SurfaceDiffGate(checked=checked, failed=bool(failures), failures=failures)


def rerun_options(options: RunOptions) -> RunOptions:
    """The run options both sides share; thresholds of a whole run do not apply to a subset."""
    from whichtool_tui.evaluation.thresholds import ThresholdSettings

    return dataclasses.replace(options, thresholds=ThresholdSettings())
