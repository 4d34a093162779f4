"""Measure one whole child process as a user waits for it: wall time, CPU time, peak RSS.

CPU time is the process's and every helper it forked and reaped (inspect's overlap helper on
the second core), so splitting work across cores never hides any of it. The child runs without
PYTHONDONTWRITEBYTECODE, as an installed package runs with its .pyc files.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


@dataclass(frozen=True)
class Measured:
    """One finished process: seconds of wall and CPU (user + system), peak RSS in MB, exit code."""

    wall: float
    cpu: float
    rss_mb: float
    code: int


def measure(argv: list[str], ok_codes: tuple[int, ...] = (0, 1)) -> Measured:
    """Run ``argv`` to completion (output discarded); refuse an exit code outside ``ok_codes``."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors, env=_ENV)
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        child.returncode = code
        if code not in ok_codes:
            errors.seek(0)
            raise SystemExit(f"{argv[0]} failed ({code}): {errors.read()[-400:]!r}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code)


def summary(done: Sequence[Measured]) -> str:
    """min and median wall, median CPU, every run, and the load the runs met (shared machine)."""
    walls = [item.wall for item in done]
    return (
        f"min {min(walls):.2f} s, median {statistics.median(walls):.2f} s wall, "
        f"{statistics.median(item.cpu for item in done):.2f} s CPU "
        f"(runs {', '.join(f'{w:.2f}' for w in walls)}; load {os.getloadavg()[0]:.1f})"
    )


def import_seconds(argv: list[str]) -> float:
    """Seconds the command line spends importing (``-X importtime``, top-level imports summed;
    give it a surface under 300 tools so no helper's imports are counted with ours)."""
    command = [
        sys.executable,
        "-X",
        "importtime",
        "-c",
        "import sys; from whichtool_tui.cli "
        "import main; sys.argv[0] = 'whichtool-tui'; sys.exit(main())",
        *argv[1:],
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=_ENV, check=False)
    total = 0
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _self, cumulative, name = line.removeprefix("import time:").split("|")
            if cumulative.strip().isdigit() and not name.startswith("  "):
                total += int(cumulative)
    return total / 1e6


def yardstick(runs: int = 5) -> str:
    """How fast this machine starts Python and imports what inspect's start-up imports: the same
    commit measured 2-3x apart on two machines of one kind, so compare figures across machines
    (or sessions) by this line, not by the seconds alone."""
    started = [
        measure([sys.executable, "-c", "import numpy, pydantic"], ok_codes=(0,))
        for _ in range(runs)
    ]
    bare = [measure([sys.executable, "-c", "pass"], ok_codes=(0,)) for _ in range(runs)]
    return (
        f"machine yardstick: python -c pass {statistics.median(m.wall for m in bare):.3f} s, "
        f"python -c 'import numpy, pydantic' "
        f"{statistics.median(m.wall for m in started):.3f} s (median of {runs})"
    )
