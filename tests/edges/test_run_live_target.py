"""`run` against a real MCP server over stdio (the public time server), offline baseline."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.support.cli import run_headless

TASKS = """version: 1
tasks:
  - id: now
    prompt: What is the current time in Tokyo?
    expected: get_current_time
  - id: convert
    prompt: Convert 9am New York time to London time
    expected: convert_time
  - id: haiku
    prompt: Write a haiku about autumn
    expected: null
"""


@pytest.mark.slow
def test_run_reads_a_live_stdio_server(tmp_path: Path, cli_env: dict[str, str]) -> None:
    server = Path(sys.executable).parent / "mcp-server-time"
    if not server.exists() and shutil.which("mcp-server-time") is None:
        pytest.skip("mcp-server-time is not installed")
    (tmp_path / "whichtool.tasks.yaml").write_text(TASKS, encoding="utf-8")
    result = run_headless(
        "run",
        "--transport",
        "stdio",
        f"{server} --local-timezone UTC",
        "--provider",
        "keyword",
        "--repeat",
        "2",
        "--format",
        "json",
        "--no-cache",
        cwd=tmp_path,
        env=cli_env,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["target"]["transport"] == "stdio"
    assert sorted(t["tool"] for t in report["metrics"]["byTool"]) == [
        "convert_time",
        "get_current_time",
    ]
    assert report["metrics"]["trials"] == {"planned": 6, "scored": 6, "errored": 0}
    assert report["reproducibility"]["surfaceHash"].startswith("sha256:")
    assert all(sorted(t["order"]) == ["convert_time", "get_current_time"] for t in report["trials"])
