"""Process checks for tests that must prove no server outlived the client."""

from __future__ import annotations

import time
from pathlib import Path


def is_running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    """Wait up to ``seconds`` for ``pid`` to stop running; True when it did."""
    deadline = time.monotonic() + seconds
    while is_running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def read_pidfile(path: Path) -> list[int]:
    """The pids a test server wrote (itself, then the grandchild it started)."""
    return [int(part) for part in path.read_text(encoding="utf-8").split()]
