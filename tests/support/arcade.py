"""Helpers for the arcade tests: run the CLI in-process, find leftover children."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.paths import ARCADE_FAULTY_SERVER, GOLDEN
from tests.support.processes import gone_soon as gone_soon
from tests.support.processes import processes_matching as processes_matching
from whichtool_tui.cli import main

ARCADE_GOLDEN = GOLDEN / "arcade"
ARCADE = Path(sys.executable).parent / "mcp-arcade"  # mcp-arcade 0.2.0, from the test extra
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
    return f"{sys.executable} {ARCADE_FAULTY_SERVER} {mode}"


def atom(receipt: dict[str, Any], atom_id: str) -> dict[str, Any]:
    """One atom of a receipt by id."""
    return next(a for a in receipt["atoms"] if a["id"] == atom_id)


def arcade(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run mcp-arcade itself in ``cwd`` (60 s at most)."""
    return subprocess.run(
        [str(ARCADE), *args], capture_output=True, text=True, cwd=cwd, timeout=60, check=False
    )


_NONCE = re.compile(r"arcade\.unlisted\.[0-9a-f]{12}")


def projection(receipt: dict[str, Any]) -> dict[str, Any]:
    """The stable part of a receipt."""
    projected = {
        "schema_id": receipt["schema_id"],
        "agent_policy": receipt["agent_policy"],
        "scores": receipt["scores"],
        "dataset": receipt["dataset"],
        "atoms": [
            {
                "id": a["id"],
                "result": a["result"],
                "task": a["task"],
                "poison_source": a["poison_source"],
                "authorized_tools": a["authorized_tools"],
                "checks": [{"id": c["id"], "result": c["result"]} for c in a["checks"]],
                "calls": [
                    {k: c[k] for k in ("name", "arguments", "is_error", "sent")} for c in a["calls"]
                ],
                "env_after": a["env_after"],
                "session": {
                    k: a["session"][k]
                    for k in (
                        "framing",
                        "framing_source",
                        "protocol_version_sent",
                        "protocol_version",
                    )
                },
            }
            for a in receipt["atoms"]
        ],
        "wire": [
            [w["atom_id"], w["seq"], w["direction"], w["method"], w["rpc_id"]]
            for w in receipt["wire"]
        ],
        "server_requests": receipt["server_requests"],
    }
    return json.loads(_NONCE.sub("arcade.unlisted.<nonce>", json.dumps(projected)))
