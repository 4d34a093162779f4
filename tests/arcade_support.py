"""Helpers for the arcade tests: run the CLI in-process, find leftover children."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.support.processes import gone_soon as gone_soon
from tests.support.processes import processes_matching as processes_matching
from whichtool_tui.cli import main

TESTS = Path(__file__).resolve().parent
FAULTY = TESTS / "arcade_faulty_server.py"
FIXTURE_CMD = f"{sys.executable} -m whichtool_tui.arcade.fixture"
ECHO_INSPECT_ONLY = ("--task", "echo", "--atoms", "inspect.tools_list")


def run_cli(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    """Run the CLI in this process and return (exit code, stdout, stderr)."""
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def bout(
    tmp_path: Path, capsys: Any, *flags: str, name: str = "r.json"
) -> tuple[int, dict[str, Any], str]:
    """A headless bout writing its receipt under tmp_path; returns (code, receipt, stdout)."""
    out = tmp_path / name
    argv = ["bout", "--no-prompt", "--sandbox", str(tmp_path / "sandbox"), "-o", str(out), *flags]
    code, stdout, stderr = run_cli(argv, capsys)
    assert out.exists(), stderr
    return code, json.loads(out.read_text(encoding="utf-8")), stdout


def fixture_bout(
    tmp_path: Path, capsys: Any, *flags: str, name: str = "r.json"
) -> tuple[int, dict[str, Any], str]:
    """A bout against the bundled fixture target."""
    return bout(tmp_path, capsys, "--target", "fixture", *flags, name=name)


def live_bout(
    tmp_path: Path, capsys: Any, cmd: str, *flags: str, name: str = "r.json"
) -> tuple[int, dict[str, Any], str]:
    """A bout against a stdio command line, with --allow-live."""
    argv = ("--target", "stdio", "--cmd", cmd, "--allow-live")
    return bout(tmp_path, capsys, *argv, *flags, name=name)


def http_bout(
    tmp_path: Path, capsys: Any, url: str, *flags: str
) -> tuple[int, dict[str, Any], str]:
    """A bout against a Streamable HTTP endpoint, with --allow-live."""
    return bout(tmp_path, capsys, "--target", "http", "--url", url, "--allow-live", *flags)


def results(receipt: dict[str, Any]) -> dict[str, str]:
    """Atom id -> result."""
    return {a["id"]: a["result"] for a in receipt["atoms"]}


def time_server() -> Path:
    """The public reference time server's binary (the test is skipped without it)."""
    import pytest

    server = Path(sys.executable).parent / "mcp-server-time"
    if not server.exists():
        pytest.skip("mcp-server-time is not installed")
    return server


def faulty_cmd(mode: str) -> str:
    """The --cmd line of the faulty server in a given mode."""
    return f"{sys.executable} {FAULTY} {mode}"


def atom(receipt: dict[str, Any], atom_id: str) -> dict[str, Any]:
    """One atom of a receipt by id."""
    return next(a for a in receipt["atoms"] if a["id"] == atom_id)
