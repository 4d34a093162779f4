"""Protocol behaviour of `whichtool-tui mcp`: both eras, the startup banner, and back-pressure."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

import anyio
import mcp
import pytest
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.support.cli import binary_path
from tests.support.mcp_http_server import serve
from tests.support.mcp_session import call, child_pids, demo_workspace, mcp_session, server_env
from tests.support.processes import wait_gone
from whichtool_tui.server.stdio_lines import OVERSIZED_LINE, CappedLines
from whichtool_tui.server.tools import SERVER_TOOLS

pytestmark = pytest.mark.slow  # starts processes or servers


def _exchange(
    folder: Path, config: Path, messages: list[dict[str, Any]], replies: int
) -> list[dict[str, Any]]:
    """Write raw JSON-RPC lines, read ``replies`` answers, then close stdin and reap the server."""
    process = subprocess.Popen(
        [binary_path(), "mcp", "--config", str(config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=folder,
        env=server_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()
    reader = threading.Thread(
        target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True
    )
    reader.start()
    try:
        process.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        process.stdin.flush()
        return [json.loads(lines.get(timeout=30)) for _ in range(replies)]
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=5)


async def test_modern_discovery_era(tmp_path: Path) -> None:
    """The SDK's high-level client negotiates 2026-07-28 through server/discover."""
    config = demo_workspace(tmp_path)
    before = child_pids()
    params = StdioServerParameters(
        command=binary_path(),
        args=["mcp", "--config", str(config)],
        cwd=str(tmp_path),
        env=server_env(),
    )
    async with mcp.Client(params) as client:
        tools = await client.list_tools()
        result = await client.call_tool("inspect_surface", {})
        version = client.protocol_version
    for pid in child_pids() - before:
        assert wait_gone(pid)
    assert version == "2026-07-28"
    assert len(tools.tools) == len(SERVER_TOOLS) == 6
    assert result.structured_content is not None
    assert result.structured_content["data"]["surface"]["toolCount"] == 6


async def test_banner_and_legacy_handshake(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    async with mcp_session(
        tmp_path, ["--allow-dynamic-targets", "--max-trials", "30", "--cache"], config=config
    ) as session:
        await session.send_ping()
        validated = await call(session, "validate_task_file")
    banner = (tmp_path / "server-stderr.log").read_text(encoding="utf-8")
    assert f"{len(SERVER_TOOLS)} tools on stdio" in banner
    assert "dynamic targets enabled" in banner
    assert "paid runs disabled" in banner
    assert "limits 30 trials, 6 tools" in banner
    assert "cache on" in banner
    assert validated["ok"] is True


async def test_a_fifth_call_in_flight_is_refused_as_busy(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    outcomes: list[Any] = []
    with serve() as server:
        slow = server.url("/slow/mcp")  # answers only after 1.5 s
        async with mcp_session(tmp_path, ["--allow-dynamic-targets"], config=config) as session:

            async def one() -> None:
                try:
                    outcomes.append(await call(session, "inspect_surface", target=slow))
                except MCPError as error:
                    outcomes.append(error)

            async with anyio.create_task_group() as group:
                for _ in range(5):
                    group.start_soon(one)
            after = await call(session, "validate_task_file")
    busy = [o for o in outcomes if isinstance(o, MCPError)]
    answered = [o for o in outcomes if isinstance(o, dict)]
    assert len(busy) == 1 and busy[0].code == -32000
    assert busy[0].message == "Server busy"
    assert len(answered) == 4 and all("error" in o for o in answered)
    assert after["ok"] is True  # the slots are free again


def test_an_inbound_line_over_the_cap_is_dropped(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "ping",
            "params": {"_meta": {"pad": "x" * 1_100_000}},
        },
        {"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"_meta": {"pad": "y" * 1000}}},
    ]
    answers = _exchange(tmp_path, config, messages, replies=2)
    assert [answer["id"] for answer in answers] == [1, 3]


async def test_capped_lines_reader() -> None:
    raw = io.BytesIO(b'{"a":1}\n' + b"z" * 50 + b"\n" + "é".encode() * 8 + b"\nlast")
    lines = [line async for line in CappedLines(raw, max_chars=10)]
    assert lines == ['{"a":1}\n', OVERSIZED_LINE, "é" * 8 + "\n", "last"]


def test_raw_server_discover_result(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    }
    request = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
    result = _exchange(tmp_path, config, [request], replies=1)[0]["result"]
    assert result["resultType"] == "complete"
    assert result["ttlMs"] == 3_600_000 and result["cacheScope"] == "private"
    assert result["capabilities"]["tools"]["listChanged"] is False
    assert "2026-07-28" in result["supportedVersions"]
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "whichtool-tui"
    assert result["instructions"]
