"""The host x tool matrix every renderer draws: per cell, the worst effect or none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui.hosts.report_model import HostFinding, HostVerdict

EFFECT_ORDER = (
    "listing-rejected",
    "request-rejected",
    "tool-dropped",
    "submission-blocked",
    "non-conforming",
    "truncated",
    "renamed-by-host",
)
"""Worst first: what a cell shows when a tool breaks several rules of one host."""

SHORT_EFFECT = {
    "listing-rejected": "listing",
    "request-rejected": "rejected",
    "tool-dropped": "dropped",
    "submission-blocked": "blocked",
    "non-conforming": "spec",
    "truncated": "truncated",
    "renamed-by-host": "renamed",
}
"""Cell text for narrow tables; the legend spells each one out."""

SURFACE_ROW = "(surface)"


@dataclass(frozen=True)
class HostMatrix:
    """Rows are tools (the surface-wide row first when any rule is surface-wide), columns hosts;
    a cell is the worst effect, or None where the tool passes every rule of that host."""

    hosts: list[str]
    rows: list[str]
    cells: dict[tuple[str, str], str]

    def cell(self, row: str, host: str) -> str | None:
        """The worst effect of ``row`` on ``host``, or None."""
        return self.cells.get((row, host))


def host_matrix(verdicts: Sequence[HostVerdict], tool_names: Sequence[str]) -> HostMatrix:
    """The matrix over every tool of the surface (passing tools included)."""
    cells: dict[tuple[str, str], str] = {}
    surface_wide = False
    for verdict in verdicts:
        for finding in verdict.findings:
            row = finding.tool if finding.tool is not None else SURFACE_ROW
            surface_wide = surface_wide or finding.tool is None
            key = (row, verdict.host)
            current = cells.get(key)
            if current is None or EFFECT_ORDER.index(finding.effect) < EFFECT_ORDER.index(current):
                cells[key] = finding.effect
    rows = ([SURFACE_ROW] if surface_wide else []) + sorted(tool_names)
    return HostMatrix([verdict.host for verdict in verdicts], rows, cells)


@dataclass(frozen=True)
class FindingGroup:
    """One rule of one host and every tool it fired on (the first finding stands for them)."""

    first: HostFinding
    tools: list[str | None]


def grouped_findings(verdict: HostVerdict) -> list[FindingGroup]:
    """A host's findings by rule, in first-seen order: 1,000 tools read as a few lines."""
    groups: dict[str, FindingGroup] = {}
    for finding in verdict.findings:
        group = groups.get(finding.rule)
        if group is None:
            groups[finding.rule] = FindingGroup(finding, [finding.tool])
        else:
            group.tools.append(finding.tool)
    return list(groups.values())


@dataclass(frozen=True)
class MatrixRow:
    """A row as a renderer draws it: a tool (and how many more tools share its cells)."""

    tool: str
    also: int
    cells: list[str | None]


def matrix_rows(matrix: HostMatrix, limit: int) -> list[MatrixRow]:
    """Every row up to ``limit`` rows; past it one row per distinct pattern of cells (at most
    ``limit`` patterns), so 1,000 tools that fail alike read as one line."""
    rows = [
        MatrixRow(row, 0, [matrix.cell(row, host) for host in matrix.hosts]) for row in matrix.rows
    ]
    if len(rows) <= limit:
        return rows
    surface = [row for row in rows if row.tool == SURFACE_ROW]
    patterns: dict[tuple[str | None, ...], list[MatrixRow]] = {}
    for row in rows:
        if row.tool != SURFACE_ROW:
            patterns.setdefault(tuple(row.cells), []).append(row)
    return surface + [
        MatrixRow(members[0].tool, len(members) - 1, members[0].cells)
        for members in list(patterns.values())[:limit]
    ]
