"""``diff_surfaces``: the behavioural diff of two snapshots for agents (``surface-diff``).

The same use case as the command line: which tools changed (renames found by content), which
tasks a change can affect, and on request a re-run of only those tasks against both surfaces
with the paired result and the gates. Files are confined to the working directory; the re-run
uses the keyword baseline unless the operator allows provider overrides, within the agent caps
and the operator's budgets, one paid run at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.server import envelope
from whichtool_tui.server.handlers import (
    ServerState,
    agent_provider_choice,
    announce_route,
    paid_run,
    run_options_for,
)
from whichtool_tui.server.paths import agent_file
from whichtool_tui.server.summaries import put_capped

if TYPE_CHECKING:
    from whichtool_tui.server.arguments import SurfaceDiffArguments
    from whichtool_tui.server.options import ServerOptions
    from whichtool_tui.usecases.api import SurfaceDiffReport, SurfaceDiffRequest

SURFACE_DIFF_SUMMARY = "whichtool.mcp-surface-diff-summary/1"
# Arguments that shape only the re-run: refused without it rather than ignored (as the CLI's).
RERUN_ARGUMENTS = (
    ("provider", "provider"),
    ("model", "model"),
    ("seed", "seed"),
    ("repeat", "repeat"),
    ("concurrency", "concurrency"),
    ("failOnRegression", "fail_on_regression"),
    ("maxAccuracyDrop", "max_accuracy_drop"),
)


def _invalid(message: str) -> WhichtoolError:
    return WhichtoolError(
        "mcp/invalid-arguments",
        f"diff_surfaces: {message}",
        "See the input schema of diff_surfaces in tools/list.",
    )


def _request(options: ServerOptions, arguments: SurfaceDiffArguments) -> SurfaceDiffRequest:
    """Checked arguments over the operator's config, through the same merges as the CLI."""
    from whichtool_tui.usecases.surface_diff import SurfaceDiffRequest

    if not arguments.rerun:
        for shown, name in RERUN_ARGUMENTS:
            if getattr(arguments, name) not in (None, False):
                raise _invalid(f"`{shown}` applies to the re-run: it needs `rerun` and `tasks`")
    if arguments.rerun and arguments.tasks is None:
        raise _invalid("`rerun` re-runs the affected tasks: it needs `tasks`")
    provider = (
        agent_provider_choice(options, arguments.provider, arguments.model)
        if arguments.rerun
        else None
    )
    workspace = options.workspace
    tasks = arguments.tasks
    return SurfaceDiffRequest(
        base=str(agent_file(arguments.base, workspace)),
        head=str(agent_file(arguments.head, workspace)),
        tasks=str(agent_file(tasks, workspace)) if tasks is not None else None,
        provider=provider,
        options=run_options_for(options, arguments),
        allow_http_provider=options.allow_http_provider,
        fail_on_regression=arguments.fail_on_regression,
        max_accuracy_drop=arguments.max_accuracy_drop,
    )


def surface_diff_summary(report: SurfaceDiffReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a behavioural diff: changes, affected tasks, re-run."""
    from whichtool_tui.usecases.api import wire_dict

    data: dict[str, Any] = {
        "schemaVersion": SURFACE_DIFF_SUMMARY,
        "ok": not report.gate.failed,
        "base": wire_dict(report.base),
        "head": wire_dict(report.head),
        "unchangedTools": report.unchanged_tools,
        "taskSet": report.task_set,
        "unaffectedTasks": report.unaffected_tasks,
        "gate": wire_dict(report.gate),
    }
    changes = [
        {
            "kind": change.kind,
            "baseName": change.base_name,
            "headName": change.head_name,
            "fields": list(change.fields),
        }
        for change in report.changes
    ]
    put_capped(data, "changes", changes)
    put_capped(data, "partners", [wire_dict(partner) for partner in report.partners])
    put_capped(data, "affectedTasks", [wire_dict(task) for task in report.affected_tasks])
    rerun = report.rerun
    if rerun is not None:
        view = wire_dict(rerun)
        put_capped(view, "tasks", view.pop("tasks"))
        view.pop("method", None)
        data["rerun"] = view
    else:
        data["rerun"] = None
    put_capped(data, "notes", list(report.notes))
    text = (
        f"{len(report.changes)} tool(s) changed, {report.unchanged_tools} unchanged; "
        f"{len(report.affected_tasks)} task(s) affected."
    )
    if rerun is not None:
        paired = rerun.paired
        text += (
            f" Re-run ({rerun.provider}): {paired.improved} improved, {paired.regressed} "
            f"regressed, p={paired.p_value:.3g}."
        )
    if report.gate.failed:
        text = "REGRESSION: " + text + " " + "; ".join(report.gate.failures)
    return text, data


async def surface_diff_tool(state: ServerState, arguments: SurfaceDiffArguments) -> dict[str, Any]:
    """``diff_surfaces``: what changed between two snapshots, what it can move, and (asked)
    the re-run of the affected tasks on both."""
    from whichtool_tui.usecases.surface_diff import run_surface_diff_async

    options = state.options
    request = _request(options, arguments)
    chosen = request.provider
    async with paid_run(state, chosen.name if chosen is not None else None):
        if chosen is not None:
            announce_route(options, "diff_surfaces", chosen)
        # On this loop, not in a thread: notifications/cancelled stops the re-run.
        report = await run_surface_diff_async(request, options.settings)
    text, data = surface_diff_summary(report)
    return envelope.success(text, data, ok=not report.gate.failed)
