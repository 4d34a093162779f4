"""One way to run the installed binary as a child process and collect what it printed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def binary_path() -> str:
    """The installed ``whichtool-tui`` script of the interpreter running the tests."""
    candidate = Path(sys.executable).parent / "whichtool-tui"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("whichtool-tui")
    assert found, "whichtool-tui is not installed in this environment"
    return found


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


def clean_env(extra: dict[str, str]) -> dict[str, str]:
    """This environment without keys, our own variables or proxies, colour off, plus ``extra``:
    what a key-routing test gives the binary, so only the keys it names can travel."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY")
        and not k.startswith("WHICHTOOL_")
        and "proxy" not in k.lower()
    }
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env
