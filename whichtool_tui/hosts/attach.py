"""Add the ``hosts`` section to an inspect report, for the hosts a user named."""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.report_model import InspectReport


def with_hosts(
    report: InspectReport,
    listing: ServedListing,
    hosts: Sequence[str],
    server_name: str | None,
) -> InspectReport:
    """The same report with one verdict per named host (names as typed; ``all`` expands)."""
    from whichtool_tui.hosts.engine import evaluate_hosts
    from whichtool_tui.hosts.registry import resolve_hosts

    tokens = {name: breakdown.total for name, breakdown in report.tokens.by_tool.items()}
    verdicts = evaluate_hosts(
        listing.raw_tools, resolve_hosts(hosts), server_name, tokens, listing.server_name
    )
    if report.findability is not None:
        verdicts = [_with_tool_search(verdict, report) for verdict in verdicts]
    return report.model_copy(update={"hosts": verdicts})


def _with_tool_search(verdict: HostVerdict, report: InspectReport) -> HostVerdict:
    """The verdict with its host's tool-search result, when the findability review ran it."""
    from whichtool_tui.hosts.registry import profiles
    from whichtool_tui.hosts.report_model import ToolSearchReadiness

    search = profiles()[verdict.host].tool_search
    summaries = report.findability.summary if report.findability is not None else []
    found = next((item for item in summaries if item.retriever == search), None)
    if found is None:
        return verdict
    readiness = verdict.readiness.model_copy(
        update={
            "tool_search": ToolSearchReadiness(
                search=found.retriever, k=found.k, found_at_k=found.found_at_k, missed=found.missed
            )
        }
    )
    return verdict.model_copy(update={"readiness": readiness})


def write_host_fix(
    report: InspectReport, listing: ServedListing, prefix: str, path: str, server_name: str | None
) -> int:
    """Write the hosts' fix patch (RFC 6902, the format ``improve --patch-out`` writes) to
    ``path`` atomically; returns how many operations it holds (possibly none)."""
    from whichtool_tui.files import write_atomic
    from whichtool_tui.hosts.fixes import host_fix_operations
    from whichtool_tui.improve.patch import patch_text

    operations = host_fix_operations(
        listing.raw_tools, report.hosts or [], prefix, server_name, listing.server_name
    )
    write_atomic(path, patch_text(operations))
    return len(operations)
