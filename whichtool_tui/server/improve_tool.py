"""``improve_descriptions``: the description-fix loop of ``improve`` for agents.

The same use case as the command line (split, propose, measure on held-out tasks, decide),
under the server's rules: agent-named files are confined to the working directory, the
keyword baseline (offline, free) unless the operator allows provider overrides, paid providers
only with --allow-paid-runs and one at a time, repeat and concurrency within the agent caps, and
a paid loop's whole count (every candidate's held-out run) within the operator's trial and tool
budgets, checked before the review; offline providers cost nothing and have no cap. The agent
gets a compact summary and the RFC 6902 patch; applying it stays the author's step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.server import envelope
from whichtool_tui.server.handlers import (
    ServerState,
    agent_provider_choice,
    announce_route,
    log_destination,
    paid_run,
    run_options_for,
    task_file_for,
)
from whichtool_tui.server.paths import agent_file
from whichtool_tui.server.summaries import put_capped

if TYPE_CHECKING:
    from whichtool_tui.server.arguments import ImproveArguments
    from whichtool_tui.server.options import ServerOptions
    from whichtool_tui.usecases.api import Candidate, ImproveBudget, ImproveReport, ImproveRequest

IMPROVE_SUMMARY = "whichtool.mcp-improve-summary/1"
IMPROVE_PLAN = "whichtool.mcp-improve-plan/1"


def _snapshot(options: ServerOptions, snapshot: str | None) -> str:
    """The agent's snapshot (confined), else the configured target when it is a snapshot."""
    if snapshot is not None:
        return str(agent_file(snapshot, options.workspace))
    from whichtool_tui.usecases.inspect import target_spec

    configured = options.settings.target
    if configured is not None:
        spec = target_spec(None, None, options.settings)
        if spec.transport == "snapshot" and spec.path is not None:
            return spec.path
    raise WhichtoolError(
        "mcp/invalid-arguments",
        "improve_descriptions: `snapshot` is needed: the configured target is not a snapshot",
        "Pass a snapshot .json inside the working directory (a saved tools/list).",
    )


def _request(options: ServerOptions, arguments: ImproveArguments) -> ImproveRequest:
    """The agent's values over the operator's config, through the same merges as the CLI."""
    from whichtool_tui.usecases.improve import request_with_defaults

    provider = agent_provider_choice(options, arguments.provider, arguments.model)
    base_run = arguments.base_run
    return request_with_defaults(
        _snapshot(options, arguments.snapshot),
        str(task_file_for(options, arguments.tasks)),
        provider,
        run_options_for(options, arguments),
        allow_http_provider=options.allow_http_provider,
        base_run=str(agent_file(base_run, options.workspace)) if base_run is not None else None,
        holdout_share=arguments.holdout_share,
        max_token_growth=arguments.max_token_growth,
        tools=tuple(arguments.tools or ()),
    )


def _dry_run(options: ServerOptions, request: ImproveRequest) -> dict[str, Any]:
    """The plan of an improve run, paid or not, with no provider opened and nothing sent."""
    from whichtool_tui.usecases.improve import (
        budget_refusal,
        improve_destination,
        prepare_improve,
    )

    budget = prepare_improve(request, check=False).budget
    refusal = budget_refusal(budget)
    text, data = improve_plan(budget, refusal, improve_destination(request, options.settings))
    return envelope.success(text, data)


def _candidate_view(candidate: Candidate) -> dict[str, Any]:
    """One rewrite as the agent sees it: the decision, the reason and its held-out figures."""
    from whichtool_tui.usecases.api import wire_dict

    view: dict[str, Any] = {
        "id": candidate.id,
        "tool": candidate.tool,
        "accepted": candidate.accepted,
        "reason": candidate.reason,
        "rewriter": candidate.rewriter,
        "rule": candidate.rule,
        "target": wire_dict(candidate.target),
        "addressed": [item.code for item in candidate.addressed],
        "descriptionAfter": candidate.description_after,
    }
    measurement = candidate.measurement
    if measurement is not None:
        view["heldOut"] = {
            "accuracyBefore": wire_dict(measurement.accuracy_before),
            "accuracyAfter": wire_dict(measurement.accuracy_after),
            "overTriggerBefore": measurement.over_trigger_before.value,
            "overTriggerAfter": measurement.over_trigger_after.value,
            "accuracyPaired": wire_dict(measurement.accuracy_paired),
            "targetedPaired": (
                wire_dict(measurement.targeted_paired)
                if measurement.targeted_paired is not None
                else None
            ),
            "tokensBefore": measurement.tokens_before,
            "tokensAfter": measurement.tokens_after,
            "tokenGrowth": measurement.token_growth,
        }
    return view


