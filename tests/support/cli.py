"""One way to run the installed binary as a child process and collect what it printed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import binary_path


def run_binary(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``whichtool-tui *args`` to completion (60 s at most) with text output captured."""
    return subprocess.run(
        [binary_path(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def run_headless(
    *args: str, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``whichtool-tui --no-ui *args``: the plain-terminal form most CLI tests check."""
    return run_binary("--no-ui", *args, env=env, cwd=cwd)
