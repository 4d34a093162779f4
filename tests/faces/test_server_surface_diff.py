"""`diff_surfaces` through the real MCP protocol: two snapshots of the demo give the changes,
the affected tasks and (asked) the keyword re-run that `surface-diff` gives, within the agent
caps, with the re-run's arguments refused without it."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.mcp_session import call, demo_workspace, mcp_session
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes

TASKS = "demo-lab.tasks.yaml"
NEW = "Full-text search over orders: match a query against item names and notes."


def _workspace(folder: Path) -> Path:
    """The demo workspace plus a head snapshot: one description edited, one tool renamed."""
    config = demo_workspace(folder)
    document = json.loads((folder / "demo-lab.json").read_text("utf-8"))
    for tool in document["tools"]:
        if tool["name"] == "search_orders":
            tool["description"] = NEW
        if tool["name"] == "get_order":
            tool["name"] = "fetch_order"
    (folder / "head.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return config


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _cli_diff(folder: Path, *extra: str) -> dict[str, Any]:
    out = folder / "cli-diff.json"
    base, head, tasks = (str(folder / name) for name in ("demo-lab.json", "head.json", TASKS))
    argv = ["--no-ui", "surface-diff", base, head, "--tasks", tasks, "--format", "json"]
    assert main([*argv, "--out", str(out), *extra]) == 0
    loaded: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return loaded


async def test_changes_affected_tasks_and_the_rerun_match_the_cli(tmp_path: Path) -> None:
    folder = _real(tmp_path)  # the server resolves the paths it is given
    config = _workspace(folder)
    async with mcp_session(folder, config=config) as session:
        static = await call(session, "diff_surfaces", base="demo-lab.json", head="head.json")
        affected = await call(
            session, "diff_surfaces", base="demo-lab.json", head="head.json", tasks=TASKS
        )
        rerun = await call(
            session,
            "diff_surfaces",
            base="demo-lab.json",
            head="head.json",
            tasks=TASKS,
            rerun=True,
            repeat=2,
            failOnRegression=True,
        )
    assert static["ok"] is True, static
    data = static["data"]
    assert data["schemaVersion"] == "whichtool.mcp-surface-diff-summary/1"
    kinds = {(c["kind"], c["baseName"], c["headName"]) for c in data["changes"]}
    assert kinds == {
        ("changed", "search_orders", "search_orders"),
        ("renamed", "get_order", "fetch_order"),
    }
    assert data["affectedTasks"] == [] and data["taskSet"] is None and data["rerun"] is None

    cli = await asyncio.to_thread(_cli_diff, folder)
    listed = affected["data"]
    assert listed["affectedTasks"] == cli["affectedTasks"] and listed["affectedTasks"]
    assert listed["unaffectedTasks"] == cli["unaffectedTasks"]
    assert listed["partners"] == cli["partners"] and listed["rerun"] is None

    cli_rerun = await asyncio.to_thread(
        _cli_diff, folder, "--provider", "keyword", "--repeat", "2", "--fail-on-regression"
    )
    ran = rerun["data"]["rerun"]
    assert ran["provider"] == "keyword" and ran["repeat"] == 2
    assert ran["paired"] == cli_rerun["rerun"]["paired"]
    assert ran["tasks"] == cli_rerun["rerun"]["tasks"] and ran["tasks"]
    assert ran["tasksOmitted"] == 0
    assert rerun["data"]["gate"] == cli_rerun["gate"]
    assert rerun["data"]["gate"]["checked"] == ["fail-on-regression"]
    assert rerun["ok"] is (not cli_rerun["gate"]["failed"])
    assert "Re-run (keyword)" in rerun["summary"]
    log = (folder / "server-stderr.log").read_text("utf-8")
    assert log.count("whichtool-tui mcp: diff_surfaces: ") == 1  # only the re-run sends prompts


async def test_rerun_arguments_need_the_rerun_and_the_caps_are_named(tmp_path: Path) -> None:
    config = _workspace(tmp_path)
    pair = {"base": "demo-lab.json", "head": "head.json"}
    async with mcp_session(tmp_path, config=config) as session:
        stray = await call(session, "diff_surfaces", **pair, tasks=TASKS, repeat=2)
        untasked = await call(session, "diff_surfaces", **pair, rerun=True)
        over = await call(session, "diff_surfaces", **pair, tasks=TASKS, rerun=True, repeat=21)
        override = await call(
            session, "diff_surfaces", **pair, tasks=TASKS, rerun=True, provider="openai"
        )
        outside = await call(session, "diff_surfaces", base="../demo-lab.json", head="head.json")
    assert stray["error"]["code"] == untasked["error"]["code"] == "mcp/invalid-arguments"
    assert "`repeat` applies to the re-run" in stray["error"]["message"]
    assert "it needs `tasks`" in untasked["error"]["message"]
    assert over["error"]["code"] == "mcp/limit-exceeded"
    assert override["error"]["code"] == "mcp/provider-override-disabled"
    assert outside["error"]["code"].startswith("mcp/")


async def test_a_paid_rerun_holds_the_paid_slot_and_cancel_stops_it(tmp_path: Path) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(calls=[("get_order", "{}")]).slow(1.0)
        provider = {
            "name": "openai-compatible",
            "model": "fake-model",
            "baseUrl": api.base_url + "/v1",
        }
        config = _workspace(tmp_path)
        settings = json.loads(config.read_text("utf-8"))
        config.write_text(json.dumps({**settings, "provider": provider}), encoding="utf-8")
        flags = ["--allow-paid-runs", "--allow-provider-overrides"]
        async with mcp_session(tmp_path, flags, config=config) as session:
            outcome: dict[str, object] = {}

            async def paid_rerun() -> None:
                outcome["diff"] = await call(
                    session,
                    "diff_surfaces",
                    base="demo-lab.json",
                    head="head.json",
                    tasks=TASKS,
                    rerun=True,
                    provider="openai-compatible",
                    repeat=3,
                    concurrency=1,
                )

            async with anyio.create_task_group() as group:
                group.start_soon(paid_rerun)
                with anyio.fail_after(20):
                    while not api.requests:  # noqa: ASYNC110 - filled by the API's thread
                        await anyio.sleep(0.02)
                busy = await call(session, "run_evaluation", repeat=1)
                group.cancel_scope.cancel()  # the client sends notifications/cancelled
            seen = len(api.requests)
            await anyio.sleep(2.5)  # a re-run still going would have sent two more requests
            after_cancel = len(api.requests)
            api.responder = lambda request: chat_reply(calls=[("get_order", "{}")])
            again = await call(session, "run_evaluation", repeat=1)
    assert "diff" not in outcome
    assert busy["error"]["code"] == "mcp/run-busy"  # one paid slot, shared with run_evaluation
    assert after_cancel <= seen + 1  # at most the request in flight when it was cancelled
    assert again["data"]["execution"]["scored"] == 10  # the slot was released
