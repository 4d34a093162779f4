"""The leftover-process checks look only at this test process's own tree (issue 12, item 14).

Other work on the machine (another checkout's suite, a fixture someone else started) must not
fail "no server left behind"; an orphan of ours must still be found. The test process is a
child subreaper (tests/conftest.py), so an orphan re-parents to it instead of to init.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.processes import gone_soon, processes_matching, wait_for

pytestmark = [
    pytest.mark.slow,  # starts processes
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc"),
]

SLEEPER = "import sys, time; time.sleep(60)"


def test_a_process_outside_our_tree_is_never_counted() -> None:
    raw = Path(f"/proc/{os.getppid()}/cmdline").read_bytes()
    outside = raw.replace(b"\0", b" ").decode("utf-8", "replace").strip()
    assert outside  # our parent runs, and it is not below us
    assert processes_matching(outside) == []


def test_our_child_and_our_orphan_are_found() -> None:
    child_marker, orphan_marker = f"child-{uuid.uuid4().hex}", f"orphan-{uuid.uuid4().hex}"
    child = subprocess.Popen([sys.executable, "-c", SLEEPER, child_marker])
    # The middle process starts the grandchild in a new session and exits at once.
    spawner = (
        "import subprocess, sys; "
        f"subprocess.Popen([sys.executable, '-c', {SLEEPER!r}, {orphan_marker!r}], "
        "start_new_session=True)"
    )
    subprocess.run([sys.executable, "-c", spawner], check=True, timeout=60)
    try:
        assert processes_matching(child_marker) == [child.pid]
        assert wait_for(lambda: len(processes_matching(orphan_marker)) == 1, 30)
    finally:
        child.kill()
        child.wait()
        for pid in processes_matching(orphan_marker):
            os.kill(pid, 9)
    assert gone_soon(orphan_marker)
