"""The hosts section of the markdown inspect report: the matrix, then each host's findings."""

from __future__ import annotations

from whichtool_tui.hosts.matrix import SURFACE_ROW, grouped_findings, host_matrix, matrix_rows
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.text_safety import markdown_cell, markdown_code

MAX_UNSEEN_SHOWN = 200
MAX_ALL_ROWS = 60
MAX_TOOLS_NAMED = 8


def _tools(tools: list[str | None]) -> str:
    names = [markdown_code(tool) if tool is not None else SURFACE_ROW for tool in tools]
    more = len(names) - MAX_TOOLS_NAMED
    shown = ", ".join(names[:MAX_TOOLS_NAMED])
    return f"{shown} and {more:,} more" if more > 0 else shown


def _verdict_table(verdicts: list[HostVerdict]) -> list[str]:
    lines = [
        "| host | verdict | tools seen | tokens loaded (estimate) | tool search found@k |",
        "|---|---|---:|---:|---:|",
    ]
    for verdict in verdicts:
        mark = "✅ compatible" if verdict.compatible else "❌ incompatible"
        readiness = verdict.readiness
        search = readiness.tool_search
        found = "" if search is None else f"{search.found_at_k * 100:.0f}% @{search.k}"
        found += "" if search is None else f" ({search.search})"
        lines.append(
            f"| {markdown_code(verdict.host)} | {mark} | "
            f"{readiness.tools_seen:,}/{readiness.tool_count:,} | ~{readiness.tokens_loaded:,} | "
            f"{found} |"
        )
    return lines


def render_hosts_markdown(verdicts: list[HostVerdict], tool_names: list[str]) -> list[str]:
    """A host x tool table (✓ or the effect), the verdicts, then one detail block per host."""
    matrix = host_matrix(verdicts, tool_names)
    lines = [
        "### Hosts",
        "",
        "| tool | " + " | ".join(markdown_code(host) for host in matrix.hosts) + " |",
        "|---|" + ":---:|" * len(matrix.hosts),
    ]
    for row in matrix_rows(matrix, MAX_ALL_ROWS):
        label = row.tool if row.tool == SURFACE_ROW else markdown_code(row.tool)
        label += f" and {row.also:,} like it" if row.also else ""
        lines.append(f"| {label} | " + " | ".join(cell or "✓" for cell in row.cells) + " |")
    lines += ["", *_verdict_table(verdicts), ""]
    for verdict in verdicts:
        if not verdict.findings:
            continue
        groups = grouped_findings(verdict)
        count = len(verdict.findings)
        lines += [
            f"<details><summary>{markdown_cell(verdict.host)}: "
            f"{count:,} finding{'' if count == 1 else 's'}</summary>",
            "",
            "| tools | effect | finding | source (verified) |",
            "|---|---|---|---|",
        ]
        for group in groups:
            finding = group.first
            message = ("e.g. " if len(group.tools) > 1 else "") + finding.message
            if finding.truncation is not None:
                message += f' Never seen: "{finding.truncation.unseen[:MAX_UNSEEN_SHOWN]}"'
            lines.append(
                f"| {_tools(group.tools)} | {finding.effect} | {markdown_cell(message)} | "
                f"{markdown_cell(finding.source)} ({markdown_cell(finding.verified)}) |"
            )
        lines += ["", "</details>", ""]
    return lines
