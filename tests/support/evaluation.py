"""Shared builders for the evaluation tests: a small surface and its context-cost block."""

from __future__ import annotations

from typing import Any

from whichtool_tui.evaluation.engine import RunInputs
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import ContextCost, TargetRef, Tokenizer, ToolTokens
from whichtool_tui.providers.base import ToolSpec

SCHEMAS: dict[str, dict[str, Any]] = {
    "read_file": {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    },
    "search_code": {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["query"],
    },
    "list_dir": {"type": "object", "properties": {}},
}
DESCRIPTIONS = {
    "read_file": "Read a file from disk and return its text.",
    "search_code": "Search the code base for a query string.",
    "list_dir": "List the entries of a directory.",
}


def context_cost(names: list[str], per_tool: int = 10) -> ContextCost:
    """A context-cost block where every tool costs ``per_tool`` tokens."""
    return ContextCost(
        tokenizer=Tokenizer(id="test", exact=False, approximates="none", note="fixed for tests"),
        serialization="test",
        total=per_tool * len(names),
        by_tool={
            name: ToolTokens(total=per_tool, name=2, description=4, schema=3, envelope=1)
            for name in names
        },
    )


def make_inputs(tasks: list[TaskSpec], names: list[str] | None = None) -> RunInputs:
    """Run inputs over the three test tools (or a subset) in served order."""
    chosen = names or list(SCHEMAS)
    return RunInputs(
        target=TargetRef(transport="snapshot", ref="./surface.json"),
        surface_hash="sha256:" + "0" * 64,
        tools=tuple(ToolSpec(n, DESCRIPTIONS.get(n, n), SCHEMAS.get(n, {})) for n in chosen),
        schemas={n: SCHEMAS.get(n, {}) for n in chosen},
        context_cost=context_cost(chosen),
        tasks=tuple(tasks),
        task_set_source="./whichtool.tasks.yaml",
    )
