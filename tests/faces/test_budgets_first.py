"""Tool and trial budgets are refused before the full static review, in every face that runs it.

The review of a large surface is the costly part of preparing a run, so a run that will be
refused anyway must not pay for it. A spy on the review shows whether it ran: it does for an
accepted dry run (so the spy can see it), and does not for a refusal.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.config import load_settings
from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.evaluation import inputs as run_inputs
from whichtool_tui.server.arguments import ImproveArguments, RunArguments
from whichtool_tui.server.handlers import ServerState, run_tool
from whichtool_tui.server.improve_tool import improve_tool
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


IMPROVE_TASKS = """version: 1
tasks:
  - {id: a1, prompt: Get the record of user 3, expected: get_user_record_3}
  - {id: a2, prompt: Show user 3 and their roles, expected: get_user_record_3}
  - {id: b1, prompt: Get the record of user 7, expected: get_user_record_7}
  - {id: b2, prompt: Show user 7 and their roles, expected: get_user_record_7}
"""


@pytest.fixture
def improve_reviews(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """Each review improve makes (it calls the surface module's review itself)."""
    from whichtool_tui.surface import inspect as surface_inspect

    monkeypatch.chdir(tmp_path)
    seen: list[int] = []
    real = surface_inspect.inspect_normalized

    def spy(surface: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(surface.tools))
        return real(surface, *args, **kwargs)

    monkeypatch.setattr(surface_inspect, "inspect_normalized", spy)
    return seen


def _paid_state(folder: Path, max_tools: int, max_trials: int) -> ServerState:
    state = _state(folder, max_tools, max_trials)
    (folder / "improve.tasks.yaml").write_text(IMPROVE_TASKS, encoding="utf-8")
    options = dataclasses.replace(
        state.options, allow_paid_runs=True, allow_provider_overrides=True
    )
    return ServerState(options)


async def test_mcp_server_refuses_a_paid_improves_whole_count_before_the_review(
    tmp_path: Path, improve_reviews: list[int]
) -> None:
    paid = ImproveArguments.model_validate(
        {"provider": "openai", "tasks": "improve.tasks.yaml", "repeat": 1}
    )
    with pytest.raises(WhichtoolError) as tools:
        await improve_tool(_paid_state(tmp_path, max_tools=6, max_trials=1000), paid)
    assert tools.value.code == TOOL_LIMIT
    with pytest.raises(WhichtoolError) as trials:
        await improve_tool(_paid_state(tmp_path, max_tools=500, max_trials=100), paid)
    # 2 tuning + 2 held-out base + one model rewrite per tool (300) x 2 held-out trials.
    assert trials.value.code == TRIAL_LIMIT
    assert "improve can send 604 trials (tuning 2 + held-out base 2 + 300 candidate(s) x 2)" in (
        trials.value.message
    )
    narrowed = paid.model_copy(update={"tools": ["get_user_record_3", "get_user_record_7"]})
    with pytest.raises(WhichtoolError) as few:
        await improve_tool(_paid_state(tmp_path, max_tools=500, max_trials=7), narrowed)
    assert "improve can send 8 trials" in few.value.message
    assert improve_reviews == []  # none of them paid for the review
