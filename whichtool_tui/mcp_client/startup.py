"""When a stdio server is up: the clock of its first request starts there, not at spawn.

A bout's ``--timeout`` is a per-request budget; a server's start-up (an interpreter importing
its SDK, a Node package loading) is not part of it and takes seconds on a loaded machine. The
server is *up* once its process tree sleeps without using CPU (it is waiting for its first
message); until then only the separate, generous start-up deadline applies.
"""

from __future__ import annotations

import anyio

from whichtool_tui.process_tree import tree_activity

# How often the process tree is looked at, and for how many looks in a row it must be idle.
POLL_SECONDS = 0.1
IDLE_LOOKS = 2


async def wait_until_up(
    pid: int | None, answered: anyio.Event, deadline: float, poll_seconds: float = POLL_SECONDS
) -> bool:
    """Wait until the server at ``pid`` is up, its answer came, or it died; False when it was
    still starting after ``deadline`` seconds. Without a pid or /proc it counts as up."""
    if pid is None or tree_activity(pid) is None:
        return True
    idle_looks = 0
    last_ticks: int | None = None
    with anyio.move_on_after(deadline):
        while not answered.is_set():
            activity = tree_activity(pid)
            if activity is None:
                return True  # gone: the wire reports how it ended
            ticks, busy = activity
            idle = not busy and ticks == last_ticks
            idle_looks = idle_looks + 1 if idle else 0
            if idle_looks >= IDLE_LOOKS:
                return True
            last_ticks = ticks
            with anyio.move_on_after(poll_seconds):
                await answered.wait()
        return True
    return answered.is_set()
