"""Ctrl+C during a hung stdio bout: exit 130 promptly, no receipt, no server left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import pytest

from tests.support.processes import is_running, processes_matching
from whichtool_tui.mcp_client.recorder import is_cancellation

pytestmark = pytest.mark.slow  # starts processes or servers

# Ignores SIGTERM and never reads stdin: only SIGKILL ends it.
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
# Runs the CLI with SIGINT at its default, whatever the test runner's own disposition is.
LAUNCH = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', 'whichtool_tui', *sys.argv[1:]])"
)
# Generous next to the fixed ~1 s (SIGTERM 0.5 s, then SIGKILL per step); the old graces
# (1.5 s + 3 s per server, one server after another) took over 18 s here.
EXIT_WITHIN = 8.0


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_ctrl_c_on_a_hung_bout_kills_every_server_and_writes_nothing(tmp_path: Path) -> None:
    marker = f"arcade-stubborn-{uuid.uuid4().hex[:8]}"
    receipt = tmp_path / "r.json"
    argv = [
        sys.executable, "-c", LAUNCH,
        "bout", "--target", "stdio", "--allow-live", "--no-prompt", "--task", "echo",
        "--cmd", sys.executable, "--cmd=-c", "--cmd", STUBBORN, "--cmd", marker,
        "--sandbox", str(tmp_path / "sandbox"), "-o", str(receipt),
    ]  # fmt: skip
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    servers: list[int] = []
    try:
        # Start-up is not what is measured: on a loaded machine four servers may take long to
        # appear, so only the exit after SIGINT has a tight bound.
        deadline = time.monotonic() + 120
        while len(servers) < 4 and time.monotonic() < deadline:  # every atom's server is up
            servers = [pid for pid in processes_matching(marker) if pid != process.pid]
            time.sleep(0.05)
        assert len(servers) == 4
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=EXIT_WITHIN)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in processes_matching(marker):
            os.kill(pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert b"cancelled" in err and b"Traceback" not in err
    assert not receipt.exists()
    assert [pid for pid in servers if is_running(pid)] == []


def test_cancellation_is_told_apart_from_other_failures() -> None:
    async def verdicts() -> list[bool]:  # the cancellation class belongs to the running loop
        cancelled = anyio.get_cancelled_exc_class()
        return [
            is_cancellation(KeyboardInterrupt()),
            is_cancellation(cancelled()),
            is_cancellation(BaseExceptionGroup("g", [ValueError("x"), KeyboardInterrupt()])),
            is_cancellation(ValueError("x")),
            is_cancellation(ExceptionGroup("g", [ValueError("x")])),
        ]

    assert anyio.run(verdicts) == [True, True, True, False, False]
