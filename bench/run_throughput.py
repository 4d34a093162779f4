"""Run-engine throughput: 1,000 trials against a loopback Chat Completions server.

Part 1: the server answers after a fixed 50 ms; at concurrency 16 the ideal wall time is
ceil(1000 / 16) x 50 ms. Prints the measured wall time and its ratio to that ideal (target <= 1.15).
Part 2: the server answers at once; prints the harness CPU time per trial (event-loop thread only,
so the in-process test server's threads are not counted).

Run: .venv/bin/python bench/run_throughput.py
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.evaluation_support import make_inputs
from tests.support.fake_apis import FakeReply, chat_reply, fake_api_server
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.providers.factory import build_provider

TRIALS = 1000
CONCURRENCY = 16
DELAY_SECONDS = 0.050
TOOLS = ["read_file", "search_code", "list_dir"]


def _tasks() -> list[TaskSpec]:
    tasks = []
    for index in range(TRIALS // 5):
        expected = TOOLS[index % 3] if index % 4 else None
        tasks.append(TaskSpec(f"task-{index}", f"Please handle request number {index}", expected))
    return tasks


async def _run(base_url: str) -> tuple[float, float, int]:
    provider = build_provider("openai-compatible", "bench", base_url + "/v1", env={})
    options = RunOptions(repeat=5, concurrency=CONCURRENCY, max_trials=TRIALS, max_tools=10)
    wall_start = time.perf_counter()
    cpu_start = time.thread_time()
    try:
        report = await run_evaluation(make_inputs(_tasks(), TOOLS), options, provider)
    finally:
        await provider.aclose()
    cpu = time.thread_time() - cpu_start
    wall = time.perf_counter() - wall_start
    return wall, cpu, report.execution.scored


def main() -> None:
    reply = chat_reply(calls=[("read_file", '{"path": "README.md"}')])
    with fake_api_server() as api:
        delayed = FakeReply(reply.status, reply.json_body, delay=DELAY_SECONDS)
        api.responder = lambda _request: delayed
        wall, _cpu, scored = asyncio.run(_run(api.base_url))
    ideal = math.ceil(TRIALS / CONCURRENCY) * DELAY_SECONDS
    print(f"cores: {os.cpu_count()}")
    print(
        f"50 ms server, concurrency {CONCURRENCY}: {TRIALS} trials ({scored} scored) in "
        f"{wall:.3f} s; ideal {ideal:.3f} s; ratio {wall / ideal:.3f} (target <= 1.15)"
    )
    with fake_api_server() as api:
        api.responder = lambda _request: reply
        wall, cpu, scored = asyncio.run(_run(api.base_url))
    print(
        f"zero-latency server: {TRIALS} trials ({scored} scored) in {wall:.3f} s; harness CPU "
        f"{cpu * 1000 / TRIALS:.3f} ms per trial (event-loop thread)"
    )


if __name__ == "__main__":
    main()
