"""The four tools' behaviour: each turns validated arguments into an envelope via the engine.

Nothing here scores, plans or renders by itself; it calls the same engine as the command line
(targets, inspect, tasks, evaluation) and only adds the agent-facing rules: confinement,
operator flags, agent limits and one paid run at a time.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.limits import (
    ABSOLUTE_MAX_TOOLS,
    ABSOLUTE_MAX_TRIALS,
    AGENT_MAX_CONCURRENCY,
    AGENT_MAX_REPEAT,
)
from whichtool_tui.server import envelope
from whichtool_tui.server.arguments import (
    DiffArguments,
    InspectArguments,
    RunArguments,
    ValidateArguments,
)
from whichtool_tui.server.options import (
    ServerOptions,
    is_paid_provider,
    open_target,
)
from whichtool_tui.server.paths import agent_file
from whichtool_tui.server.summaries import (
    diff_summary,
    dry_run_summary,
    inspect_summary,
    plan_summary,
    run_summary,
    validation_summary,
)
from whichtool_tui.usecases.inspect import fetch_listing, review_listing
from whichtool_tui.usecases.options import (
    InspectOverrides,
    RunOverrides,
    from_mapping,
    merge_inspect_options,
    merge_run_options,
    shown_sources,
)

if TYPE_CHECKING:
    from whichtool_tui.provenance import Source
    from whichtool_tui.strict_model import StrictModel
    from whichtool_tui.usecases.api import (
        InspectOptions,
        ProviderChoice,
        RunInputs,
        RunOptions,
        RunReport,
        ServedListing,
    )


@dataclass
class ServerState:
    """What the tools share across calls: the operator's options and the paid-run latch."""

    options: ServerOptions
    paid_run_active: bool = False


class _DetailedError(Exception):
    """A refusal that carries structured detail (a plan, the findings) for the envelope."""

    def __init__(self, error: WhichtoolError, detail: Any) -> None:
        super().__init__(error.message)
        self.error = error
        self.detail = detail


async def _listing(
    options: ServerOptions, target: str | None, transport: str | None
) -> ServedListing:
    return await fetch_listing(open_target(options, target, transport))


def task_file_for(options: ServerOptions, tasks: str | None) -> Path:
    """An agent-named task file is confined; the operator's (config or default) is not."""
    from whichtool_tui.usecases.tasks import task_file

    if tasks is not None:
        return agent_file(tasks, options.workspace)
    return task_file(None, options.settings, options.workspace)


async def inspect_tool(state: ServerState, arguments: InspectArguments) -> dict[str, Any]:
    """``inspect_surface``: the static review of the configured (or named) surface."""
    options = state.options
    listing = await _listing(options, arguments.target, arguments.transport)
    review = functools.partial(review_listing, listing, agent_inspect_options(options, arguments))
    report = await anyio.to_thread.run_sync(review)
    text, data = inspect_summary(report)
    return envelope.success(text, data, ok=report.ok)


def agent_inspect_options(options: ServerOptions, arguments: InspectArguments) -> InspectOptions:
    """The agent's review values and the operator's tool budget (its own source), merged."""
    overrides = InspectOverrides(
        max_tools=options.max_tools, max_context_tokens=arguments.max_context_tokens
    )
    return merge_inspect_options(
        overrides, options.settings, face="agent", given=operator_sources(options)
    )


def operator_sources(options: ServerOptions) -> dict[str, Source]:
    """The operator's budgets' sources, for a merge with the agent's arguments: a budget the
    server was given without one (built in code) is the operator's flag."""
    budgets: dict[str, Source] = {"max_trials": "flag", "max_tools": "flag"}
    return {**budgets, **options.budget_sources}


