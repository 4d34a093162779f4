"""Drive `whichtool-tui mcp` with the SDK's real client over stdio, and prove it exits after."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.support.cli import binary_path
from tests.support.paths import SNAPSHOTS
from tests.support.processes import live_children, wait_gone


def child_pids() -> set[int]:
    """Pids whose parent is this test process (the spawned servers)."""
    return set(live_children())


def demo_workspace(folder: Path, provider: dict[str, Any] | None = None) -> Path:
    """A working directory with the demo surface, its task set and a JSON config; the config."""
    shutil.copy(SNAPSHOTS / "demo-lab.json", folder / "demo-lab.json")
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", folder / "demo-lab.tasks.yaml")
    config: dict[str, Any] = {
        "target": {"transport": "snapshot", "path": "demo-lab.json"},
        "tasks": "demo-lab.tasks.yaml",
        "provider": provider or {"name": "keyword"},
    }
    path = folder / "whichtool.mcp.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A clean environment for the server: no inherited keys or credentials."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and not k.startswith("WHICHTOOL_")
    }
    env["NO_COLOR"] = "1"
    env.update(extra or {})
    return env


@asynccontextmanager
async def mcp_session(
    workspace: Path,
    flags: Sequence[str] = (),
    config: Path | None = None,
    env: dict[str, str] | None = None,
) -> AsyncIterator[ClientSession]:
    """Spawn the server in ``workspace`` with ``flags``, initialise, and stop it on exit."""
    before = child_pids()
    args = ["mcp"]
    if config is not None:
        args += ["--config", str(config)]
    args += list(flags)
    params = StdioServerParameters(
        command=binary_path(), args=args, cwd=str(workspace), env=server_env(env)
    )
    with (workspace / "server-stderr.log").open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    for pid in child_pids() - before:
        assert wait_gone(pid), f"server process {pid} outlived the client"


def envelope_of(result: types.CallToolResult) -> dict[str, Any]:
    """The structured envelope, checked against the text block it summarises."""
    assert result.structured_content is not None
    body: dict[str, Any] = result.structured_content
    assert body["schemaVersion"] == "whichtool.mcp-result/1"
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    assert block.text == body["summary"]
    assert result.is_error == ("error" in body)
    return body


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call ``tool`` and return its envelope."""
    return envelope_of(await session.call_tool(tool, arguments))
