"""A server may put a lone surrogate in a tool's name or text: every report format prints and
writes it as its escape (as the JSON writer spells it), never a UnicodeEncodeError traceback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import binary_path
from whichtool_tui.files import write_atomic

TOOLS = [
    {
        "name": "a\ud800b",
        "description": "x",
        "inputSchema": {
            "type": "object",
            "properties": {"q\udc00": {"type": "string", "description": "p \udfff"}},
        },
    },
    {"name": "b", "description": "\ud83d", "inputSchema": {"type": "object"}},
]


def test_the_writer_writes_a_lone_surrogate_as_its_escape(tmp_path: Path) -> None:
    written = write_atomic(tmp_path / "r.md", "tool a\ud800b\n")
    assert written.read_bytes() == b"tool a\\ud800b\n"


@pytest.mark.slow  # runs the installed command
@pytest.mark.parametrize("report_format", ["junit", "markdown", "terminal", "sarif", "json"])
def test_every_inspect_format_prints_and_writes_it(
    tmp_path: Path, cli_env: dict[str, str], report_format: str
) -> None:
    snapshot = tmp_path / "surrogates.json"
    snapshot.write_text(json.dumps({"tools": TOOLS}), encoding="ascii")
    command = [binary_path(), "--no-ui", "inspect", str(snapshot), "--format", report_format]
    printed = subprocess.run(command, capture_output=True, timeout=120, env=cli_env, check=False)
    assert printed.returncode in (0, 1), printed.stderr.decode(errors="replace")
    assert b"Traceback" not in printed.stderr
    assert b"ud800" in printed.stdout  # the name is there, escaped
    printed.stdout.decode("utf-8")  # and the output is valid UTF-8
    out = tmp_path / f"report.{report_format}"
    written = subprocess.run(
        [*command, "--out", str(out)], capture_output=True, timeout=120, env=cli_env, check=False
    )
    assert written.returncode == printed.returncode, written.stderr.decode(errors="replace")
    assert b"ud800" in out.read_bytes()
    out.read_bytes().decode("utf-8")