async def validate_tool(state: ServerState, arguments: ValidateArguments) -> dict[str, Any]:
    """``validate_task_file``: lint a task set, against the surface when there is one."""
    from whichtool_tui.usecases.tasks import lint_tasks, load_tasks, surface_of

    options = state.options
    loaded = load_tasks(task_file_for(options, arguments.tasks), options.workspace)
    surface = None
    dynamic = arguments.target is not None or arguments.transport is not None
    if dynamic or options.settings.target is not None:
        listing = await _listing(options, arguments.target, arguments.transport)
        surface = surface_of(listing.raw_tools)
    lint = lint_tasks(loaded, surface)
    text, data = validation_summary(
        lint.source, lint.surface_hash, lint.coverage, lint.diagnostics, lint.ok
    )
    return envelope.success(text, data, ok=lint.ok)


def check_provider_override(
    options: ServerOptions, provider: str | None, model: str | None
) -> None:
    """An agent may name a provider or model only when the operator allowed overrides."""
    if (provider or model) and not options.allow_provider_overrides:
        raise WhichtoolError(
            "mcp/provider-override-disabled",
            "This server runs only its configured provider and model",
            "The operator can start it with --allow-provider-overrides.",
        )


BASELINE_PROVIDER = "keyword"  # what an agent's improve or re-run uses unless it names one


def agent_provider_choice(
    options: ServerOptions, provider: str | None, model: str | None
) -> ProviderChoice:
    """The provider an agent named (only when the operator allowed overrides, merged over the
    config as the CLI merges a flag), else the offline keyword baseline."""
    from whichtool_tui.usecases.options import ProviderChoice, ProviderOverrides, merge_provider

    check_provider_override(options, provider, model)
    if provider is None:
        return ProviderChoice(BASELINE_PROVIDER, model, None, "preset")
    return merge_provider(ProviderOverrides(provider, model), options.settings, "agent")


def agent_run_choice(options: ServerOptions, arguments: RunArguments) -> ProviderChoice:
    """The provider of ``run_evaluation``: the agent's names (when allowed) over the operator's
    config, merged as the CLI merges flags; an agent never supplies a base URL."""
    from whichtool_tui.usecases.options import ProviderOverrides, merge_provider

    check_provider_override(options, arguments.provider, arguments.model)
    overrides = ProviderOverrides(arguments.provider, arguments.model)
    return merge_provider(overrides, options.settings, "agent")


def paid_run_disabled(provider_name: str | None, dry_run_hint: bool = False) -> WhichtoolError:
    """The refusal of a paid provider on a server started without --allow-paid-runs."""
    operator = "the operator can start the server with --allow-paid-runs."
    hint = f"Use dryRun to see the plan; {operator}" if dry_run_hint else operator.capitalize()
    return WhichtoolError(
        "mcp/paid-run-disabled",
        f"A run with `{provider_name}` sends prompts to a paid API; this server does "
        "not spend money",
        f"{hint} The keyword and mock providers are free.",
    )


@contextlib.asynccontextmanager
async def paid_run(state: ServerState, provider_name: str | None) -> AsyncIterator[None]:
    """Hold the one paid-run slot for a paid provider (refused when disabled or taken)."""
    paid = is_paid_provider(provider_name)
    if paid and not state.options.allow_paid_runs:
        raise paid_run_disabled(provider_name)
    if paid and state.paid_run_active:
        raise WhichtoolError(
            "mcp/run-busy",
            "Another paid run is in progress on this server",
            "Wait for it to finish; one paid run runs at a time.",
        )
    if paid:
        state.paid_run_active = True
    try:
        yield
    finally:
        if paid:
            state.paid_run_active = False


def log_destination(tool: str, line: str) -> None:
    """The operator's log names where a tool's prompts and key go, as `run` says on stderr."""
    sys.stderr.write(f"whichtool-tui mcp: {tool}: {line}\n")
    sys.stderr.flush()


def announce_route(options: ServerOptions, tool: str, choice: ProviderChoice) -> None:
    """Check where the chosen provider would send prompts and its key, and log it before
    anything is spent (the same key-routing rules and line as ``run_evaluation``)."""
    from whichtool_tui.usecases.providers import ProviderRequest, provider_route

    request = ProviderRequest.of(choice, allow_http=options.allow_http_provider)
    log_destination(tool, provider_route(request).line)


