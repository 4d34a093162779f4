"""The hosts section of the terminal inspect report: the matrix, then each host's findings."""

from __future__ import annotations

from whichtool_tui.hosts.matrix import SHORT_EFFECT, host_matrix
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.reports.findability_terminal import LineSink
from whichtool_tui.text_safety import ascii_safe

MAX_UNSEEN_SHOWN = 120
_EFFECT_STYLE = {"truncated": "yellow", "renamed-by-host": "yellow"}


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def _matrix(out: LineSink, verdicts: list[HostVerdict], tool_names: list[str], width: int) -> None:
    """The matrix in as many column groups as the width needs (rows always whole)."""
    matrix = host_matrix(verdicts, tool_names)
    rows = [_clip(ascii_safe(row), 40) for row in matrix.rows]
    first = max([4, *(len(row) for row in rows)]) + 4
    groups: list[list[str]] = [[]]
    used = first
    for host in matrix.hosts:
        size = max(len(host), 9) + 2
        if groups[-1] and used + size > width:
            groups.append([])
            used = first
        groups[-1].append(host)
        used += size
    for group in groups:
        out.add("")
        table = [
            [shown, *[SHORT_EFFECT.get(matrix.cell(row, host) or "", "ok") for host in group]]
            for shown, row in zip(rows, matrix.rows, strict=True)
        ]
        out.table(["tool", *group], table, set())


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
            out.wrapped(
                f"tool search ({search.search}) finds {search.found_at_k * 100:.0f}% of the tasks' "
                f"tools in its top {search.k}"
                + (
                    f"; misses {', '.join(ascii_safe(t) for t in search.missed)}"
                    if search.missed
                    else ""
                ),
                "    ",
                "dim",
            )
        for assumption in verdict.assumptions:
            out.wrapped("assumes " + ascii_safe(assumption), "    ", "dim")
        for finding in verdict.findings:
            target = ascii_safe(finding.tool) if finding.tool is not None else "(surface)"
            style = _EFFECT_STYLE.get(finding.effect, "red")
            out.add("    ", (f"{finding.effect:<18}", style), " ", _clip(target, 60))
            out.wrapped(ascii_safe(finding.message), "      ")
            if finding.truncation is not None:
                unseen = _clip(ascii_safe(finding.truncation.unseen), MAX_UNSEEN_SHOWN)
                out.wrapped(f'never seen: "{unseen}"', "      ", "dim")
            fix = "  fix: --host-fix-out" if finding.fixable else ""
            out.wrapped(
                f"source: {finding.source} (verified {finding.verified}){fix}", "      ", "dim"
            )
