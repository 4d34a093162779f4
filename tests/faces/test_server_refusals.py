"""What the MCP server refuses an agent: paid runs, dynamic targets, overrides, paths, sizes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError

from tests.support.mcp_http_server import TOKEN, TOOL_COUNT, serve
from tests.support.mcp_session import call, demo_workspace, mcp_session
from tests.support.paths import SNAPSHOTS

pytestmark = pytest.mark.slow  # starts processes or servers

PAID = {"name": "openai-compatible", "model": "m", "baseUrl": "http://127.0.0.1:9/v1"}


async def test_refusals_without_operator_flags(tmp_path: Path) -> None:
    workspace = tmp_path / "work"
    workspace.mkdir()
    config = demo_workspace(workspace, PAID)
    (tmp_path / "outside.tasks.yaml").write_text("version: 1\ntasks: []\n", encoding="utf-8")
    (workspace / "escape.tasks.yaml").symlink_to(tmp_path / "outside.tasks.yaml")
    with (workspace / "big.tasks.yaml").open("wb") as big:
        big.truncate(17 * 1024 * 1024)
    async with mcp_session(workspace, config=config) as session:
        paid = await call(session, "run_evaluation", repeat=1)
        dry = await call(session, "run_evaluation", repeat=1, dryRun=True)
        too_many = await call(session, "run_evaluation", repeat=6)
        dynamic = await call(session, "inspect_surface", target="demo-lab.json")
        dynamic_transport = await call(session, "validate_task_file", transport="snapshot")
        override = await call(session, "run_evaluation", provider="keyword")
        model = await call(session, "run_evaluation", model="other", dryRun=True)
        repeat = await call(session, "run_evaluation", repeat=25, dryRun=True)
        concurrency = await call(session, "run_evaluation", concurrency=17, dryRun=True)
        parent = await call(session, "validate_task_file", tasks="../outside.tasks.yaml")
        absolute = await call(
            session, "validate_task_file", tasks=str(tmp_path / "outside.tasks.yaml")
        )
        link = await call(session, "validate_task_file", tasks="escape.tasks.yaml")
        big = await call(session, "validate_task_file", tasks="big.tasks.yaml")
        big_run = await call(session, "diff_saved_results", base="big.tasks.yaml", head="x.json")
        extra = await call(session, "inspect_surface", verbose=True)
        wrong_type = await call(session, "run_evaluation", repeat="five")
        missing = await call(session, "validate_task_file", tasks="nowhere.yaml")
        with pytest.raises(MCPError):
            await session.call_tool("execute_tool", {})
        still_alive = await call(session, "validate_task_file")

    assert paid["error"]["code"] == "mcp/paid-run-disabled"
    assert paid["ok"] is False
    assert "--allow-paid-runs" in paid["error"]["hint"]
    assert paid["error"]["detail"]["plan"]["trials"] == 10
    assert paid["error"]["detail"]["plan"]["provider"]["name"] == "openai-compatible"
    assert dry["ok"] is True and dry["data"]["plan"]["trials"] == 10
    assert too_many["error"]["code"] == "run/trial-limit"
    assert too_many["error"]["detail"]["plan"]["withinTrialLimit"] is False
    assert dynamic["error"]["code"] == "mcp/dynamic-target-disabled"
    assert dynamic_transport["error"]["code"] == "mcp/dynamic-target-disabled"
    assert override["error"]["code"] == "mcp/provider-override-disabled"
    assert model["error"]["code"] == "mcp/provider-override-disabled"
    assert repeat["error"]["code"] == "mcp/limit-exceeded"
    assert concurrency["error"]["code"] == "mcp/limit-exceeded"
    for outside in (parent, absolute, link):
        assert outside["error"]["code"] == "mcp/path-outside-workspace"
    for named_relative in (parent, link):  # where a link points is not revealed
        assert str(tmp_path) not in json.dumps(named_relative)
    assert big["error"]["code"] == "mcp/file-too-large"
    assert big_run["error"]["code"] == "mcp/file-too-large"
    assert extra["error"]["code"] == "mcp/invalid-arguments"
    assert "verbose" in extra["error"]["message"]
    assert wrong_type["error"]["code"] == "mcp/invalid-arguments"
    assert missing["error"]["code"] == "mcp/file-not-found"
    assert still_alive["ok"] is True


async def test_dynamic_targets_stay_in_the_workspace(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    outside = SNAPSHOTS / "clean.json"
    async with mcp_session(tmp_path, ["--allow-dynamic-targets"], config=config) as session:
        inside = await call(session, "inspect_surface", target="demo-lab.json")
        forced = await call(
            session, "inspect_surface", target="demo-lab.json", transport="snapshot"
        )
        escaped = await call(session, "inspect_surface", target=str(outside))
        validated = await call(
            session, "validate_task_file", target="demo-lab.json", tasks="demo-lab.tasks.yaml"
        )
    assert inside["ok"] is True and inside["data"]["surface"]["toolCount"] == 6
    assert forced["data"]["target"] == {"transport": "snapshot", "ref": "demo-lab.json"}
    assert escaped["error"]["code"] == "mcp/path-outside-workspace"
    assert validated["data"]["surfaceChecked"] is True


async def test_dynamic_targets_never_get_the_env_credential(tmp_path: Path) -> None:
    with serve() as server:
        url = server.url("/auth/mcp")
        config = tmp_path / "c.json"
        config.write_text(json.dumps({"target": {"transport": "http", "url": url}}), "utf-8")
        env = {
            "WHICHTOOL_HTTP_AUTHORIZATION": TOKEN,
            "WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN": f"http://127.0.0.1:{server.port}",
        }
        async with mcp_session(
            tmp_path, ["--allow-dynamic-targets"], config=config, env=env
        ) as session:
            configured = await call(session, "inspect_surface")
            named = await call(session, "inspect_surface", target=url)
    assert configured["ok"] is True
    assert configured["data"]["surface"]["toolCount"] == TOOL_COUNT
    assert "error" in named
    assert "401" in named["error"]["message"] or "unauthorized" in named["error"]["message"]
    assert TOKEN.split()[-1] not in json.dumps([configured, named])
    assert os.environ.get("WHICHTOOL_HTTP_AUTHORIZATION") != TOKEN
