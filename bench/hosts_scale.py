"""Host compatibility at scale: every profile over 1,000 templated tools, each breaking several
rules (so about 10,000 findings), in process and through the command line.

Run: .venv/bin/python bench/hosts_scale.py [--tools N] [--runs N]
Prints the median of each step (evaluate, JSON dump, terminal and markdown rendering, the fix
patch) and the whole-process time of `inspect --host all --format json` against plain inspect;
asserts nothing. Target: `--host all` adds <= 1 s to a 1,000-tool inspect.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent / "whichtool-tui"


def surface(count: int) -> list[dict[str, Any]]:
    """Tools with a dot in the name, a type array, a root anyOf on every fifth, no hints."""
    tools = []
    for index in range(count):
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "The record id."},
                "limit": {"type": ["integer", "null"]},
            },
            "required": ["id"],
        }
        if index % 5 == 0:
            schema["anyOf"] = [{"required": ["id"]}, {"required": ["limit"]}]
        tools.append(
            {
                "name": f"records.get_{index}",
                "description": f"Get record {index} with its history and owners. " * 8,
                "inputSchema": schema,
            }
        )
    return tools


def median_of(runs: int, step: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def in_process(raw: list[dict[str, Any]], runs: int) -> None:
    from whichtool_tui.hosts.attach import with_hosts
    from whichtool_tui.hosts.fixes import host_fix_operations
    from whichtool_tui.reports.inspect_json import render_inspect
    from whichtool_tui.surface.inspect import inspect_surface
    from whichtool_tui.surface.listing import ServedListing

    listing = ServedListing(transport="snapshot", ref="bench.json", raw_tools=raw)
    base = inspect_surface(listing)
    report = with_hosts(base, listing, ["all"], None)
    findings = sum(len(verdict.findings) for verdict in report.hosts or [])
    print(f"{len(raw):,} tools, 11 hosts, {findings:,} host findings")
    steps: dict[str, Callable[[], object]] = {
        "evaluate every host": lambda: with_hosts(base, listing, ["all"], None),
        "JSON report": lambda: render_inspect(report, "json"),
        "terminal report": lambda: render_inspect(report, "terminal"),
        "markdown report": lambda: render_inspect(report, "markdown"),
        "JUnit report": lambda: render_inspect(report, "junit"),
        "SARIF report": lambda: render_inspect(report, "sarif"),
        "fix patch": lambda: host_fix_operations(raw, report.hosts or [], "/tools", None),
    }
    for name, step in steps.items():
        print(f"  {name:<22} {median_of(runs, step):.3f} s (median of {runs})")


def whole_process(raw: list[dict[str, Any]], runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        path.write_text(json.dumps({"tools": raw}), encoding="utf-8")
        out = Path(folder) / "out.json"
        base = [str(BIN), "--no-ui", "inspect", str(path), "--format", "json", "--out", str(out)]
        plain = median_of(runs, lambda: subprocess.run(base, capture_output=True, check=False))
        hosted = median_of(
            runs, lambda: subprocess.run([*base, "--host", "all"], capture_output=True, check=False)
        )
        print(f"  whole process: inspect {plain:.2f} s, with --host all {hosted:.2f} s "
              f"(+{hosted - plain:.2f} s, median of {runs})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    raw = surface(args.tools)
    in_process(raw, args.runs)
    whole_process(raw, args.runs)


if __name__ == "__main__":
    main()
