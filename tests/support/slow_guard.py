"""Every test that starts a process or a server must carry the ``slow`` mark.

``pytest -m "not slow"`` is the quick subset; this guard keeps it honest. For a test without
the mark it watches process starts (``subprocess.Popen``, ``os.fork``) and listening sockets
while the test and its function fixtures run, and fails the test at teardown if any happened.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _slow_mark_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("slow") is not None:
        yield
        return
    started: list[str] = []
    real_popen_init = subprocess.Popen.__init__
    real_listen = socket.socket.listen
    real_fork = os.fork

    def popen_init(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        command = args[0] if args else kwargs.get("args")
        started.append(f"a process ({str(command)[:80]})")
        real_popen_init(self, *args, **kwargs)

    def listen(self: socket.socket, *args: Any) -> None:
        started.append("a listening socket (a server)")
        real_listen(self, *args)

    def fork() -> int:
        started.append("a forked process")
        return real_fork()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess.Popen, "__init__", popen_init)
        patch.setattr(socket.socket, "listen", listen)
        patch.setattr(os, "fork", fork)
        yield
    if started:
        pytest.fail(
            f"this test started {started[0]} but is not marked slow: add "
            "`pytestmark = pytest.mark.slow` (or @pytest.mark.slow) to it",
            pytrace=False,
        )


def runs_a_whole_app(item: pytest.Item) -> bool:
    """A Pilot or snapshot test: it runs the whole Textual app, which takes seconds, not ms."""
    import inspect

    if "snap_compare" in getattr(item, "fixturenames", ()):
        return True
    function = getattr(item, "function", None)
    if function is None:
        return False
    try:
        return "run_test(" in inspect.getsource(function)
    except (OSError, TypeError):
        return False


def mark_whole_app_tests_slow(items: list[pytest.Item]) -> None:
    """Pilot and snapshot tests count as slow too, so ``-m "not slow"`` stays a quick loop."""
    for item in items:
        if item.get_closest_marker("slow") is None and runs_a_whole_app(item):
            item.add_marker(pytest.mark.slow)
