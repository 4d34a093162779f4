"""A real stdio server that is slow to start: it spins (CPU-bound, as an interpreter importing
its SDK does on a loaded machine) for a given time, then serves as the bundled fixture."""

from __future__ import annotations

import sys

from tests.support.paths import REPO

# Busy for SPIN seconds of wall-clock time (CPU-bound, like imports), then the bundled fixture.
SLOW_START = (
    "import runpy, sys, time\n"
    "end = time.monotonic() + float(sys.argv[1])\n"
    "while time.monotonic() < end: pass\n"
    "sys.argv = ['fixture', *sys.argv[2:]]\n"
    "runpy.run_module('whichtool_tui.arcade.fixture', run_name='__main__')\n"
)
ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}


def slow_starter(spin: float, *fixture_flags: str) -> list[str]:
    """The command line of a fixture that spins ``spin`` seconds before it serves."""
    return [sys.executable, "-c", SLOW_START, str(spin), *fixture_flags]


# Never idle: a thread spins for the whole life of the process while the fixture serves, so a
# client that held its first message until the server sleeps would never send it.
BUSY_SERVER = (
    "import runpy, sys, threading\n"
    "def spin():\n"
    "    while True: pass\n"
    "threading.Thread(target=spin, daemon=True).start()\n"
    "sys.argv = ['fixture', *sys.argv[1:]]\n"
    "runpy.run_module('whichtool_tui.arcade.fixture', run_name='__main__')\n"
)


def busy_server(*fixture_flags: str) -> list[str]:
    """The command line of a fixture that serves while one of its threads keeps a core busy."""
    return [sys.executable, "-c", BUSY_SERVER, *fixture_flags]
