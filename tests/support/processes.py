"""Process checks (Linux /proc) for tests that must prove no server outlived the client.

Every check looks only at this test process's own children or descendants.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

_DEAD = ("Z", "X")


def _state_and_parent(entry: Path) -> tuple[str, int] | None:
    """The state letter and parent pid of a /proc entry, or None once it is gone."""
    try:
        stat = (entry / "stat").read_text(encoding="utf-8")
    except (FileNotFoundError, ProcessLookupError, OSError):
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _cmdline(entry: Path) -> str | None:
    """The command line of a /proc entry with its NULs as spaces, or None once it is gone."""
    try:
        raw = (entry / "cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode("utf-8", "replace")


def _pid_entries() -> list[Path]:
    return [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def is_running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie waiting to be reaped."""
    found = _state_and_parent(Path(f"/proc/{pid}"))
    return found is not None and found[0] not in _DEAD


def live_children(named: str = "", *, zombies: bool = False) -> list[int]:
    """Pids of this process's children whose command line holds ``named``.

    Zombies count only with ``zombies=True`` (a child exited but never waited for).
    """
    mine = os.getpid()
    found: list[int] = []
    for entry in _pid_entries():
        state = _state_and_parent(entry)
        if state is None or state[1] != mine or (state[0] in _DEAD and not zombies):
            continue
        if named:
            cmdline = _cmdline(entry)
            if cmdline is None or named not in cmdline:
                continue
        found.append(int(entry.name))
    return found


def processes_matching(marker: str) -> list[int]:
    """Pids of live processes below this test process whose command line contains ``marker``.

    Only our own descendants are looked at, never the whole machine: other work running beside
    the suite (another checkout's tests, the same fixture started by someone else) must not
    fail a leftover check. A server that outlived its parent is still found: the test process
    is a child subreaper (tests/conftest.py), so orphans re-parent to it, not to init.
    """
    from whichtool_tui.process_tree import descendants

    found: list[int] = []
    for pid in descendants(os.getpid()):
        cmdline = _cmdline(Path(f"/proc/{pid}"))
        if cmdline is not None and marker in cmdline:
            found.append(pid)
    return sorted(found)


def wait_for(condition: Callable[[], object], seconds: float, interval: float = 0.02) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; True when it held."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    """Wait up to ``seconds`` for ``pid`` to stop running; True when it did."""
    return wait_for(lambda: not is_running(pid), seconds)


def gone_soon(marker: str, within: float = 5.0) -> bool:
    """True once no process matches ``marker`` (a SIGKILL is delivered asynchronously)."""
    return wait_for(lambda: not processes_matching(marker), within, interval=0.05)


def read_pidfile(path: Path) -> list[int]:
    """The pids a test server wrote (itself, then the grandchild it started)."""
    return [int(part) for part in path.read_text(encoding="utf-8").split()]
