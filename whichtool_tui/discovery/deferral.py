"""Would a host defer this surface? The published rules hosts use to hide tools behind search.

Modelled rules (facts as the hosts document or report them; thresholds are constants here):
- ``context-share``: Claude Code's automatic tool search defers MCP tools once their definitions
  pass 10% of the context window; with a 200,000-token window that is 20,000 tokens.
- ``tool-count``: above 128 tools, VS Code's Copilot Chat groups tools behind virtual tools that
  the model must expand (its ``virtualTools.threshold`` default), and OpenAI's APIs refuse more
  than 128 tools in one request.
- ``always``: hosts that defer every MCP tool whatever the size (Claude Code reportedly does now,
  claude-code #18298 and #39279; Copilot CLI; Qwen Code PR #4512).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from whichtool_tui.diagnostics import Diagnostic

CONTEXT_WINDOW_TOKENS = 200_000
CONTEXT_SHARE = 0.10
TOOL_COUNT_LIMIT = 128


class DeferralRule(BaseModel):
    """One host rule, its threshold, the surface's figure, and whether it defers."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: str
    hosts: str
    rule: str
    threshold: int | None = None  # None: the rule has no size threshold (always defers)
    actual: int
    defers: bool


class DeferralSection(BaseModel):
    """The deferral prediction for one surface (token figures are estimates)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    estimated_tokens: int = Field(alias="estimatedTokens")
    tool_count: int = Field(alias="toolCount")
    rules: list[DeferralRule]
    deferred_by_size: bool = Field(alias="deferredBySize")


def predict_deferral(estimated_tokens: int, tool_count: int) -> DeferralSection:
    """Apply each modelled host rule to the surface's token estimate and tool count."""
    token_limit = int(CONTEXT_WINDOW_TOKENS * CONTEXT_SHARE)
    rules = [
        DeferralRule(
            id="context-share",
            hosts="Claude Code (automatic tool search)",
            rule=f"tool definitions above {CONTEXT_SHARE:.0%} of a "
            f"{CONTEXT_WINDOW_TOKENS:,}-token window",
            threshold=token_limit,
            actual=estimated_tokens,
            defers=estimated_tokens > token_limit,
        ),
        DeferralRule(
            id="tool-count",
            hosts="VS Code Copilot Chat (virtual tools); OpenAI APIs refuse more",
            rule=f"more than {TOOL_COUNT_LIMIT} tools",
            threshold=TOOL_COUNT_LIMIT,
            actual=tool_count,
            defers=tool_count > TOOL_COUNT_LIMIT,
        ),
        DeferralRule(
            id="always",
            hosts="Claude Code (reported current default), Copilot CLI, Qwen Code",
            rule="every MCP tool is deferred, whatever the size",
            threshold=None,
            actual=tool_count,
            defers=True,
        ),
    ]
    by_size = rules[0].defers or rules[1].defers
    return DeferralSection(
        estimated_tokens=estimated_tokens,
        tool_count=tool_count,
        rules=rules,
        deferred_by_size=by_size,
    )


def deferral_findings(section: DeferralSection) -> list[Diagnostic]:
    """A warning when a size rule defers the surface: its tools are then found only by search."""
    crossed = [rule for rule in section.rules if rule.defers and rule.threshold is not None]
    if not crossed:
        return []
    reasons = "; ".join(
        f"{rule.hosts}: {rule.rule} (~{rule.actual:,} > {rule.threshold:,})" for rule in crossed
    )
    return [
        Diagnostic(
            code="deferral/likely-deferred",
            severity="warning",
            message=f"Hosts would defer this surface: {reasons}. The model then sees a search "
            "tool, not these tools, and can call only what its search finds.",
            detail={"rules": [rule.id for rule in crossed]},
            hint="Make each tool findable from its own prompts (the findability findings say "
            "which words are missing), or shrink the surface below the thresholds.",
        )
    ]
