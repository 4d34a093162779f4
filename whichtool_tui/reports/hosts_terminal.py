"""The hosts section of the terminal inspect report: the matrix, then each host's findings."""

from __future__ import annotations

from whichtool_tui.hosts.matrix import (
    SHORT_EFFECT,
    SURFACE_ROW,
    grouped_findings,
    host_matrix,
    matrix_rows,
)
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.reports.findability_terminal import LineSink
from whichtool_tui.text_safety import ascii_safe

MAX_UNSEEN_SHOWN = 120
MAX_ALL_ROWS = 40
"""Up to this many tools the matrix lists every one; past it, one row per pattern of cells."""
MAX_TOOLS_NAMED = 5
_EFFECT_STYLE = {"truncated": "yellow", "renamed-by-host": "yellow"}


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def _matrix_rows(
    verdicts: list[HostVerdict], tool_names: list[str]
) -> tuple[list[str], list[list[str]]]:
    """Host names and the table rows (one per tool, or per pattern of cells past the limit)."""
    matrix = host_matrix(verdicts, tool_names)
    rows = []
    for row in matrix_rows(matrix, MAX_ALL_ROWS):
        label = _clip(ascii_safe(row.tool), 40) + (f" +{row.also:,} like it" if row.also else "")
        rows.append([label, *[SHORT_EFFECT.get(cell or "", "ok") for cell in row.cells]])
    return matrix.hosts, rows


def _matrix(out: LineSink, verdicts: list[HostVerdict], tool_names: list[str], width: int) -> None:
    """The matrix in as many column groups as the width needs (rows always whole)."""
    hosts, rows = _matrix_rows(verdicts, tool_names)
    first = max([4, *(len(row[0]) for row in rows)]) + 4
    groups: list[list[int]] = [[]]
    used = first
    for position, host in enumerate(hosts):
        size = max(len(host), 9) + 2
        if groups[-1] and used + size > width:
            groups.append([])
            used = first
        groups[-1].append(position)
        used += size
    for group in groups:
        out.add("")
        table = [[row[0], *[row[1 + position] for position in group]] for row in rows]
        out.table(["tool", *[hosts[position] for position in group]], table, set())


def _named(tools: list[str | None]) -> str:
    names = [ascii_safe(tool) if tool is not None else SURFACE_ROW for tool in tools]
    shown = ", ".join(_clip(name, 40) for name in names[:MAX_TOOLS_NAMED])
    more = len(names) - MAX_TOOLS_NAMED
    return f"{shown} and {more:,} more" if more > 0 else shown


def _details(out: LineSink, verdict: HostVerdict) -> None:
    out.add("")
    state = ("compatible", "green") if verdict.compatible else ("INCOMPATIBLE", "bold red")
    readiness = verdict.readiness
    out.add(
        ("  ", ""),
        (verdict.host, "bold"),
        "  ",
        state,
        (
            f"  sees {readiness.tools_seen:,}/{readiness.tool_count:,} tools, "
            f"~{readiness.tokens_loaded:,} tokens",
            "dim",
        ),
    )
    search = readiness.tool_search
    if search is not None:
        missed = f"; misses {_named(list(search.missed))}" if search.missed else ""
        out.wrapped(
            f"tool search ({search.search}) finds {search.found_at_k * 100:.0f}% of the tasks' "
            f"tools in its top {search.k}{missed}",
            "    ",
            "dim",
        )
    for assumption in verdict.assumptions:
        out.wrapped("assumes " + ascii_safe(assumption), "    ", "dim")
    for group in grouped_findings(verdict):
        finding = group.first
        style = _EFFECT_STYLE.get(finding.effect, "red")
        count = f"{len(group.tools):,} tools: " if len(group.tools) > 1 else ""
        out.add("    ", (f"{finding.effect:<18}", style), " ", count + _named(group.tools))
        lead = "e.g. " if len(group.tools) > 1 else ""
        out.wrapped(lead + ascii_safe(finding.message), "      ")
        if finding.truncation is not None:
            unseen = _clip(ascii_safe(finding.truncation.unseen), MAX_UNSEEN_SHOWN)
            out.wrapped(f'never seen: "{unseen}"', "      ", "dim")
        fix = "  fix: --host-fix-out" if finding.fixable else ""
        out.wrapped(f"source: {finding.source} (verified {finding.verified}){fix}", "      ", "dim")


def render_hosts_terminal(
    out: LineSink, verdicts: list[HostVerdict], tool_names: list[str], width: int
) -> None:
    """Matrix first (ok or the worst effect per tool and host), then details per host."""
    out.add("")
    out.add(("Hosts (will it work there? each rule cites its public source)", "bold"))
    _matrix(out, verdicts, tool_names, width)
    out.wrapped(
        "rejected: every call fails; listing: every tool lost; dropped: the tool is missing; "
        "blocked: the submission is refused; truncated: the model sees part; spec: deviates "
        "from the MCP specification",
        "  ",
        "dim",
    )
    for verdict in verdicts:
        _details(out, verdict)
