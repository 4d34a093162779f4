"""Whole-process inspect of templated surfaces (one description template, a varying slot), as an
OpenAPI-generated server exposes them: 500, 1,000 and 1,500 tools, `--format json` and terminal.

Each figure is a fresh `whichtool-tui --no-ui inspect SNAPSHOT` process: start-up, review,
rendering and exit, with its peak RSS and the report's size. Asserts nothing.
Targets (issue 13): 1,000 tools <= 1.5 s and report <= 5 MB; 1,500 tools <= 2.5 s and
<= 400 MB RSS; terminal output at 1,000 tools <= 1.0 s. Also the MCP server's run_evaluation
refusing 1,000 tools over a tool cap of 6 (in process, from the call to the refusal): <= 0.5 s;
two 7 MB descriptions (a 14 MB snapshot), whole process, json: <= 5 s.
Run: .venv/bin/python bench/inspect_templated.py [--sizes 500,1000,1500] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from whole_process import measure

BIN = Path(sys.executable).parent / "whichtool-tui"
TARGETS: dict[tuple[int, str], str] = {
    (1000, "json"): "<= 1.5 s, report <= 5 MB",
    (1500, "json"): "<= 2.5 s, <= 400 MB RSS",
    (1000, "terminal"): "<= 1.0 s",
}


def templated_tools(count: int) -> list[dict[str, Any]]:
    """``count`` tools from one template: "Get a user record number i in the workspace..."."""
    return [
        {
            "name": f"get_user_record_{index}",
            "description": (
                f"Get a user record number {index} in the workspace, with its profile, "
                "roles and last sign-in time."
            ),
            "inputSchema": {
                "type": "object",
                "properties": {"user_id": {"type": "string", "description": "The user id."}},
                "required": ["user_id"],
            },
        }
        for index in range(count)
    ]


def oversized_tools(characters: int = 7_000_000) -> list[dict[str, Any]]:
    """Two tools whose descriptions are ``characters`` long each (words drawn from one small
    vocabulary, seeded): under the 16 MiB snapshot cap, far over the scored length."""
    import random

    rng = random.Random(13)
    vocabulary = ["get", "list", "user", "record", "workspace", "the", "of", "alpha", "beta"]

    def description() -> str:
        words: list[str] = []
        length = 0
        while length < characters:
            word = rng.choice(vocabulary)
            words.append(word)
            length += len(word) + 1
        return " ".join(words)

    return [
        {"name": name, "description": description(), "inputSchema": {"type": "object"}}
        for name in ("big_one", "big_two")
    ]


def run_once(snapshot: Path, fmt: str, out: Path) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS MB, report bytes) of one whole inspect process."""
    argv = [str(BIN), "--no-ui", "inspect", str(snapshot), "--format", fmt, "--out", str(out)]
    done = measure(argv)
    return done.wall, done.cpu, done.rss_mb, out.stat().st_size


def refusal_seconds(folder: Path, count: int = 1000) -> float:
    """run_evaluation on ``count`` templated tools with max_tools 6: seconds to the refusal."""
    import time

    import anyio

    from whichtool_tui.config import parse_config
    from whichtool_tui.errors import TOOL_LIMIT
    from whichtool_tui.server.arguments import RunArguments
    from whichtool_tui.server.handlers import ServerState, run_tool
    from whichtool_tui.server.options import ServerOptions

    snapshot = folder / "refusal.json"
    snapshot.write_text(json.dumps({"tools": templated_tools(count)}), encoding="utf-8")
    tasks = folder / "refusal.tasks.yaml"
    tasks.write_text(
        "version: 1\ntasks:\n  - id: one\n    prompt: Get user 3\n"
        "    expected: get_user_record_3\n",
        encoding="utf-8",
    )
    settings = parse_config(
        {
            "target": {"transport": "snapshot", "path": str(snapshot)},
            "tasks": str(tasks),
            "provider": {"name": "keyword"},
        },
        "bench",
    )
    state = ServerState(ServerOptions(settings=settings, workspace=folder, max_tools=6))
    anyio.run(run_tool, state, RunArguments(repeat=1))  # warm-up: a running server has imported
    started = time.perf_counter()
    answer = anyio.run(run_tool, state, RunArguments(repeat=1))
    elapsed = time.perf_counter() - started
    if answer["error"]["code"] != TOOL_LIMIT:
        raise SystemExit(f"expected a tool-limit refusal, got {answer['error']}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="500,1000,1500")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(part) for part in args.sizes.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        seconds = refusal_seconds(work)
        print(f"run_evaluation, 1,000 tools, max_tools 6: refused in {seconds:.2f} s", end="")
        print("   target <= 0.5 s")
        for size in sorted(sizes):
            snapshot = work / f"templated-{size}.json"
            snapshot.write_text(json.dumps({"tools": templated_tools(size)}), encoding="utf-8")
            for fmt in ("json", "terminal"):
                walls, cpus, peaks, size_bytes = [], [], [], 0
                for _ in range(args.runs):
                    wall, cpu, rss, size_bytes = run_once(snapshot, fmt, work / f"out-{size}.{fmt}")
                    walls.append(wall)
                    cpus.append(cpu)
                    peaks.append(rss)
                target = TARGETS.get((size, fmt), "(no target)")
                shown = ", ".join(f"{wall:.2f}" for wall in walls)
                print(
                    f"{size:>5} tools  {fmt:<8}  min {min(walls):.2f} s  median "
                    f"{statistics.median(walls):.2f} s  (runs {shown};"
                    f" load {os.getloadavg()[0]:.1f})  CPU {statistics.median(cpus):.2f} s"
                    f"  peak RSS {max(peaks):.0f} MB"
                    f"  report {size_bytes / 1e6:.2f} MB   target {target}"
                )
        # Last: the bench's own memory (these 14 MB of text) would count in the children's
        # peak RSS before their exec.
        oversized = work / "oversized.json"
        oversized.write_text(json.dumps({"tools": oversized_tools()}), encoding="utf-8")
        done = [run_once(oversized, "json", work / "out-oversized.json") for _ in range(args.runs)]
        walls = [item[0] for item in done]
        print(
            f"two 7 MB descriptions, json: min {min(walls):.2f} s  median "
            f"{statistics.median(walls):.2f} s  peak RSS {max(item[2] for item in done):.0f} MB"
            "   target <= 5 s"
        )


if __name__ == "__main__":
    main()
