"""Time a full tools/list fetch (start, initialize, every page, clean shutdown) per transport.

Servers: the time reference server over stdio, the paged loopback test server over Streamable
HTTP (7 tools in 3 pages) and its legacy SSE sibling, plus a 1,000-tool snapshot load. Prints the
median of a few runs. Run from the repository root: .venv/bin/python -m bench.listing_latency
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.support import reference_servers
from tests.support.mcp_http_server import serve
from whichtool_tui.config import Settings
from whichtool_tui.targets import fetch_listing, load_listing, resolve_target

RUNS = 5


def median_seconds(action: Callable[[], int]) -> tuple[float, int]:
    """Run ``action`` RUNS times; the median wall time and the tool count it reported."""
    timings = []
    count = 0
    for _ in range(RUNS):
        start = time.perf_counter()
        count = action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), count


def main() -> None:
    """Print one line per transport: median seconds and tools listed."""
    rows: list[tuple[str, float, int]] = []
    command = reference_servers.time_command()
    if command is not None:
        spec = resolve_target(command, "stdio", Settings())
        rows.append(
            ("stdio mcp-server-time", *median_seconds(lambda: len(load_listing(spec).raw_tools)))
        )
    with serve() as server:
        for label, url, transport in (
            ("streamable http (3 pages)", server.url("/mcp"), "http"),
            ("legacy sse", server.url("/sse"), "legacy-sse"),
        ):
            http_spec = resolve_target(url, transport, Settings())
            rows.append(
                (
                    label,
                    *median_seconds(
                        lambda s=http_spec: len(asyncio.run(fetch_listing(s)).raw_tools)
                    ),
                )
            )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.json"
        tools = [
            {"name": f"tool_{i}", "description": "d" * 200, "inputSchema": {"type": "object"}}
            for i in range(1000)
        ]
        path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
        spec = resolve_target(str(path), None, Settings())
        rows.append(
            ("snapshot 1,000 tools", *median_seconds(lambda: len(load_listing(spec).raw_tools)))
        )
    for label, seconds, count in rows:
        print(f"{label:28s} {seconds * 1000:8.1f} ms  ({count} tools, median of {RUNS})")


if __name__ == "__main__":
    main()
