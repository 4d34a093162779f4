"""The four tools this server publishes: names, descriptions, input schemas and annotations.

Plain data, so the published surface can be reviewed (and inspected by our own ``inspect``)
without starting anything. Numeric bounds come from ``whichtool_tui.limits``, the same names the
handlers check, so a cap changes in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whichtool_tui import limits

TRANSPORT_SCHEMA: dict[str, Any] = {
    "type": "string",
    "enum": ["snapshot", "http", "stdio"],
    "description": "How to reach the target; inferred from it when omitted.",
}
TARGET_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "A snapshot .json inside the working directory, an http(s) URL, or a server "
    "command line. Needs --allow-dynamic-targets; otherwise the configured target is used.",
}
TASKS_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "Task-set file inside the working directory (default: the configured one).",
}
RATE_SCHEMA: dict[str, Any] = {"type": "number", "minimum": 0, "maximum": 1}


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


def _bounded_integer(low: int, high: int) -> dict[str, Any]:
    """An integer property whose bounds come from ``limits`` (the agent caps included)."""
    return {"type": "integer", "minimum": low, "maximum": high}


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


SERVER_TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        name="inspect_surface",
        title="Inspect an MCP tool surface",
        description="Static review of an MCP server's tools/list: estimated context tokens per "
        "tool, contradictory annotations, near-duplicate descriptions, invalid x-mcp-header "
        "values and tool count. Calls no model and executes no tool.",
        input_schema=_object(
            {
                "target": TARGET_SCHEMA,
                "transport": TRANSPORT_SCHEMA,
                "maxContextTokens": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Fail when the estimated surface tokens exceed this.",
                },
            }
        ),
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
        input_schema=_object(
            {"tasks": TASKS_SCHEMA, "target": TARGET_SCHEMA, "transport": TRANSPORT_SCHEMA}
        ),
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
        input_schema=_object(
            {
                "target": TARGET_SCHEMA,
                "transport": TRANSPORT_SCHEMA,
                "tasks": TASKS_SCHEMA,
                "provider": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Provider name; needs --allow-provider-overrides.",
                },
                "model": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Model name; needs --allow-provider-overrides.",
                },
                "repeat": _bounded_integer(limits.MIN_REPEAT, limits.AGENT_MAX_REPEAT),
                "concurrency": _bounded_integer(
                    limits.MIN_CONCURRENCY, limits.AGENT_MAX_CONCURRENCY
                ),
                "dryRun": {
                    "type": "boolean",
                    "description": "Only plan and price the run; no model is called.",
                },
                "minAccuracy": RATE_SCHEMA,
                "maxOverTrigger": RATE_SCHEMA,
            }
        ),
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
        input_schema=_object(
            {
                "base": {"type": "string", "minLength": 1, "description": "Base run JSON."},
                "head": {"type": "string", "minLength": 1, "description": "Head run JSON."},
                "maxAccuracyDrop": RATE_SCHEMA,
            },
            required=["base", "head"],
        ),
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=False,
    ),
)
