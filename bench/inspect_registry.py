"""Whole-process inspect at registry scale: varied and templated surfaces of 2,000, 8,000 and
10,000 tools, `--format json`, each a fresh `whichtool-tui --no-ui inspect SNAPSHOT` process.

Prints wall and CPU seconds, peak RSS and the number of findings of each case, and the ratio of
the 8,000-tool to the 2,000-tool varied time measured in the same run. Asserts nothing.
Targets (issue 31): 8,000 varied <= 5x the 2,000-tool time and <= 400 MB peak RSS; 10,000 tools
<= 5 s whole process; templated 1,000 tools <= 50 findings, 8,000 varied <= 100 findings;
`inspect --tasks --retriever semantic` on 1,000 varied tools and 100 prompts (the embedding
extra, a fresh cache folder): <= 3 s cold, <= 1 s warm; then one more cold run by phase
(bench/semantic_phases.py).
Run: .venv/bin/python bench/inspect_registry.py [--sizes 2000,8000,10000] [--runs 3] [--semantic]
(`--kinds '' --semantic` runs the semantic case alone.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import inspect_scale
import semantic_phases
import whole_process
from inspect_templated import templated_tools
from whole_process import measure

BIN = Path(sys.executable).parent / "whichtool-tui"
# Issue 31's targets per case: (max wall s, max peak RSS MB, max findings); None is no target.
TARGETS: dict[tuple[str, int], tuple[float | None, float | None, int | None]] = {
    ("varied", 8000): (None, 400, 100),
    ("varied", 10000): (5.0, None, None),
    ("templated", 1000): (None, None, 50),
    ("templated", 10000): (5.0, None, None),
}
RATIO_TARGET = 5.0  # varied 8,000 / 2,000 median wall, same run


def verdict(case: tuple[str, int], wall: float, rss: float, findings: int) -> str:
    """The case's targets next to its figures, each marked met or NOT met."""
    limits = TARGETS.get(case)
    if limits is None:
        base = " (the base of the 8,000 / 2,000 ratio)" if case == ("varied", 2000) else ""
        return f"target none of its own{base}"
    max_wall, max_rss, max_findings = limits
    parts = []
    for limit, value, unit in ((max_wall, wall, "s"), (max_rss, rss, "MB")):
        if limit is not None:
            parts.append(f"<= {limit:g} {unit} {'met' if value <= limit else 'NOT met'}")
    if max_findings is not None:
        met = "met" if findings <= max_findings else "NOT met"
        parts.append(f"<= {max_findings} findings {met}")
    return "target " + ", ".join(parts)


def varied_tools(count: int) -> list[dict[str, Any]]:
    """``count`` tools of the varied generator of bench/inspect_scale.py (same seed)."""
    inspect_scale.TOOLS = count
    return inspect_scale.build_surface(random.Random(inspect_scale.SEED))


def run_case(snapshot: Path, out: Path, runs: int) -> tuple[list[float], float, float, int]:
    """(walls, median CPU, peak RSS MB, findings) of ``runs`` whole json inspects."""
    argv = [str(BIN), "--no-ui", "inspect", str(snapshot), "--format", "json", "--out", str(out)]
    done = [measure(argv) for _ in range(runs)]
    findings = len(json.loads(out.read_text(encoding="utf-8"))["diagnostics"])
    return (
        [item.wall for item in done],
        statistics.median(item.cpu for item in done),
        max(item.rss_mb for item in done),
        findings,
    )


def semantic_case(work: Path, runs: int) -> None:
    """Whole inspect --tasks with the semantic search: a first run (empty vector cache), then
    runs that find every vector in it."""
    tools = varied_tools(1000)
    snapshot = work / "semantic-1000.json"
    snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    tasks = work / "semantic-1000.tasks.json"
    picked = [tools[n * 9]["name"] for n in range(100)]
    prompts = [
        {"id": f"t{n}", "prompt": f"Please {name.replace('_', ' ')} for me", "expected": name}
        for n, name in enumerate(picked)
    ]
    tasks.write_text(json.dumps({"version": 1, "tasks": prompts}), encoding="utf-8")
    argv = [str(BIN), "--no-ui", "inspect", str(snapshot), "--tasks", str(tasks)]
    argv += ["--retriever", "semantic", "--format", "json", "--out", str(work / "semantic.json")]
    whole_process._ENV["XDG_CACHE_HOME"] = str(work / "cache")  # an empty vector cache
    cold = measure(argv)
    warm = [measure(argv) for _ in range(runs)]
    print(
        f"semantic  1000 tools x 100 prompts  cold {cold.wall:.2f} s wall, CPU {cold.cpu:.2f} s,"
        f" peak RSS {cold.rss_mb:.0f} MB   target <= 3 s {'met' if cold.wall <= 3 else 'NOT met'}"
    )
    print(
        f"semantic  1000 tools x 100 prompts  warm median "
        f"{statistics.median(item.wall for item in warm):.2f} s wall, CPU "
        f"{statistics.median(item.cpu for item in warm):.2f} s, peak RSS "
        f"{max(item.rss_mb for item in warm):.0f} MB "
        f"(runs {', '.join(f'{item.wall:.2f}' for item in warm)}; "
        f"load {os.getloadavg()[0]:.1f})   target <= 1 s "
        f"{'met' if statistics.median(item.wall for item in warm) <= 1 else 'NOT met'}"
    )
    run = [str(BIN), "--no-ui", "run", str(snapshot), "--tasks", str(tasks), "--provider"]
    run += ["embedding", "--repeat", "1", "--max-trials", "100", "--format", "json"]
    run += ["--cache-dir", str(work / "trials"), "--out", str(work / "run.json")]
    baseline = measure(run)
    print(
        f"embedding baseline, 100 trials after those inspects  {baseline.wall:.2f} s wall, CPU "
        f"{baseline.cpu:.2f} s, peak RSS {baseline.rss_mb:.0f} MB (the shared vector cache: no "
        "model loaded, ~300 MB if one were)   target none of its own"
    )
    semantic_phases.report(snapshot, tasks)  # one more cold run, timed phase by phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,2000,8000,10000")
    parser.add_argument("--kinds", default="varied,templated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--semantic", action="store_true", help="also the semantic findability")
    args = parser.parse_args()
    sizes = [int(part) for part in args.sizes.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    medians: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for kind in filter(None, args.kinds.split(",")):
            for size in sizes:
                tools = varied_tools(size) if kind == "varied" else templated_tools(size)
                snapshot = work / f"{kind}-{size}.json"
                snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
                del tools
                walls, cpu, rss, findings = run_case(snapshot, work / "out.json", args.runs)
                medians[(kind, size)] = statistics.median(walls)
                print(
                    f"{kind:<9} {size:>6} tools  median {statistics.median(walls):.2f} s wall"
                    f" (runs {', '.join(f'{w:.2f}' for w in walls)}; load "
                    f"{os.getloadavg()[0]:.1f})  CPU {cpu:.2f} s  peak RSS {rss:.0f} MB"
                    f"  findings {findings}   "
                    f"{verdict((kind, size), statistics.median(walls), rss, findings)}"
                )
        if args.semantic:
            semantic_case(work, args.runs)
    if ("varied", 2000) in medians and ("varied", 8000) in medians:
        ratio = medians[("varied", 8000)] / medians[("varied", 2000)]
        met = "met" if ratio <= RATIO_TARGET else "NOT met"
        print(f"varied 8,000 / 2,000 time: {ratio:.1f}x   target <= {RATIO_TARGET:g}x {met}")


if __name__ == "__main__":
    main()