def _check_agent_limit(name: str, value: int, high: int) -> None:
    if not 1 <= value <= high:
        raise WhichtoolError(
            "mcp/limit-exceeded",
            f"{name} {value} is outside 1-{high}, the limit for agents",
            f"Pass {name} between 1 and {high}.",
        )


def run_options_for(options: ServerOptions, arguments: StrictModel) -> RunOptions:
    """The agent's values (repeat and concurrency checked) and the operator's budgets, merged.

    Everything an agent may not set (seed, temperature, error-rate gate) comes from the config,
    through the same merge as the command line and the TUI.
    """
    overrides = from_mapping(
        RunOverrides,
        {
            **arguments.model_dump(exclude_none=True),
            "max_trials": options.max_trials,
            "max_tools": options.max_tools,
        },
    )
    merged = merge_run_options(
        overrides, options.settings, face="agent", given=operator_sources(options)
    )
    _check_agent_limit("repeat", merged.repeat, AGENT_MAX_REPEAT)
    _check_agent_limit("concurrency", merged.concurrency, AGENT_MAX_CONCURRENCY)
    return merged


async def _run_inputs(
    options: ServerOptions,
    arguments: RunArguments,
    provider_name: str | None,
    before_review: Callable[[RunInputs], None] | None = None,
) -> RunInputs:
    """Open the surface, load the tasks, and refuse a task set with error findings."""
    from whichtool_tui.usecases.run import TaskSetBlockedError, inputs_for, normalize
    from whichtool_tui.usecases.tasks import load_tasks

    task_path = task_file_for(options, arguments.tasks)
    listing = await _listing(options, arguments.target, arguments.transport)
    surface = normalize(listing)
    loaded = load_tasks(task_path, options.workspace)
    try:
        # The full static review travels into the run: an error-level finding fails the run.
        return inputs_for(
            listing,
            loaded,
            options.max_tools,
            provider_name,
            blocked_hint="Call validate_task_file to see every finding.",
            surface=surface,
            full_review=True,
            rules=options.settings.inspect.rules,
            before_review=before_review,
        )
    except TaskSetBlockedError as blocked:
        findings = [d.to_json() for d in blocked.findings]
        kept, omitted = envelope.capped(findings, envelope.MAX_DIAGNOSTICS)
        raise _DetailedError(
            blocked, {"diagnostics": kept, "diagnosticsOmitted": omitted}
        ) from None


def _check_limits(tool_count: int, planned: int, options: ServerOptions, plan: Any) -> None:
    """The tool budget before the trial budget; each hard limit before the operator's."""
    for count, hard, operator, what, flag in (
        (tool_count, ABSOLUTE_MAX_TOOLS, options.max_tools, "tools", "--max-tools"),
        (planned, ABSOLUTE_MAX_TRIALS, options.max_trials, "trials", "--max-trials"),
    ):
        code = TOOL_LIMIT if what == "tools" else TRIAL_LIMIT
        if count > hard:
            raise _DetailedError(
                WhichtoolError(code, f"{count} {what} exceed the hard maximum of {hard}"),
                {"plan": plan},
            )
        if count > operator:
            raise _DetailedError(
                WhichtoolError(
                    code,
                    f"{count} {what} exceed this server's limit of {operator}",
                    f"Lower repeat or use fewer tasks; the operator can raise {flag}.",
                ),
                {"plan": plan},
            )


