"""How long task-set tooling takes on a large set: write, load (YAML and JSON), lint, mutate.

Run: .venv/bin/python bench/tasks_io.py [task count, default 5000]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from whichtool_tui.tasks.lint import lint_task_set
from whichtool_tui.tasks.load import load_task_set
from whichtool_tui.tasks.model import Task, TaskSet
from whichtool_tui.tasks.mutate import mutate_tasks
from whichtool_tui.tasks.writer import write_task_set

PROMPTS = (
    "Show me the open invoices for account {n}",
    "Can you refund order {n}?",
    "What is the status of ticket {n}?",
    "Please delete my account number {n}.",
)
TOOLS = [f"tool_{n}" for n in range(50)]


def build(count: int) -> TaskSet:
    tasks = [
        Task(
            id=f"task.{n}",
            prompt=PROMPTS[n % len(PROMPTS)].format(n=n),
            expected=None if n % 7 == 0 else TOOLS[n % len(TOOLS)],
            tags=["bench", f"group{n % 5}"],
        )
        for n in range(count)
    ]
    return TaskSet(version=1, surface="sha256:" + "0" * 64, tasks=tasks)


def timed(label: str, action: object) -> object:
    start = time.perf_counter()
    result = action()  # type: ignore[operator]
    print(f"{label:<28} {(time.perf_counter() - start) * 1000:9.1f} ms")
    return result


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    task_set = build(count)
    print(f"task set: {count} tasks, {len(TOOLS)} tools")
    with tempfile.TemporaryDirectory() as folder:
        yaml_path = Path(folder) / "set.yaml"
        json_path = Path(folder) / "set.json"
        timed("write yaml", lambda: write_task_set(task_set, yaml_path))
        timed("write json", lambda: write_task_set(task_set, json_path))
        print(f"{'yaml size':<28} {yaml_path.stat().st_size / 1024:9.1f} KiB")
        timed("load yaml (strict)", lambda: load_task_set(yaml_path))
        timed("load json", lambda: load_task_set(json_path))
    timed("lint with surface", lambda: lint_task_set(task_set, TOOLS, "sha256:" + "1" * 64))
    result = timed("mutate (all five, seed 0)", lambda: mutate_tasks(task_set.tasks))
    print(f"{'tasks after mutate':<28} {len(result.tasks):9d}")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
