"""SIGTERM and SIGHUP end a command the way Ctrl+C does, and nothing we started survives us.

``timeout(1)``, CI runners, ``docker stop`` and a closed terminal send SIGTERM or SIGHUP. Both are
turned into SIGINT, so every command and the TUI run their one cancellation path (servers
stopped, temp files removed, nothing half-written), and the exit code then says which signal it
was: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. At exit the command-line process kills
any descendant still alive, including ones re-parented to it as a subreaper.

The TUI quits through its own exit instead, and that exit can hang when the terminal is gone
(the output thread of a full-screen app can wait forever on a terminal that was hung up): so a
quit asked for by a signal has a deadline, past which the process cleans up and ends anyway.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from whichtool_tui.errors import ExitCode

_FORWARDED = (signal.SIGTERM, signal.SIGHUP)
# How long a full-screen app may take to quit after SIGTERM/SIGHUP before it is ended anyway.
QUIT_DEADLINE_SECONDS = 5.0
_received: list[int] = []
# Set while the TUI runs: a full-screen app quits through its own exit, not through SIGINT.
_quit_hooks: list[Callable[[], None]] = []


@contextlib.contextmanager
def quit_hook(callback: Callable[[], None]) -> Iterator[None]:
    """Within the block, SIGTERM/SIGHUP call ``callback`` (on the event loop) instead of SIGINT."""
    _quit_hooks.append(callback)
    try:
        yield
    finally:
        _quit_hooks.remove(callback)


def received_signal() -> bool:
    """True once SIGTERM or SIGHUP arrived."""
    return bool(_received)


def _forward_as_interrupt(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    if _quit_hooks:
        if signum == signal.SIGHUP:
            # The terminal is gone: the SIGCONT that comes with a hang-up must not make the
            # app switch its screen back on (it would write to a terminal nobody reads).
            signal.signal(signal.SIGCONT, signal.SIG_DFL)
        _start_quit_deadline(signum)
        # asyncio is imported only by what runs a loop; without it there is no loop to call.
        asyncio = sys.modules.get("asyncio")
        try:
            if asyncio is None:
                raise RuntimeError("no event loop")
            asyncio.get_running_loop().call_soon_threadsafe(_quit_hooks[-1])
        except RuntimeError:
            _quit_hooks[-1]()
        return
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        raise KeyboardInterrupt
    signal.raise_signal(signal.SIGINT)


_owned: list[bool] = []


def owns_process() -> bool:
    """True in the real process entry: the process is ours (to fork helpers in, for one)."""
    return bool(_owned)


def _start_quit_deadline(signum: int) -> None:
    """End the process ``QUIT_DEADLINE_SECONDS`` from now if the app has not quit by then."""
    if any(thread.name == "whichtool-quit-deadline" for thread in threading.enumerate()):
        return

    def end_anyway() -> None:
        finish(process_entry=True)
        os._exit(128 + signum)  # the app's own exit is stuck: nothing else would end us

    timer = threading.Timer(QUIT_DEADLINE_SECONDS, end_anyway)
    timer.name = "whichtool-quit-deadline"
    timer.daemon = True
    timer.start()


def install(*, process_entry: bool) -> None:
    """Forward SIGTERM/SIGHUP as SIGINT; in the real process entry also become a subreaper."""
    if not process_entry:
        return  # called in-process (tests, embedding): leave the host's signal handling alone
    _owned.append(True)
    from whichtool_tui.process_tree import become_subreaper

    become_subreaper()
    for signum in _FORWARDED:
        signal.signal(signum, _forward_as_interrupt)


def interrupted_exit_code() -> int:
    """128 + the signal that ended us: 143 (SIGTERM), 129 (SIGHUP), else 130 (Ctrl+C)."""
    if _received:
        return 128 + _received[0]
    return int(ExitCode.CANCELLED)


def interrupted_message() -> str:
    """The one line said on stderr when a signal ended the command."""
    if _received:
        return f"stopped by {signal.Signals(_received[0]).name}; no report was written"
    return "cancelled; no report was written"


def finish(*, process_entry: bool) -> None:
    """Remove temp files still being written and, in the process entry, every descendant."""
    from whichtool_tui.files import remove_live_temp_files

    remove_live_temp_files()
    if process_entry:
        from whichtool_tui.process_tree import kill_all_descendants

        kill_all_descendants()
