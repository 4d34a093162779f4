"""The installed binary in a real terminal: one tmux server per test, on its own socket."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from tests.support.cli import binary_path
from whichtool_tui.process_tree import descendants


def footer_line(pane: str) -> str:
    """The last non-empty line of a captured pane: the app's footer of keys."""
    lines = [line for line in pane.splitlines() if line.strip()]
    return lines[-1] if lines else ""


class Terminal:
    """One tmux server on its own socket, running one command in a 120x40 pane."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=20,
        )

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "s").stdout

    def press(self, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", "-t", "s", key)
            time.sleep(0.15)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        return self.wait_until(lambda shown: text in shown, f"{text!r} appeared", timeout)

    def wait_until(self, condition: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        """The pane once ``condition(pane)`` holds; the timeout only turns a hang into a
        failure that says ``what`` never happened (no time is asserted)."""
        deadline = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen()
            if condition(shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"never happened: {what}; the screen was:\n{shown}")

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", "s").returncode == 0

    def close(self) -> None:
        """Kill the tmux server and what ran in its pane: an app whose terminal closes while
        it is busy can outlive it (orphans of this suite were found asleep long after)."""
        shown = self.tmux("display-message", "-p", "-t", "s", "#{pane_pid}").stdout.strip()
        left = [int(shown), *descendants(int(shown))] if shown.isdigit() else []
        self.tmux("kill-server")
        deadline = time.monotonic() + 3.0
        while left and time.monotonic() < deadline:
            left = [pid for pid in left if Path(f"/proc/{pid}").exists()]
            time.sleep(0.1)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def start_terminal(folder: Path, arguments: str = "") -> Terminal:
    """The installed binary with ``arguments`` in a fresh 120x40 tmux pane, run in ``folder``."""
    term = Terminal(f"wt-smoke-{os.getpid()}-{time.monotonic_ns()}")
    env_state = folder / "state"
    command = (
        f"cd {folder} && env -u COLUMNS -u LINES TERM=xterm-256color "
        f"WHICHTOOL_TUI_STATE_DIR={env_state} "
        f"{binary_path()} {arguments}; echo EXIT=$?; sleep 30"
    )
    started = term.tmux(
        "new-session",
        "-d",
        "-s",
        "s",
        "-x",
        "120",
        "-y",
        "40",
        "-e",
        "COLORTERM=truecolor",
        command,
    )
    assert started.returncode == 0, started.stderr
    return term
