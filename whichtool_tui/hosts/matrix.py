"""The host x tool matrix every renderer draws: per cell, the worst effect or none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui.hosts.report_model import HostVerdict

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
