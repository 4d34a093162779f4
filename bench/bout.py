"""Bout benchmarks: a full fixture bout against mcp-arcade's, the bundled fixture's start-up,
``--version`` against mcp-arcade's, and a 100,000-event timeline.

Run: .venv/bin/python bench/bout.py [--runs N] [--events N] [--with-upstream-timeline]
[--fixture-only]
Prints wall times and ratios; asserts nothing. Targets: bout ratio <= 1.0; the fixture answers
``initialize`` <= 0.3 s after spawn (quiet machine), and the client session of inspect and
run adds about nothing to that; ``--version`` ratio kept at about 0.22;
timeline <= 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
# What importing the MCP client SDK alone costs (start, import, exit): the bout's own client no
# longer pays it, and this line shows what it saves.
FLOOR = "import gc; gc.disable(); import mcp.client.session; gc.freeze()"


def timed(argv: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    result = subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {result.stderr.decode()[-400:]}")
    return elapsed


def bout_bench(runs: int, work: Path) -> None:
    ours: list[float] = []
    theirs: list[float] = []
    floor: list[float] = []
    for index in range(runs):
        floor.append(timed([sys.executable, "-c", FLOOR], work))
        ours.append(
            timed(
                [str(BIN / "whichtool-tui"), "--no-ui", "bout", "--target", "fixture",
                 "--no-prompt", "-o", f"ours-{index}.json"],
                work,
            )
        )  # fmt: skip
        theirs.append(
            timed(
                [str(BIN / "mcp-arcade"), "bout", "--target", "fixture", "--no-prompt",
                 "-o", f"theirs-{index}.json"],
                work,
            )
        )  # fmt: skip
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(f"bout (4 atoms, fixture, naive), median of {runs}:")
    print(f"  whichtool-tui  {ours_median:.2f} s   runs: {', '.join(f'{t:.2f}' for t in ours)}")
    print(f"  mcp-arcade     {theirs_median:.2f} s   runs: {', '.join(f'{t:.2f}' for t in theirs)}")
    print(f"  ratio ours/theirs = {ours_median / theirs_median:.2f}  (target <= 1.0)")
    print(
        f"  for scale: start + import the MCP client SDK + exit = {statistics.median(floor):.2f} s "
        "(neither bout client imports it)"
    )


INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
)


def raw_fixture_start() -> float:
    """Spawn the bundled fixture, send initialize at once, and time until its answer is read."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "whichtool_tui.arcade.fixture"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(INITIALIZE)
    child.stdin.flush()
    answer = child.stdout.readline()
    elapsed = time.perf_counter() - started
    child.stdin.close()
    child.wait(timeout=30)
    if b'"result"' not in answer:
        raise SystemExit(f"the fixture did not answer initialize: {answer[:200]!r}")
    return elapsed


def fixture_start(runs: int) -> None:
    """Spawn the bundled fixture, send initialize, time until its answer is read."""
    times = [raw_fixture_start() for _ in range(max(runs, 5))]
    print(
        f"fixture spawn to initialize answered: median {statistics.median(times):.3f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in times)})  (target <= 0.3 s, quiet machine)"
    )


def fixture_session(runs: int) -> None:
    """The same spawn through the client session of inspect and run (``McpSession``): spawn to
    ``initialize`` answered, and the whole open + close, beside the raw figure above."""
    import asyncio

    from whichtool_tui.mcp_client.sessions import McpSession
    from whichtool_tui.targets import TargetSpec

    spec = TargetSpec(
        transport="stdio",
        ref="fixture",
        argv=(sys.executable, "-m", "whichtool_tui.arcade.fixture"),
    )

    async def once() -> tuple[float, float]:
        started = time.perf_counter()
        session = McpSession(spec, timeout=30)
        await session.start()
        ready = time.perf_counter() - started
        await session.close()
        return ready, time.perf_counter() - started

    samples = [asyncio.run(once()) for _ in range(max(runs, 5))]
    ready = statistics.median(sample[0] for sample in samples)
    whole = statistics.median(sample[1] for sample in samples)
    raw = statistics.median(raw_fixture_start() for _ in range(max(runs, 5)))
    print(
        f"fixture session (McpSession): initialize answered {ready:.3f} s, open + close "
        f"{whole:.3f} s; raw spawn to answer {raw:.3f} s, so the session adds {ready - raw:.3f} s "
        "(target: about 0, the handshake is sent at once)"
    )


def version_ratio(runs: int, work: Path) -> None:
    """``--version`` of both programs: the start-up cost of a command that does nothing."""
    ours = [timed([str(BIN / "whichtool-tui"), "--version"], work) for _ in range(max(runs, 5))]
    theirs = [timed([str(BIN / "mcp-arcade"), "--version"], work) for _ in range(max(runs, 5))]
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(
        f"--version: whichtool-tui {ours_median:.3f} s vs mcp-arcade {theirs_median:.3f} s, "
        f"ratio {ours_median / theirs_median:.2f}  (target: keep about 0.22)"
    )


def synthetic_receipt(events: int, work: Path) -> Path:
    """A real receipt whose wire is repeated to ``events`` events (attribution kept valid)."""
    seed = work / "ours-0.json"
    data = json.loads(seed.read_text(encoding="utf-8"))
    per_atom: dict[str, list[dict[str, object]]] = {}
    for event in data["wire"]:
        per_atom.setdefault(str(event["atom_id"]), []).append(event)
    share = events // len(data["atoms"])
    wire: list[dict[str, object]] = []
    for atom in data["atoms"]:
        source = per_atom[atom["id"]]
        head, body = source[:3], [e for e in source[3:] if e["method"] != "initialize"]
        block = [*head]
        seq = len(head)
        while len(block) < share:
            for event in body:
                seq += 1
                block.append({**event, "seq": seq})
                if len(block) >= share:
                    break
        wire.extend(block)
    data["wire"] = wire
    path = work / f"synthetic-{events}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def timeline_bench(events: int, work: Path, with_upstream: bool) -> None:
    path = synthetic_receipt(events, work)
    size_mb = path.stat().st_size / 1e6
    ours = timed([str(BIN / "whichtool-tui"), "--no-ui", "receipt", str(path), "--timeline"], work)
    print(f"receipt --timeline --no-ui on {events} events ({size_mb:.1f} MB):")
    print(f"  whichtool-tui  {ours:.2f} s  (target <= 5 s)")
    if with_upstream:
        theirs = timed([str(BIN / "mcp-arcade"), "receipt", str(path), "--timeline"], work)
        print(f"  mcp-arcade     {theirs:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--with-upstream-timeline", action="store_true")
    parser.add_argument(
        "--fixture-only", action="store_true", help="only the fixture's start-up figures"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        if not args.fixture_only:
            bout_bench(args.runs, work)
        fixture_start(args.runs)
        fixture_session(args.runs)
        if args.fixture_only:
            return
        version_ratio(args.runs, work)
        timeline_bench(args.events, work, args.with_upstream_timeline)


if __name__ == "__main__":
    main()
