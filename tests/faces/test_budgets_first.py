"""Tool and trial budgets are refused before the full static review, in every face that runs it.

The review of a large surface is the costly part of preparing a run, so a run that will be
refused anyway must not pay for it. A spy on the review shows whether it ran: it does for an
accepted dry run (so the spy can see it), and does not for a refusal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.config import load_settings
from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT
from whichtool_tui.evaluation import inputs as run_inputs
from whichtool_tui.server.arguments import RunArguments
from whichtool_tui.server.handlers import ServerState, run_tool
from whichtool_tui.server.options import ServerOptions

TASKS = """version: 1
tasks:
  - id: first
    prompt: Get the record of user 3
    expected: get_user_record_3
  - id: second
    prompt: Get the record of user 7
    expected: get_user_record_7
"""


def _workspace(folder: Path, tool_count: int) -> Path:
    tools = [
        {
            "name": f"get_user_record_{index}",
            "description": f"Get a user record number {index} in the workspace, with its roles.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
        }
        for index in range(tool_count)
    ]
    (folder / "surface.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    (folder / "run.tasks.yaml").write_text(TASKS, encoding="utf-8")
    config = {
        "target": {"transport": "snapshot", "path": "surface.json"},
        "tasks": "run.tasks.yaml",
        "provider": {"name": "keyword"},
    }
    path = folder / "whichtool.mcp.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@pytest.fixture
def reviews(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """Each full review's tool count, as it happens (the server runs in its workspace)."""
    monkeypatch.chdir(tmp_path)
    seen: list[int] = []
    real = getattr(run_inputs, "inspect_normalized")  # noqa: B009 (the name the module calls)

    def spy(surface: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(surface.tools))
        return real(surface, *args, **kwargs)

    monkeypatch.setattr(run_inputs, "inspect_normalized", spy)
    return seen


def _state(folder: Path, max_tools: int, max_trials: int = 50) -> ServerState:
    settings = load_settings(str(_workspace(folder, 300)), cwd=folder)
    options = ServerOptions(
        settings=settings, workspace=folder, max_tools=max_tools, max_trials=max_trials
    )
    return ServerState(options)


async def test_mcp_server_refuses_the_tool_budget_before_the_review(
    tmp_path: Path, reviews: list[int]
) -> None:
    state = _state(tmp_path, max_tools=6)
    refused = await run_tool(state, RunArguments(repeat=1))
    assert refused["error"]["code"] == TOOL_LIMIT
    assert refused["error"]["detail"]["plan"]["withinToolLimit"] is False
    assert reviews == []
    dry = await run_tool(state, RunArguments.model_validate({"repeat": 1, "dryRun": True}))
    assert dry["ok"] is True and dry["data"]["plan"]["tools"] == 300
    assert reviews == [300]  # a dry run is never refused, and it does get the review


async def test_mcp_server_refuses_the_trial_budget_before_the_review(
    tmp_path: Path, reviews: list[int]
) -> None:
    state = _state(tmp_path, max_tools=500, max_trials=3)
    refused = await run_tool(state, RunArguments(repeat=2))
    assert refused["error"]["code"] == TRIAL_LIMIT
    assert refused["error"]["detail"]["plan"]["trials"] == 4
    assert reviews == []
    accepted = await run_tool(state, RunArguments(repeat=1))
    assert accepted["ok"] is True
    assert reviews == [300]
