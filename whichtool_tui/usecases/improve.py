"""The improve use case: a snapshot, a task set and a provider in; an evidence report and an
RFC 6902 patch of the accepted description rewrites out. The server's code is never touched.

``build_request`` validates the flags before anything is read; ``run_improve`` loads, reviews,
splits and runs the loop (``improve/loop.py``) with the run options from the one options merge.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whichtool_tui.errors import TASKS_INVALID, WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.evaluation.engine import RunOptions
    from whichtool_tui.evaluation.plan import TaskSpec
    from whichtool_tui.evaluation.report_model import RunReport
    from whichtool_tui.improve.budget import ImproveBudget
    from whichtool_tui.improve.events import ImproveSink
    from whichtool_tui.improve.model import ImproveReport
    from whichtool_tui.improve.split import TaskSplit
    from whichtool_tui.surface.listing import ServedListing
    from whichtool_tui.surface.model import NormalizedSurface
    from whichtool_tui.tasks.load import LoadedTaskSet
    from whichtool_tui.usecases.options import ProviderChoice
    from whichtool_tui.usecases.providers import ProviderRequest

USAGE = (
    "Usage: whichtool-tui improve SNAPSHOT.json --tasks T [--provider P] [--base-run RUN.json] "
    "[--holdout-share 0.5] [--max-token-growth 0.25] [--patch-out FILE]"
)
DEFAULT_MAX_TOKEN_GROWTH = 0.25


@dataclass(frozen=True)
class ImproveRequest:
    """What one improve run reads and runs, validated and merged."""

    snapshot: str
    tasks: str
    provider: ProviderChoice
    options: RunOptions
    allow_http_provider: bool
    base_run: str | None
    holdout_share: float
    max_token_growth: float
    tools: tuple[str, ...] = ()
    veto_retriever: str = "bm25"  # the search profile of the second, independent router


def _bad(message: str, hint: str = USAGE) -> WhichtoolError:
    return WhichtoolError("cli/bad-arguments", message, hint)


def request_with_defaults(
    snapshot: str,
    tasks: str,
    provider: ProviderChoice,
    options: RunOptions,
    *,
    allow_http_provider: bool = False,
    base_run: str | None = None,
    holdout_share: float | None = None,
    max_token_growth: float | None = None,
    tools: tuple[str, ...] = (),
    veto_retriever: str | None = None,
) -> ImproveRequest:
    """A request whose held-out share and token-growth bound default when not given, with the
    run options both sides of every measurement share (every face builds it here)."""
    from whichtool_tui.improve.split import DEFAULT_HOLDOUT_SHARE
    from whichtool_tui.usecases.surface_diff import rerun_options

    return ImproveRequest(
        snapshot=snapshot,
        tasks=tasks,
        provider=provider,
        options=rerun_options(options),
        allow_http_provider=allow_http_provider,
        base_run=base_run,
        holdout_share=DEFAULT_HOLDOUT_SHARE if holdout_share is None else holdout_share,
        max_token_growth=(
            DEFAULT_MAX_TOKEN_GROWTH if max_token_growth is None else max_token_growth
        ),
        tools=tools,
        veto_retriever=_one_search(veto_retriever or "bm25"),
    )


def _one_search(name: str) -> str:
    """A known search (generic or host profile) for the veto router; one, not ``hosts``."""
    from whichtool_tui.discovery.review import check_retriever_names

    chosen = check_retriever_names([name])
    if len(chosen) != 1:
        raise _bad("--retriever names one search here, not `hosts`", "Pass e.g. --retriever codex.")
    return chosen[0]


def build_request(args: argparse.Namespace, settings: Settings) -> ImproveRequest:
    """The flags checked, run options and provider through the one merge."""
    from whichtool_tui.usecases.options import (
        ProviderOverrides,
        RunOverrides,
        from_namespace,
        merge_provider,
        merge_run_options,
    )

    if args.snapshot is None:
        raise _bad("`improve` needs a snapshot file (a saved tools/list)")
    tasks = args.tasks or settings.tasks
    if tasks is None:
        raise _bad("`improve` needs --tasks FILE: the split and the measurement run on it")
    return request_with_defaults(
        args.snapshot,
        str(tasks),
        merge_provider(from_namespace(ProviderOverrides, args), settings, "flag"),
        merge_run_options(from_namespace(RunOverrides, args), settings, face="flag"),
        allow_http_provider=bool(args.allow_http_provider),
        base_run=args.base_run,
        holdout_share=args.holdout_share,
        max_token_growth=args.max_token_growth,
        tools=tuple(args.tool or ()),
        veto_retriever=getattr(args, "retriever", None),
    )


def request_for(
    snapshot: str,
    tasks: str,
    tools: tuple[str, ...],
    settings: Settings,
    provider: ProviderChoice | None = None,
) -> ImproveRequest:
    """A request with every option from the config or its default (the TUI's "propose a fix");
    ``provider`` is the Run form's merged choice, with its sources, when the TUI has one."""
    from whichtool_tui.usecases.options import (
        ProviderOverrides,
        RunOverrides,
        merge_provider,
        merge_run_options,
    )

    chosen = provider or merge_provider(ProviderOverrides(), settings, "form")
    return request_with_defaults(
        snapshot,
        tasks,
        chosen,
        merge_run_options(RunOverrides(), settings, face="form"),
        tools=tools,
    )


def _checked_run(report: RunReport, shown: str, surface: NormalizedSurface) -> RunReport:
    """A base run made on this surface (another surface's failures say nothing about it)."""
    if report.reproducibility.surface_hash != surface.hash:
        raise WhichtoolError(
            "improve/base-run-mismatch",
            f"{shown} was made on another surface "
            f"({report.reproducibility.surface_hash[:19]}, the snapshot is {surface.hash[:19]})",
            BASE_RUN_HINT,
        )
    return report


def _gap(report: RunReport, tuning: Sequence[TaskSpec]) -> str | None:
    """How a base run falls short of the tuning tasks (a task it never ran, or ran in another
    wording), or None: its trials are the failures the rewriter is shown, so a gap hides some."""
    ran = {entry.id: (entry.prompt, entry.expected) for entry in report.tasks.list}
    tried = {trial.task_id for trial in report.trials}
    for task in tuning:
        if task.id not in tried or task.id not in ran:
            return f"never ran the tuning task {task.id!r}"
        if ran[task.id] != (task.prompt, task.expected):
            return f"ran another wording of the tuning task {task.id!r}"
    return None


BASE_RUN_HINT = (
    "Pass a run of this snapshot, or leave the base run out (improve then runs the tuning tasks "
    "itself)."
)


def run_improve(
    request: ImproveRequest,
    settings: Settings,
    env: Mapping[str, str] | None = None,
    *,
    base_report: RunReport | None = None,
    sink: ImproveSink | None = None,
    on_budget: Callable[[ImproveBudget], None] | None = None,
) -> ImproveReport:
    """Load and review the snapshot, split the tasks, then propose, measure and decide.

    ``base_report`` is a run already in memory (the TUI's), used like ``--base-run``; ``sink``
    hears each candidate as it is proposed and measured; ``on_budget`` hears the checked
    budget before the first request."""
    from whichtool_tui.event_loop import run_coroutine

    return run_coroutine(
        run_improve_async(
            request, settings, env, base_report=base_report, sink=sink, on_budget=on_budget
        )
    )


@dataclass(frozen=True)
class PreparedImprove:
    """The files read and checked, the split made and the budget counted: no request yet."""

    listing: ServedListing
    shape: str
    surface: NormalizedSurface
    loaded: LoadedTaskSet
    split: TaskSplit
    base_run: RunReport | None
    budget: ImproveBudget


def prepare_improve(
    request: ImproveRequest, *, base_report: RunReport | None = None, check: bool = True
) -> PreparedImprove:
    """Read the snapshot, the task set and the base run, split the tasks, and (unless
    ``check`` is False: a dry run) refuse a loop its caps cannot hold: everything before the
    review and before any provider exists."""
    from whichtool_tui.evaluation.inputs import lint_for_run, normalize_listing
    from whichtool_tui.evaluation.plan import TaskSpec
    from whichtool_tui.evaluation.reader import load_run_report
    from whichtool_tui.improve.budget import ImproveBudget, check_improve_budget, run_trials
    from whichtool_tui.improve.split import split_tasks
    from whichtool_tui.surface.load import load_snapshot_document
    from whichtool_tui.tasks.load import load_task_set
    from whichtool_tui.usecases.providers import is_paid_provider

    listing, _, shape = load_snapshot_document(request.snapshot)
    surface = normalize_listing(listing)
    loaded = load_task_set(request.tasks)
    errors = [d for d in lint_for_run(loaded, surface) if d.severity == "error"]
    if errors:
        raise WhichtoolError(
            TASKS_INVALID,
            f"{loaded.source} has {len(errors)} error(s) against this surface: {errors[0].message}",
            "Run `whichtool-tui tasks lint` on the snapshot and task set to see every finding.",
        )
    unknown = sorted(set(request.tools) - {tool.name for tool in surface.tools})
    if unknown:
        raise _bad(
            f"--tool {unknown[0]}: the snapshot serves no such tool",
            "Name a tool of the snapshot (whichtool-tui inspect lists them).",
        )
    tasks = [TaskSpec(t.id, t.prompt, t.expected, tuple(t.tags)) for t in loaded.task_set.tasks]
    variants = {
        task.id: task.derived_from.task_id
        for task in loaded.task_set.tasks
        if task.derived_from is not None
    }
    options = request.options
    split = split_tasks(tasks, options.seed, request.holdout_share, variants)
    base_run = None
    if request.base_run:
        shown = f"The base run {os.path.basename(request.base_run)}"
        base_run = _checked_run(load_run_report(request.base_run), shown, surface)
        gap = _gap(base_run, split.tuning)
        if gap is not None:
            raise WhichtoolError(
                "improve/base-run-mismatch",
                f"{shown} {gap}: its failures would be missing",
                "Make the base run on this task set (every task, no --only/--skip), or leave "
                "the base run out (improve then runs the tuning tasks itself).",
            )
    if base_report is not None:
        # The TUI's open run: used when it covers the tuning tasks, else they are run now.
        checked = _checked_run(base_report, "the open run", surface)
        base_run = checked if _gap(checked, split.tuning) is None else None
    name = request.provider.name or "keyword"
    paid = is_paid_provider(name)
    budget = ImproveBudget(
        provider=name,
        paid=paid,
        tools=len(surface.tools),
        tuning_trials=(
            0 if base_run else run_trials(split.tuning, options.repeat, options.only, options.skip)
        ),
        held_out_trials=run_trials(split.held_out, options.repeat, options.only, options.skip),
        # A paid provider writes one model rewrite per tool it may rewrite.
        max_candidates=(len(request.tools) or len(surface.tools)) if paid else None,
        max_trials=options.max_trials if paid else None,
        max_tools=options.max_tools if paid else None,
    )
    if check:
        check_improve_budget(budget)
    return PreparedImprove(listing, shape, surface, loaded, split, base_run, budget)


def budget_refusal(budget: ImproveBudget) -> str | None:
    """Why a real run of this budget would be refused (a dry run shows it), or None."""
    from whichtool_tui.improve.budget import check_improve_budget

    try:
        check_improve_budget(budget)
    except WhichtoolError as refused:
        return refused.message
    return None


def dry_run_text(request: ImproveRequest, prepared: PreparedImprove, settings: Settings) -> str:
    """What ``improve --dry-run`` prints: the split, every run's trials, the caps that apply
    and where the prompts would go; a loop over its caps says it would be refused."""
    budget, split = prepared.budget, prepared.split
    rewriter = "one model rewrite per tool" if budget.paid else "rule-based rewrites"
    lines = [
        "improve plan (dry run: nothing is sent)",
        f"  surface:   {os.path.basename(request.snapshot)}, {budget.tools} tools",
        f"  split:     {len(split.tuning)} tuning, {len(split.held_out)} held-out tasks "
        f"(seed {request.options.seed}, held-out share {request.holdout_share:g})",
        f"  provider:  {budget.provider} ({rewriter})",
        f"  runs:      {budget.parts()}",
    ]
    if budget.paid:
        lines.append(
            f"  trials:    at most {budget.total}, under --max-trials {budget.max_trials} "
            f"and --max-tools {budget.max_tools}"
        )
        refusal = budget_refusal(budget)
        if refusal is not None:
            lines.append(f"  refused:   {refusal}")
    else:
        lines.append("  trials:    no cap: the provider is offline and costs nothing")
    lines.append(f"  sends to:  {improve_destination(request, settings)}")
    from whichtool_tui.improve.split import no_held_out_note, tools_without_held_out

    missing = tools_without_held_out(split)
    if missing:
        tuned = {task.expected for task in split.tuning if task.expected is not None}
        lines.append(f"  note:      {no_held_out_note(missing, len(tuned), failing=False)}")
    return "\n".join(lines) + "\n"


def improve_route(request: ImproveRequest) -> ProviderRequest:
    """The provider request of an improve loop: the one it opens, and the one whose
    destination a dry run names (so the two can never disagree)."""
    from whichtool_tui.usecases.providers import ProviderRequest

    return ProviderRequest.of(
        request.provider,
        default_name="keyword",
        allow_http=request.allow_http_provider,
        timeout=request.options.timeout,
        max_output_tokens=request.options.max_output_tokens,
    )


def improve_destination(request: ImproveRequest, settings: Settings) -> str:
    """Where an improve loop's prompts (and key) would go, said before anything is sent."""
    from whichtool_tui.usecases.providers import provider_destination

    return provider_destination(improve_route(request))


async def run_improve_async(
    request: ImproveRequest,
    settings: Settings,
    env: Mapping[str, str] | None = None,
    *,
    base_report: RunReport | None = None,
    sink: ImproveSink | None = None,
    on_budget: Callable[[ImproveBudget], None] | None = None,
) -> ImproveReport:
    """``run_improve`` on the running loop (the MCP server's), so cancelling it stops the loop
    between two requests; the snapshot and task set are read, and the budget checked, before
    the first await."""
    import anyio

    from whichtool_tui import limits
    from whichtool_tui.improve.budget import TrialLedger
    from whichtool_tui.improve.loop import ImproveJob, improve_surface
    from whichtool_tui.improve.patch import SHAPE_PREFIX
    from whichtool_tui.surface.inspect import inspect_normalized
    from whichtool_tui.surface.report_model import TargetInfo
    from whichtool_tui.usecases.providers import open_provider

    prepared = prepare_improve(request, base_report=base_report)
    listing, budget = prepared.listing, prepared.budget
    if on_budget is not None:
        on_budget(budget)
    review = inspect_normalized(
        prepared.surface,
        TargetInfo(transport=listing.transport, ref=listing.ref),
        max_tools=request.options.max_tools,
        rules=settings.inspect.rules,
    )
    job = ImproveJob(
        listing=listing,
        patch_prefix=SHAPE_PREFIX[prepared.shape],
        loaded=prepared.loaded,
        split=prepared.split,
        # The whole loop was checked against the caps above; each run only against the
        # runner's absolute ceilings, and the ledger keeps the loop under the checked cap.
        options=dataclasses.replace(
            request.options,
            max_trials=limits.ABSOLUTE_MAX_TRIALS,
            max_tools=limits.ABSOLUTE_MAX_TOOLS,
        ),
        holdout_share=request.holdout_share,
        max_token_growth=request.max_token_growth,
        findings=tuple(review.diagnostics),
        base_run=prepared.base_run,
        base_run_source=(
            None
            if prepared.base_run is None
            else "the open run"
            if base_report is not None
            else os.path.basename(request.base_run or "")
        ),
        approximates=budget.provider,
        focus=frozenset(request.tools),
        ledger=TrialLedger(budget.max_trials),
        veto_retriever=request.veto_retriever,
    )
    provider = open_provider(improve_route(request), env)

    try:
        if sink is None:
            return await improve_surface(job, provider)
        return await improve_surface(job, provider, sink)
    finally:
        with anyio.CancelScope(shield=True):
            await provider.aclose()
