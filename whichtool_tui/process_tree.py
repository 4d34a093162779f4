"""The processes below us, read from Linux /proc, and how to kill them for certain.

No third-party imports: the exit-time sweep runs in every command, even ``--version``.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Mapping
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36


def _stat_fields(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of ``pid`` from /proc, or None once it is gone or a zombie."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[19])


def _parent_map() -> dict[int, tuple[int, int]]:
    found: dict[int, tuple[int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields is not None:
                found[int(name)] = fields
    return found


def descendants(root: int) -> dict[int, int]:
    """Every live process below ``root`` (pid -> start time), read from /proc; {} elsewhere."""
    table = _parent_map()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, int] = {}
    pending = list(children.get(root, []))
    while pending:
        pid = pending.pop()
        if pid in found:
            continue
        found[pid] = table[pid][1]
        pending.extend(children.get(pid, []))
    return found


def tree_activity(root: int) -> tuple[int, bool] | None:
    """(CPU ticks used so far, whether any process is running or in disk wait) summed over
    ``root`` and its live descendants; None once ``root`` is gone, or where /proc is absent.

    A server that is still starting (importing, loading) keeps gaining ticks or stays runnable;
    one that is up and waiting for its first message sleeps without either.
    """
    ticks = 0
    busy = False
    for pid in (root, *descendants(root)):
        try:
            raw = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
        except OSError:
            if pid == root:
                return None
            continue
        fields = raw.rsplit(")", 1)[1].split()
        if fields[0] in ("Z", "X"):
            if pid == root:
                return None
            continue
        busy = busy or fields[0] in ("R", "D")
        ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks, busy


def kill_tree(tree: Mapping[int, int]) -> None:
    """SIGKILL each pid of a ``descendants`` snapshot that is still the same process."""
    for pid, started in tree.items():
        fields = _stat_fields(pid)
        if fields is not None and fields[1] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def signal_group(pgid: int, signum: int) -> None:
    """Send ``signum`` to a process group, ignoring one that is already gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def become_subreaper() -> bool:
    """Ask Linux to re-parent our orphaned descendants to us; False where it is unsupported."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def kill_all_descendants() -> None:
    """SIGKILL every process below this one and reap what became our child (exit-time sweep)."""
    tree = descendants(os.getpid())
    for pid in tree:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if os.getpgid(pid) == pid:  # a group leader: its whole group goes with it
                os.killpg(pid, signal.SIGKILL)
    kill_tree(tree)
    with contextlib.suppress(ChildProcessError):
        while True:
            pid, _ = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
