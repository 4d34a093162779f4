"""The hosts section of the markdown inspect report: the matrix, then each host's findings."""

from __future__ import annotations

from whichtool_tui.hosts.matrix import host_matrix
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.text_safety import markdown_cell, markdown_code

MAX_UNSEEN_SHOWN = 200


def render_hosts_markdown(verdicts: list[HostVerdict], tool_names: list[str]) -> list[str]:
    """A host x tool table (✓ or the effect), then one collapsible detail block per host."""
    matrix = host_matrix(verdicts, tool_names)
    lines = [
        "### Hosts",
        "",
        "| tool | " + " | ".join(markdown_code(host) for host in matrix.hosts) + " |",
        "|---|" + ":---:|" * len(matrix.hosts),
    ]
    for row in matrix.rows:
        cells = " | ".join(matrix.cell(row, host) or "✓" for host in matrix.hosts)
        lines.append(f"| {markdown_code(row)} | {cells} |")
    lines += [
        "",
        "| host | verdict | tools seen | tokens loaded (estimate) | tool search found@k |",
        "|---|---|---:|---:|---:|",
    ]
    for verdict in verdicts:
        mark = "✅ compatible" if verdict.compatible else "❌ incompatible"
        readiness = verdict.readiness
        search = readiness.tool_search
        found = (
            ""
            if search is None
            else f"{search.found_at_k * 100:.0f}% @{search.k} ({search.search})"
        )
        lines.append(
            f"| {markdown_code(verdict.host)} | {mark} | "
            f"{readiness.tools_seen:,}/{readiness.tool_count:,} | ~{readiness.tokens_loaded:,} | "
            f"{found} |"
        )
    lines.append("")
    for verdict in verdicts:
        if not verdict.findings:
            continue
        lines += [
            f"<details><summary>{markdown_cell(verdict.host)}: "
            f"{len(verdict.findings):,} finding{'' if len(verdict.findings) == 1 else 's'}"
            "</summary>",
            "",
            "| tool | effect | finding | source (verified) |",
            "|---|---|---|---|",
        ]
        for finding in verdict.findings:
            tool = markdown_code(finding.tool) if finding.tool is not None else "(surface)"
            message = finding.message
            if finding.truncation is not None:
                unseen = finding.truncation.unseen
                shown = unseen if len(unseen) <= MAX_UNSEEN_SHOWN else unseen[:MAX_UNSEEN_SHOWN]
                message += f' Never seen: "{shown}"'
            lines.append(
                f"| {tool} | {finding.effect} | {markdown_cell(message)} | "
                f"{markdown_cell(finding.source)} ({markdown_cell(finding.verified)}) |"
            )
        lines += ["", "</details>", ""]
    return lines
