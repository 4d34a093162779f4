"""Provider-only throughput: how much the HTTP poster and the Chat Completions parser add.

Sends 1,000 routing requests through the ``openai-compatible`` provider to the loopback fake
API, 16 at a time: once with a server that answers after a fixed 50 ms (wall time against the
ideal ceil(1000/16) x 50 ms), once with a zero-latency server (client CPU time per request).
Run: ``.venv/bin/python bench/provider_throughput.py``.
"""

from __future__ import annotations

import asyncio
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.fake_apis import chat_reply, fake_api_server
from whichtool_tui.providers.base import Provider, RouteRequest, ToolSpec
from whichtool_tui.providers.factory import build_provider

REQUESTS = 1000
CONCURRENCY = 16
DELAY_SECONDS = 0.05
TOOLS = tuple(
    ToolSpec(f"tool_{i}", f"Does thing number {i} to a record.", {"type": "object"})
    for i in range(6)
)


async def drive(provider: Provider) -> tuple[float, float]:
    """Send every request with bounded concurrency; return (wall seconds, process CPU seconds)."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(index: int) -> None:
        async with gate:
            await provider.route(RouteRequest(f"prompt {index}", TOOLS, 0.0, index))

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(one(i) for i in range(REQUESTS)))
    return time.perf_counter() - wall, time.process_time() - cpu


async def main() -> None:
    """Print the two figures."""
    with fake_api_server() as api:
        reply = chat_reply(calls=[("tool_1", '{"id": 1}')])
        provider = build_provider("openai-compatible", "bench", api.base_url + "/v1", env={})
        api.responder = lambda _request: reply.slow(DELAY_SECONDS)
        wall, _cpu = await drive(provider)
        ideal = math.ceil(REQUESTS / CONCURRENCY) * DELAY_SECONDS
        print(
            f"{REQUESTS} requests, concurrency {CONCURRENCY}, server delay "
            f"{DELAY_SECONDS * 1000:.0f} ms: wall {wall:.2f} s, ideal {ideal:.2f} s, "
            f"ratio {wall / ideal:.3f}"
        )
        api.responder = lambda _request: reply
        wall, cpu = await drive(provider)
        await provider.aclose()
        print(
            f"{REQUESTS} requests, zero-latency server: wall {wall:.2f} s; process CPU "
            f"{cpu / REQUESTS * 1000:.2f} ms per request (client and in-process server together)"
        )


if __name__ == "__main__":
    asyncio.run(main())
