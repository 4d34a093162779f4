"""`report` and `diff` on runs of 100,000 trials: prints wall-clock seconds (target <= 3 s each).

Builds two consistent 100,000-trial runs of one plan (100 tasks x 1000 repeats over 6 tools; the
head confuses one more pair), saves them, then times the real command line in a subprocess and
the in-process phases (strict read, render, diff) separately.

    .venv/bin/python bench/report_scale.py
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.run_report_factory import Answer, Task, build_run  # noqa: E402
from whichtool_tui.evaluation.diff import DiffInput, diff_runs  # noqa: E402
from whichtool_tui.evaluation.reader import load_run_report  # noqa: E402
from whichtool_tui.reports.run_formats import render_run  # noqa: E402

TASKS = 100
REPEAT = 1000
TOOLS = {f"tool_{i}": 100 + i for i in range(6)}


def make_run(extra_confusion: bool) -> dict[str, object]:
    tasks = [
        Task(f"task-{i}", f"Prompt number {i}", f"tool_{i % 6}" if i % 7 else None)
        for i in range(TASKS)
    ]
    answers: dict[tuple[str, int], Answer] = {}
    for i, task in enumerate(tasks):
        for j in range(REPEAT):
            if task.expected is None:
                answers[(task.id, j)] = ["tool_0"] if j % 10 == 0 else []
            elif (i * 31 + j) % 9 == 0:
                answers[(task.id, j)] = [f"tool_{(i + 1) % 6}"]
            elif extra_confusion and i % 6 == 2 and j % 4 == 0:
                answers[(task.id, j)] = ["tool_5"]
            else:
                answers[(task.id, j)] = [task.expected]
    return build_run(TOOLS, tasks, answers, REPEAT, seed=1)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(label: str, action: object) -> object:
    """Wall clock and CPU time (the CPU figure is what matters on a shared, busy machine)."""
    started, cpu = time.perf_counter(), _cpu()
    result = action() if callable(action) else None
    wall, used = time.perf_counter() - started, _cpu() - cpu
    print(f"{label:<40}{wall:7.2f} s wall {used:7.2f} s cpu")
    return result


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wt-bench-"))
    base_path, head_path = folder / "base.json", folder / "head.json"
    base_path.write_text(json.dumps(make_run(False)), encoding="utf-8")
    head_path.write_text(json.dumps(make_run(True)), encoding="utf-8")
    size = base_path.stat().st_size / 1e6
    print(f"runs: {TASKS} tasks x {REPEAT} repeats = {TASKS * REPEAT} trials, {size:.0f} MB each")
    binary = str(Path(sys.executable).parent / "whichtool-tui")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for report_format in ("terminal", "json", "html"):
        out = folder / f"report.{report_format}"
        command = [
            binary,
            "--no-ui",
            "report",
            str(base_path),
            "--format",
            report_format,
            "--out",
            str(out),
        ]
        timed(
            f"CLI report --format {report_format}",
            lambda c=command: subprocess.run(c, capture_output=True, check=False),
        )
    timed(
        "CLI diff base head",
        lambda: subprocess.run(
            [binary, "--no-ui", "diff", str(base_path), str(head_path)],
            capture_output=True,
            check=False,
        ),
    )
    base = timed("in-process strict read (base)", lambda: load_run_report(base_path))
    head = load_run_report(head_path)
    for report_format in ("terminal", "markdown", "html", "junit", "json"):
        timed(f"in-process render {report_format}", lambda f=report_format: render_run(base, f))
    timed(
        "in-process diff (after both reads)",
        lambda: diff_runs(DiffInput(base, "base.json"), DiffInput(head, "head.json")),
    )  # type: ignore[arg-type]
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()


if __name__ == "__main__":
    main()
