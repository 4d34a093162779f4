"""What the second-core helper computes from the tools' names and descriptions alone.

The all-pairs overlap reads nothing else, and neither do the lint rules registered
``text_only``; a helper forked before the listing is normalised is sent just these (a few
hundred kilobytes at 1,000 tools) and returns the overlap and those rules' findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions, run_text_checks
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.overlap import OverlapAnalysis, analyze_overlap_families

TextInput = list[tuple[str, str | None, int]]
"""Each tool in surface order: its name, its description (or None), its served index."""


@dataclass(frozen=True)
class TextResult:
    """The overlap analysis and the text-only rules' findings by rule name."""

    overlap: OverlapAnalysis
    findings: dict[str, list[Diagnostic]]


def text_input(tools: Sequence[Tool]) -> TextInput:
    """What the helper needs of each tool: all that the overlap and text-only rules read."""
    return [(tool.name, tool.description, tool.served_index) for tool in tools]


def text_tools(given: TextInput) -> list[Tool]:
    """Tools with only names, descriptions and served indexes (empty schemas)."""
    return [
        Tool(name, description, input_schema={}, input_schema_resolved={}, served_index=index)
        for name, description, index in given
    ]


def text_review(given: TextInput) -> TextResult:
    """The overlap of the tools ``text_input`` was made from, then the text-only rules (those
    reading the overlap see its high families)."""
    tools = text_tools(given)
    overlap = analyze_overlap_families(tools)
    options = CheckOptions(high_overlap_families=overlap.high_families)
    return TextResult(overlap, run_text_checks(NormalizedSurface(tools, ""), options))