def improve_summary(report: ImproveReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of an improve run: decisions, figures and the patch."""
    from whichtool_tui.reports.rates import percent
    from whichtool_tui.usecases.api import wire_dict

    accepted = [c for c in report.candidates if c.accepted]
    data: dict[str, Any] = {
        "schemaVersion": IMPROVE_SUMMARY,
        "snapshot": report.snapshot,
        "surfaceHash": report.surface_hash,
        "taskSet": report.task_set,
        "provider": report.provider,
        "model": report.model,
        "rewriter": report.rewriter,
        "repeat": report.repeat,
        "seed": report.split.seed,
        "split": {"tuning": len(report.split.tuning), "heldOut": len(report.split.held_out)},
        # Where the tuning failures came from: the agent's saved run, or a tuning run made now.
        "baseRun": report.base_run,
        "tuningFailures": len(report.tuning_failures),
        "accepted": len(accepted),
        "rejected": len(report.candidates) - len(accepted),
        "acceptedTools": list(report.accepted_tools),
        # The whole patch, never capped: a cut patch would apply to a different surface.
        "patch": [wire_dict(operation) for operation in report.patch],
        "final": wire_dict(report.final) if report.final is not None else None,
    }
    ordered = sorted(report.candidates, key=lambda c: not c.accepted)  # accepted first
    put_capped(data, "candidates", [_candidate_view(c) for c in ordered])
    put_capped(data, "notes", list(report.notes))
    text = (
        f"{len(accepted)} of {len(report.candidates)} candidate rewrite(s) accepted "
        f"({report.provider}, {len(report.split.held_out)} held-out tasks); patch of "
        f"{len(report.patch)} operation(s)."
    )
    final = report.final
    if final is not None:
        text += (
            f" Held-out accuracy {percent(final.accuracy_before.value, 1)} -> "
            f"{percent(final.accuracy_after.value, 1)}."
        )
    return text, data


def improve_plan(
    budget: ImproveBudget, refusal: str | None, destination: str
) -> tuple[str, dict[str, Any]]:
    """Headline line and data of ``dryRun: true``: every run's trials, the total and the caps."""
    data: dict[str, Any] = {
        "schemaVersion": IMPROVE_PLAN,
        "dryRun": True,
        "provider": budget.provider,
        "paid": budget.paid,
        "tools": budget.tools,
        "tuningTrials": budget.tuning_trials,
        "heldOutTrials": budget.held_out_trials,
        "maxCandidates": budget.max_candidates,
        "totalTrials": budget.total,
        "maxTrials": budget.max_trials,
        "maxTools": budget.max_tools,
        "refused": refusal,
        "destination": destination,
    }
    if budget.paid:
        status = f"refused: {refusal}" if refusal else "within the caps"
        text = f"Dry run: at most {budget.total} trials ({budget.parts()}); {status}."
    else:
        text = f"Dry run: {budget.provider} is offline, no cap applies ({budget.parts()})."
    return f"{text} Nothing was sent; {destination}.", data


async def improve_tool(state: ServerState, arguments: ImproveArguments) -> dict[str, Any]:
    """``improve_descriptions``: propose, measure on held-out tasks, and return the patch."""
    from whichtool_tui.usecases.improve import run_improve_async

    options = state.options
    request = _request(options, arguments)
    chosen = request.provider
    if arguments.dry_run:
        return _dry_run(options, request)
    async with paid_run(state, chosen.name):
        announce_route(options, "improve_descriptions", chosen)
        # On this loop, not in a thread: notifications/cancelled stops it between requests.
        report = await run_improve_async(
            request,
            options.settings,
            on_budget=lambda budget: log_destination("improve_descriptions", budget.line()),
        )
    text, data = improve_summary(report)
    return envelope.success(text, data)
