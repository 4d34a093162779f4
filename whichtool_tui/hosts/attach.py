"""Add the ``hosts`` section to an inspect report, for the hosts a user named."""

from __future__ import annotations

from collections.abc import Sequence

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
    return report.model_copy(update={"hosts": verdicts})


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
