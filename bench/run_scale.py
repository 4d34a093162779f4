"""The run engine at scale: 1,000 tasks x 100 repeats (100,000 trials) with no model latency.

Times a dry run (plan and price only) and a full `keyword` baseline run in-process, and splits
the keyword run into its phases (planning, trials through the runner, scoring and report
building, JSON writing) so harness overhead shows up next to the provider's own work. The
trial budget is raised in-process: the command line caps real runs at 1,000 trials.

    .venv/bin/python bench/run_scale.py
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.evaluation import make_inputs
from whichtool_tui.evaluation.engine import (
    RunOptions,
    prepare_run,
    run_evaluation,
)
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import dump_report_json
from whichtool_tui.event_loop import run_coroutine
from whichtool_tui.providers.factory import build_provider

TASKS = 1000
REPEAT = 100
TOOLS = ["read_file", "search_code", "list_dir"]
WORDS = {"read_file": "read the file", "search_code": "search the code", "list_dir": "list dir"}
T = TypeVar("T")


def _tasks() -> list[TaskSpec]:
    tasks = []
    for index in range(TASKS):
        expected = TOOLS[index % 3] if index % 4 else None
        words = WORDS[expected] if expected else "tell me a joke"
        tasks.append(TaskSpec(f"task-{index}", f"Please {words} number {index}", expected))
    return tasks


def timed(label: str, action: Callable[[], T]) -> T:
    """Print wall and CPU seconds of one phase (CPU is what counts on a busy machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    print(
        f"{label:<44}{time.perf_counter() - wall:7.2f} s wall "
        f"{time.process_time() - cpu:7.2f} s cpu"
    )
    return result


async def _keyword_run(options: RunOptions) -> object:
    inputs = make_inputs(_tasks(), TOOLS)
    provider = build_provider("keyword", None, None, env={})
    try:
        return await run_evaluation(inputs, options, provider)
    finally:
        await provider.aclose()


def main() -> None:
    print(f"{TASKS} tasks x {REPEAT} repeats = {TASKS * REPEAT} trials over {len(TOOLS)} tools")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    inputs = make_inputs(_tasks(), TOOLS)
    options = RunOptions(repeat=REPEAT, max_trials=TASKS * REPEAT, max_tools=10, concurrency=16)
    timed("dry run (plan and price)", lambda: prepare_run(inputs, options))
    report = timed(
        "keyword run (plan, trials, report)", lambda: run_coroutine(_keyword_run(options))
    )
    timed("JSON report writing", lambda: dump_report_json(report))  # type: ignore[arg-type]
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.runcall(lambda: run_coroutine(_keyword_run(options)))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
