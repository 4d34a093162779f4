"""Headless commands that do real work never import textual (only ui/ may, and only for a TUI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import SNAPSHOTS

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


def last_line_of_probe(report: str, tmp_path: Path, case: str) -> str:
    """Run ``CASES[case]`` through ``cli.main`` in a fresh interpreter; the line ``report``
    (a Python expression over ``sys`` and ``code``) printed after it, on stderr."""
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"code = main({CASES[case]!r})\n"
        f"print({report}, file=sys.stderr)\n"
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
    return result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("name", list(CASES))
def test_headless_command_never_imports_textual(name: str, tmp_path: Path) -> None:
    report = "'textual' in sys.modules, code in (0, 1)"
    assert last_line_of_probe(report, tmp_path, name) == "False True"


def test_a_fixture_bout_never_imports_the_mcp_sdk_client(tmp_path: Path) -> None:
    """The bout's client writes its own requests: importing the SDK cost over a second a bout."""
    report = "sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')), code"
    assert last_line_of_probe(report, tmp_path, "bout") == "[] 0"
