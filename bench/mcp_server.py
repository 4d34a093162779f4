"""Time `whichtool-tui mcp` from a real client over stdio: start-up, and each tool on a surface.

Run: .venv/bin/python bench/mcp_server.py [TOOLS]   (default 1000 tools for the large surface)
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parent.parent
BINARY = str(Path(sys.executable).parent / "whichtool-tui")


def _large_surface(count: int) -> dict[str, Any]:
    return {
        "tools": [
            {
                "name": f"tool_{index:04d}",
                "description": f"Read record {index} of collection {index % 37} with filter "
                f"{index % 11} and return its fields.",
                "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            }
            for index in range(count)
        ]
    }


async def _timed(label: str, session: ClientSession, tool: str, **arguments: Any) -> None:
    started = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = time.perf_counter() - started
    body = result.structured_content or {}
    size = len(json.dumps(body))
    print(f"{label:<44} {elapsed * 1000:8.1f} ms  envelope {size:>7,} chars")


async def main(tool_count: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    try:
        shutil.copy(REPO / "snapshots" / "demo-lab.json", folder / "demo-lab.json")
        shutil.copy(REPO / "snapshots" / "demo-lab.tasks.yaml", folder / "demo-lab.tasks.yaml")
        (folder / "large.json").write_text(json.dumps(_large_surface(tool_count)), "utf-8")
        config = folder / "c.json"
        config.write_text(
            json.dumps(
                {
                    "target": {"transport": "snapshot", "path": "demo-lab.json"},
                    "tasks": "demo-lab.tasks.yaml",
                    "provider": {"name": "keyword"},
                }
            ),
            "utf-8",
        )
        params = StdioServerParameters(
            command=BINARY,
            args=["mcp", "--config", str(config), "--allow-dynamic-targets", "--max-tools", "1000"],
            cwd=str(folder),
        )
        started = time.perf_counter()
        with (folder / "stderr.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                print(
                    f"{'spawn + initialize':<44} {(time.perf_counter() - started) * 1000:8.1f} ms"
                )
                await _timed("inspect_surface (demo-lab, 6 tools)", session, "inspect_surface")
                await _timed("validate_task_file (demo-lab)", session, "validate_task_file")
                await _timed("run_evaluation dryRun", session, "run_evaluation", dryRun=True)
                await _timed(
                    "run_evaluation keyword, 50 trials", session, "run_evaluation", repeat=5
                )
                await _timed(
                    f"inspect_surface ({tool_count} tools)",
                    session,
                    "inspect_surface",
                    target="large.json",
                )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
