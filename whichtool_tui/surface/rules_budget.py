"""Budget rules beyond the surface total: one tool eating the context of the whole surface."""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.rule_catalog import RULES

# A tool is dominant above a quarter of the surface AND above twice its fair share (2/n):
# on two or three tools one of them always passes a fixed share, so both must hold.
DOMINANT_SHARE = 0.25
FAIR_SHARE_FACTOR = 2.0
MIN_TOOLS = 3


def dominant_tool(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Flag a tool whose definition takes far more of the prompt than its neighbours."""
    count = len(surface.tools)
    total = sum(options.tool_tokens.values())
    if count < MIN_TOOLS or total <= 0:
        return []
    limit = max(DOMINANT_SHARE, FAIR_SHARE_FACTOR / count)
    found = []
    for tool in surface.tools:
        tokens = options.tool_tokens.get(tool.name, 0)
        share = tokens / total
        if share > limit:
            found.append(
                Diagnostic(
                    code="budget/dominant-tool",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}` takes {share * 100:.0f}% of the surface's ~{total:,} "
                        f"tokens (~{tokens:,}), more than the {limit * 100:.0f}% review share"
                    ),
                    tool=tool.name,
                    detail={"tokens": tokens, "share": round(share, 4), "limit": round(limit, 4)},
                    hint=RULES["budget/dominant-tool"].help,
                )
            )
    return found


register_check("budget/dominant-tool", dominant_tool)
