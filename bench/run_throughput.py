"""Run-engine throughput: 1,000 trials against a loopback Chat Completions server.

Part 1: the server answers after a fixed 50 ms; at concurrency 16 the ideal wall time is
ceil(1000 / 16) x 50 ms. Prints the measured wall time and its ratio to that ideal (target <= 1.15).
Part 2: the server answers at once; prints the harness CPU time per trial (event-loop thread only,
so nothing else in the process is counted).

The loopback server runs in its own process so its threads do not compete with the harness for
the interpreter lock; on a 2-core machine the figures still move with whatever else is running.

Run: .venv/bin/python bench/run_throughput.py
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.evaluation import make_inputs
from tests.support.fake_apis import FakeReply, chat_reply, fake_api_server
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.providers.factory import build_provider

TRIALS = 1000
CONCURRENCY = 16
DELAY_SECONDS = 0.050
ROUNDS = 3
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


def _serve(delay: float, urls: multiprocessing.Queue[str], stop: multiprocessing.Event) -> None:  # type: ignore[type-arg]
    """Child process: a Chat Completions server answering every request after ``delay``."""
    reply = chat_reply(calls=[("read_file", '{"path": "README.md"}')])
    answer = FakeReply(reply.status, reply.json_body, delay=delay)
    with fake_api_server() as api:
        api.responder = lambda _request: answer
        urls.put(api.base_url)
        stop.wait()


def _measure(delay: float) -> tuple[float, float, int]:
    urls: multiprocessing.Queue[str] = multiprocessing.Queue()
    stop = multiprocessing.Event()
    server = multiprocessing.Process(target=_serve, args=(delay, urls, stop), daemon=True)
    server.start()
    try:
        return asyncio.run(_run(urls.get(timeout=30)))
    finally:
        stop.set()
        server.join(timeout=10)
        if server.is_alive():
            server.kill()
            server.join()


def main() -> None:
    ideal = math.ceil(TRIALS / CONCURRENCY) * DELAY_SECONDS
    print(f"cores: {os.cpu_count()}; load average {os.getloadavg()[0]:.2f}")
    ratios = []
    for attempt in range(1, ROUNDS + 1):
        wall, _cpu, scored = _measure(DELAY_SECONDS)
        ratios.append(wall / ideal)
        print(
            f"round {attempt}: 50 ms server, concurrency {CONCURRENCY}: {TRIALS} trials "
            f"({scored} scored) in {wall:.3f} s; ideal {ideal:.3f} s; ratio {wall / ideal:.3f}"
        )
    print(
        f"best ratio {min(ratios):.3f}, median {sorted(ratios)[len(ratios) // 2]:.3f} "
        "(target <= 1.15)"
    )
    wall, cpu, scored = _measure(0.0)
    print(
        f"zero-latency server: {TRIALS} trials ({scored} scored) in {wall:.3f} s; harness CPU "
        f"{cpu * 1000 / TRIALS:.3f} ms per trial (event-loop thread)"
    )


if __name__ == "__main__":
    main()
