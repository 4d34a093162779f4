"""The one child launcher and kill sequence: no process we started outlives us.

Every server is started in its own session (so its process group can be signalled as one).
Stopping it closes stdin, waits, then SIGTERMs and finally SIGKILLs the group. A descendant that
called ``setsid()`` has left that group, so the tree below the child is read from ``/proc``
before the first signal and each member is killed too. In the command-line process we also
become a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): an orphaned grandchild is re-parented
to us instead of init, and ``kill_all_descendants`` at exit finds it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import anyio.abc

from whichtool_tui.process_tree import descendants, kill_tree, signal_group

# (signal to send first, or None for just the stdin close; seconds to wait for the exit)
KillSteps = Sequence[tuple[int | None, float]]
_POLL_INTERVAL = 0.02


async def open_child(
    argv: Sequence[str],
    env: Mapping[str, str],
    cwd: str | os.PathLike[str] | None,
    *,
    stderr: int = subprocess.PIPE,
) -> anyio.abc.Process:
    """Start ``argv`` (no shell) with piped stdin/stdout in a new session of its own."""
    return await anyio.open_process(
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env=dict(env),
        cwd=cwd,
        start_new_session=True,
    )


async def wait_exit(process: anyio.abc.Process, seconds: float) -> bool:
    """Wait up to ``seconds`` for the exit; True once it happened."""
    # Polling returncode, not wait(): wait() also waits for pipe EOF, which a grandchild
    # holding the pipe would delay indefinitely.
    with anyio.move_on_after(seconds):
        while process.returncode is None:  # noqa: ASYNC110
            await anyio.sleep(_POLL_INTERVAL)
    return process.returncode is not None


async def stop_process(process: anyio.abc.Process, steps: KillSteps) -> None:
    """Close stdin, then walk ``steps``; the group and every descendant are SIGKILLed at the end.

    Shielded from cancellation; the final kill also runs when a native cancellation (Ctrl+C,
    SIGTERM) cuts the graceful steps short.
    """
    tree = descendants(process.pid)
    try:
        with anyio.CancelScope(shield=True):
            if process.stdin is not None:
                with contextlib.suppress(
                    OSError, anyio.BrokenResourceError, anyio.ClosedResourceError
                ):
                    await process.stdin.aclose()
            for signum, grace in steps:
                if signum is not None:
                    tree.update(descendants(process.pid))
                    signal_group(process.pid, signum)
                if await wait_exit(process, grace):
                    break
    finally:
        # The leader may be gone while what it started lingers, in its group or outside it.
        signal_group(process.pid, signal.SIGKILL)
        kill_tree(tree)
        close_subprocess_transport(process)


def close_subprocess_transport(process: Any) -> None:
    """Close asyncio's subprocess transport now rather than at garbage collection."""
    # It would otherwise stay open until collected, maybe after the loop closed, and print a
    # spurious error then; nothing public exposes it.
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    close = getattr(transport, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()
