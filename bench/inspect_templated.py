"""Whole-process inspect of templated surfaces (one description template, a varying slot), as an
OpenAPI-generated server exposes them: 500, 1,000 and 1,500 tools, `--format json` and terminal.

Each figure is a fresh `whichtool-tui --no-ui inspect SNAPSHOT` process: start-up, review,
rendering and exit, with its peak RSS and the report's size. Asserts nothing.
Targets (issue 13): 1,000 tools <= 1.5 s and report <= 5 MB; 1,500 tools <= 2.5 s and
<= 400 MB RSS; terminal output at 1,000 tools <= 1.0 s.
Run: .venv/bin/python bench/inspect_templated.py [--sizes 500,1000,1500] [--runs 3]
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


def run_once(snapshot: Path, fmt: str, out: Path) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS MB, report bytes) of one whole inspect process."""
    argv = [str(BIN), "--no-ui", "inspect", str(snapshot), "--format", fmt, "--out", str(out)]
    done = measure(argv)
    return done.wall, done.cpu, done.rss_mb, out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="500,1000,1500")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(part) for part in args.sizes.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
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
                print(
                    f"{size:>5} tools  {fmt:<8}  median {statistics.median(walls):.2f} s  "
                    f"(runs {', '.join(f'{w:.2f}' for w in walls)})"
                    f"  CPU {statistics.median(cpus):.2f} s"
                    f"  peak RSS {max(peaks):.0f} MB"
                    f"  report {size_bytes / 1e6:.2f} MB   target {target}"
                )


if __name__ == "__main__":
    main()