async def run_tool(state: ServerState, arguments: RunArguments) -> dict[str, Any]:
    """``run_evaluation``: plan, and unless dry, spend the run under the operator's rules."""
    from whichtool_tui.usecases.providers import ProviderRequest, provider_route
    from whichtool_tui.usecases.run import prepare as prepare_run

    options = state.options
    try:
        choice = agent_run_choice(options, arguments)
        provider_name, model = choice.name, choice.model
        run_options = run_options_for(options, arguments)
        sources = shown_sources(run_options.sources)
        # Where the prompts and the key would go, checked by the key-routing rules before any
        # plan is shown: a dry run tells the agent (and the operator's log) the destination.
        route = provider_route(ProviderRequest.of(choice, allow_http=options.allow_http_provider))
        provider = {
            "name": provider_name,
            "model": model,
            "reasoningEffort": run_options.reasoning_effort,
            "endpoint": route.endpoint,
            "keyEnv": route.key_env,
            "destination": route.line,
        }

        def refuse_over_limits(draft: RunInputs) -> None:
            # Before the full review: a surface over the budgets is refused without it.
            first = prepare_run(draft, run_options)
            early = plan_summary(
                first, len(draft.tools), options.max_trials, options.max_tools, provider, sources
            )
            _check_limits(len(draft.tools), first.plan.planned, options, early)

        checked = None if arguments.dry_run else refuse_over_limits
        inputs = await _run_inputs(options, arguments, provider_name, checked)
        prepared = prepare_run(inputs, run_options)
        plan = plan_summary(
            prepared, len(inputs.tools), options.max_trials, options.max_tools, provider, sources
        )
        if arguments.dry_run:
            text, data = dry_run_summary(plan)
            return envelope.success(text, data)
        _check_limits(len(inputs.tools), prepared.plan.planned, options, plan)
        if is_paid_provider(provider_name) and not options.allow_paid_runs:
            raise _DetailedError(
                paid_run_disabled(provider_name, dry_run_hint=True), {"plan": plan}
            )
        log_destination("run_evaluation", route.line)
        report = await _spend(state, inputs, run_options, prepared, choice)
    except _DetailedError as refusal:
        return envelope.failure(refusal.error, refusal.detail)
    text, data = run_summary(report, _write_result_file(options, report))
    return envelope.success(text, data, ok=report.ok)


async def _spend(
    state: ServerState,
    inputs: RunInputs,
    run_options: RunOptions,
    prepared: Any,
    choice: ProviderChoice,
) -> RunReport:
    """Spend the run: one paid run at a time; cancellation (notifications/cancelled) aborts it."""
    from whichtool_tui.usecases.providers import ProviderRequest, open_provider, open_trial_cache
    from whichtool_tui.usecases.run import spend

    async with paid_run(state, choice.name):
        cache = open_trial_cache(state.options.cache, state.options.cache_dir)
        # The operator's config baseUrl applies only to the provider it names (the merge): an
        # agent switching provider gets that provider's own endpoint, never the operator's URL
        # with another key.
        provider = open_provider(
            ProviderRequest.of(
                choice,
                allow_http=state.options.allow_http_provider,
                timeout=run_options.timeout,
                max_output_tokens=run_options.max_output_tokens,
            )
        )
        return await spend(inputs, run_options, prepared, provider, cache=cache)


def _write_result_file(options: ServerOptions, report: RunReport) -> dict[str, Any] | None:
    """With --result-file, the full run goes to disk and only a pointer reaches the agent."""
    if options.result_file is None:
        return None
    from whichtool_tui.files import write_atomic
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.usecases.api import dump_report_json

    text = dump_report_json(report)
    write_atomic(options.result_file, text)
    return {
        "kind": "file",
        "path": redact_paths(str(Path(options.result_file).resolve())),
        "mediaType": "application/json",
        "schemaVersion": report.schema_version,
        "characters": len(text),
    }


async def diff_tool(state: ServerState, arguments: DiffArguments) -> dict[str, Any]:
    """``diff_saved_results``: the paired comparison of two saved runs in the workspace."""
    from whichtool_tui.usecases.saved_runs import DiffRequest, diff_saved

    workspace = state.options.workspace
    request = DiffRequest(
        agent_file(arguments.base, workspace),
        agent_file(arguments.head, workspace),
        arguments.max_accuracy_drop,
        arguments.paired_unit,
    )
    report = await anyio.to_thread.run_sync(diff_saved, request)
    if not report.comparable:
        return envelope.failure(
            WhichtoolError(
                "diff/incomparable",
                "The two runs cannot be compared: " + "; ".join(report.incomparable),
                "Compare runs of the same task set, repeat and seed.",
            ),
            {"incomparable": report.incomparable},
        )
    text, data = diff_summary(report)
    return envelope.success(text, data, ok=report.ok)
