"""Which surface findings travel into a run: listing and normalising only, or the full review."""

from __future__ import annotations

from pathlib import Path

from whichtool_tui.evaluation.inputs import build_run_inputs, normalize_listing
from whichtool_tui.surface.inspect import inspect_normalized
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.report_model import InspectReport, TargetInfo
from whichtool_tui.tasks.load import load_task_set

SAME = "Find things in the store by a free-text query and return the matches."
TOOLS = [
    {"name": "find_users", "description": SAME, "inputSchema": {"type": "object"}},
    {"name": "find_orders", "description": SAME, "inputSchema": {"type": "object"}},
    "not a tool",
]
TASKS = """version: 1
tasks:
  - id: users
    prompt: Find the user called Ada
    expected: find_users
  - id: chat
    prompt: Tell me a joke
    expected: null
"""


def _inputs(tmp_path: Path, full_review: bool) -> tuple[set[str], InspectReport]:
    listing = ServedListing(transport="snapshot", ref="./surface.json", raw_tools=TOOLS)
    surface = normalize_listing(listing)
    task_file = tmp_path / "whichtool.tasks.yaml"
    task_file.write_text(TASKS, encoding="utf-8")
    inputs = build_run_inputs(
        listing, surface, load_task_set(task_file), 6, "openai", full_review=full_review
    )
    review = inspect_normalized(surface, TargetInfo(transport="snapshot", ref="./surface.json"))
    assert inputs.context_cost.total == review.tokens.total
    assert {name: cost.total for name, cost in inputs.context_cost.by_tool.items()} == {
        name: cost.total for name, cost in review.tokens.by_tool.items()
    }
    assert inputs.context_cost.tokenizer.approximates == "openai"
    return {d.code for d in inputs.surface_diagnostics}, review


def test_the_command_line_run_folds_only_normalisation_findings(tmp_path: Path) -> None:
    codes, review = _inputs(tmp_path, full_review=False)
    assert codes == {"surface/malformed-tool"}
    assert "descriptions/identical" in {d.code for d in review.diagnostics}


def test_the_server_run_folds_the_full_static_review(tmp_path: Path) -> None:
    codes, _ = _inputs(tmp_path, full_review=True)
    assert {"surface/malformed-tool", "descriptions/identical"} <= codes
