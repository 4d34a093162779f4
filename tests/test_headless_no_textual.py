"""Headless commands that do real work never import textual (only ui/ may, and only for a TUI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SNAPSHOTS

pytestmark = pytest.mark.slow  # each case starts a Python process (the bout also the fixture)

DEMO = str(SNAPSHOTS / "demo-lab.json")
DEMO_TASKS = str(SNAPSHOTS / "demo-lab.tasks.yaml")

CASES = {
    "inspect": ["--no-ui", "inspect", DEMO, "--format", "json"],
    "run": [
        "--no-ui",
        "run",
        DEMO,
        "--tasks",
        DEMO_TASKS,
        "--provider",
        "keyword",
        "--repeat",
        "1",
        "--no-cache",
        "--format",
        "json",
    ],
    "run --dry-run": ["--no-ui", "run", DEMO, "--tasks", DEMO_TASKS, "--dry-run"],
    "bout": ["--no-ui", "bout", "--target", "fixture", "--no-prompt"],
}


@pytest.mark.parametrize("name", list(CASES))
def test_headless_command_never_imports_textual(name: str, tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"code = main({CASES[name]!r})\n"
        "print('textual' in sys.modules, code in (0, 1), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "False True", result.stderr[-2000:]


def test_a_fixture_bout_never_imports_the_mcp_sdk_client(tmp_path: Path) -> None:
    """The bout's client writes its own requests: importing the SDK cost over a second a bout."""
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"code = main({CASES['bout']!r})\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')), code,\n"
        "      file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "[] 0", result.stderr[-2000:]
