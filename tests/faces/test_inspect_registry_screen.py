"""A 10,000-tool inspect report read on a terminal: the real binary, a bounded number of lines,
and findings that name how many tools they cover instead of one line per tool."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent / "whichtool-tui"
TOOLS = 10_000
MAX_LINES = 130  # two screens of a 65-row terminal


def _templated(count: int) -> list[dict[str, Any]]:
    """Tools from one template, so per-tool rules fire on every tool alike."""
    return [
        {
            "name": f"get_user_record_{index}",
            "description": f"Get a user record number {index} in the workspace, with its profile.",
            "inputSchema": {
                "type": "object",
                "properties": {"user_id": {"type": "string", "description": "The user id."}},
                "required": ["user_id"],
            },
        }
        for index in range(count)
    ]


@pytest.mark.slow
def test_ten_thousand_tool_terminal_report_fits_two_screens(tmp_path: Path) -> None:
    snapshot = tmp_path / "registry.json"
    snapshot.write_text(json.dumps({"tools": _templated(TOOLS)}), encoding="utf-8")
    done = subprocess.run(
        [str(BIN), "--no-ui", "inspect", str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) <= MAX_LINES, f"{len(lines)} lines"
    assert "10,000 tools" in lines[2]
    # An aggregated finding names its first few tools and how many more it covers.
    counted = [
        line for line in lines if re.search(r"get_user_record_\d+.* and 9,9\d\d more$", line)
    ]
    assert counted, done.stdout
    # The context-cost table stops after its rows and says how many tools it left out.
    assert any(line.strip().startswith("9,985 more tools not shown") for line in lines)


@pytest.mark.slow
def test_terminal_lists_the_worst_findings_and_counts_the_rest(tmp_path: Path) -> None:
    # Twenty pairs of tools with identical descriptions: twenty errors of their own.
    tools = [
        {"name": f"{verb}_{twin}", "description": f"Run the {verb} job on the cluster now."}
        for verb in [f"task{n:02d}" for n in range(20)]
        for twin in ("a", "b")
    ]
    snapshot = tmp_path / "pairs.json"
    snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    done = subprocess.run(
        [str(BIN), "--no-ui", "inspect", str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    findings = json.loads(
        subprocess.run(
            [str(BIN), "--no-ui", "inspect", str(snapshot), "--format", "json"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        ).stdout
    )["diagnostics"]
    assert len(findings) > 12
    section = done.stdout.split("\nFindings ", 1)[1]
    listed = re.findall(r"^  (?:error|warning|info) ", section, flags=re.MULTILINE)
    assert len(listed) == 12
    assert f"{len(findings) - 12:,} more findings not shown" in section
    assert "--format json or" in section
