"""The tools this server publishes: names, descriptions, input schemas and annotations.

Plain data, so the published surface can be reviewed (and inspected by our own ``inspect``)
without starting anything. The input schemas are generated from the argument models the
handlers validate with (``server/arguments.py``, bounds from ``whichtool_tui.limits``), so a
field or a cap changes in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whichtool_tui.server.arguments import (
    DiffArguments,
    ImproveArguments,
    InspectArguments,
    RunArguments,
    SurfaceDiffArguments,
    ValidateArguments,
    agent_input_schema,
)


@dataclass(frozen=True)
class ToolDefinition:
    """One published tool, before it becomes an SDK ``Tool``."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool


SERVER_TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        name="inspect_surface",
        title="Inspect an MCP tool surface",
        description="Static review of an MCP server's tools/list: estimated context tokens per "
        "tool, contradictory annotations, near-duplicate descriptions, invalid x-mcp-header "
        "values and tool count. Calls no model and executes no tool.",
        input_schema=agent_input_schema(InspectArguments),
        read_only=False,
        destructive=False,
        idempotent=True,
        open_world=True,
    ),
    ToolDefinition(
        name="validate_task_file",
        title="Validate a routing task set",
        description="Parse and lint a task-set file (prompt, expected tool or null): duplicate "
        "ids, expected tools missing from the surface, coverage and distractors. Checks "
        "against the surface only when a target is configured or given.",
        input_schema=agent_input_schema(ValidateArguments),
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=True,
    ),
    ToolDefinition(
        name="run_evaluation",
        title="Run the tool-routing benchmark",
        description="Send each task's prompt to a model with the surface's tools and record "
        "which tool it proposes (never executed): accuracy, over-trigger and confusions with "
        "95% intervals. dryRun plans and prices it without calling a model; paid providers "
        "need the operator's --allow-paid-runs.",
        input_schema=agent_input_schema(RunArguments),
        read_only=False,
        destructive=False,
        idempotent=False,
        open_world=True,
    ),
    ToolDefinition(
        name="diff_saved_results",
        title="Compare two saved routing runs",
        description="Paired comparison of two saved run reports (base, head) of the same task "
        "set: accuracy, over-trigger and multi-call deltas with an exact sign test, new and "
        "resolved confusions. Refuses runs that are not comparable.",
        input_schema=agent_input_schema(DiffArguments),
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=False,
    ),
    ToolDefinition(
        name="improve_descriptions",
        title="Propose measured description fixes",
        description="Propose rewrites of the tool descriptions involved in findings and "
        "routing failures of a snapshot, and keep one only when a held-out routing run shows "
        "it helps (accuracy not down, targeted tasks up, over-trigger not up, token growth "
        "bounded). Returns each candidate's figures and an RFC 6902 JSON Patch of the accepted "
        "ones; changes no file. Keyword baseline (offline) unless the operator allows provider "
        "overrides.",
        input_schema=agent_input_schema(ImproveArguments),
        read_only=True,  # it returns a patch and writes nothing
        destructive=False,
        idempotent=False,  # a model rewriter may answer differently each time
        open_world=True,  # a provider override sends prompts to a model
    ),
    ToolDefinition(
        name="diff_surfaces",
        title="Diff two tool surfaces by behaviour",
        description="Compare two snapshots of a tools/list: which tools changed (description, "
        "schema, annotations; renames found by content) and which tasks a change can affect "
        "(tasks expecting a changed tool or a confusable partner). With rerun, only those "
        "tasks run against both surfaces with the paired task-level result and the gates.",
        input_schema=agent_input_schema(SurfaceDiffArguments),
        read_only=True,
        destructive=False,
        idempotent=False,  # a model re-run may answer differently each time
        open_world=True,  # a provider override sends prompts to a model
    ),
)
