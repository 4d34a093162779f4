"""Measure one whole child process as a user waits for it: wall time, CPU time, peak RSS.

CPU time is the process's and every helper it forked and reaped (inspect's overlap helper on
the second core), so splitting work across cores never hides any of it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass


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
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors)
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        child.returncode = code
        if code not in ok_codes:
            errors.seek(0)
            raise SystemExit(f"{argv[0]} failed ({code}): {errors.read()[-400:]!r}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code)
