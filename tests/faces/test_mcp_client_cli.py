"""Bad targets through the real binary: exit 2, one message line plus a hint, no traceback, and
no server process left behind."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_headless
from tests.support.mcp_http_server import serve
from tests.support.net import RunningServer
from tests.support.paths import MISBEHAVING_SERVER as BAD_SERVER
from tests.support.processes import read_pidfile, wait_gone
from whichtool_tui.mcp_client.auth import AUTH_ENV, ORIGIN_ENV

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "Bearer cli-secret-token-4711"


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with serve() as running:
        yield running


def run_inspect(
    args: list[str], cwd: Path, env: dict[str, str], extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_headless("inspect", *args, cwd=cwd, env={**env, **(extra_env or {})})


def assert_one_line_error(result: subprocess.CompletedProcess[str], needle: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.rstrip("\n").split("\n")
    assert 1 <= len(lines) <= 2, result.stderr
    assert lines[0].startswith("whichtool-tui: ")
    assert needle in lines[0], result.stderr
    if len(lines) == 2:
        assert lines[1].startswith("  ")


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "Cannot read snapshot"),
        ('{"tools": [', "is not valid JSON"),
        ('{"items": []}', "no tool list in a recognised shape"),
        (
            '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "x"}}',
            "JSON-RPC error",
        ),
    ],
)
def test_bad_snapshots(
    tmp_path: Path, cli_env: dict[str, str], content: str | None, needle: str
) -> None:
    if content is not None:
        (tmp_path / "s.json").write_text(content, encoding="utf-8")
    assert_one_line_error(run_inspect(["s.json"], tmp_path, cli_env), needle)


def _config_target(folder: Path, mode: str) -> Path:
    pidfile = folder / "pids"
    target: dict[str, Any] = {
        "transport": "stdio",
        "command": sys.executable,
        "args": [str(BAD_SERVER), mode],
        "env": {"MISBEHAVE_PIDFILE": str(pidfile)},
    }
    (folder / "whichtool.config.json").write_text(json.dumps({"target": target}), "utf-8")
    return pidfile


@pytest.mark.parametrize(
    ("mode", "needle"),
    [
        ("exit", "closed its stdout before answering initialize (exit code 3)"),
        ("garbage", "not JSON on stdout"),
        ("huge", "larger than 16 MiB"),
    ],
)
def test_bad_stdio_servers(tmp_path: Path, cli_env: dict[str, str], mode: str, needle: str) -> None:
    pidfile = _config_target(tmp_path, mode)
    assert_one_line_error(run_inspect([], tmp_path, cli_env), needle)
    assert all(wait_gone(pid) for pid in read_pidfile(pidfile))


def test_stderr_tail_is_in_the_hint(tmp_path: Path, cli_env: dict[str, str]) -> None:
    _config_target(tmp_path, "exit")
    result = run_inspect([], tmp_path, cli_env)
    assert "fatal: missing configuration file" in result.stderr.split("\n")[1]


def test_command_not_found(tmp_path: Path, cli_env: dict[str, str]) -> None:
    result = run_inspect(["--transport", "stdio", "no-such-server-xyz"], tmp_path, cli_env)
    assert_one_line_error(result, "Command not found: no-such-server-xyz")


def test_ambiguous_target(tmp_path: Path, cli_env: dict[str, str]) -> None:
    assert_one_line_error(run_inspect(["node server.js"], tmp_path, cli_env), "Cannot tell")


@pytest.mark.parametrize(
    ("path", "needle"),
    [
        ("/redirect/mcp", "redirects are not followed"),
        ("/auth/mcp", "HTTP 401"),
        ("/forbidden/mcp", "HTTP 403"),
        ("/huge/mcp", "larger than 16 MiB"),
    ],
)
def test_bad_http_answers(
    tmp_path: Path, cli_env: dict[str, str], server: RunningServer, path: str, needle: str
) -> None:
    result = run_inspect([server.url(path)], tmp_path, cli_env)
    assert_one_line_error(result, needle)
    if "HTTP 40" in needle:
        assert AUTH_ENV in result.stderr and ORIGIN_ENV in result.stderr


def test_credential_for_plain_http_origin_is_refused(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    extra = {AUTH_ENV: SECRET, ORIGIN_ENV: "http://192.0.2.7"}
    result = run_inspect(["http://192.0.2.7/mcp"], tmp_path, cli_env, extra)
    assert_one_line_error(result, "Refusing to send an Authorization header over plain HTTP")
    assert "cli-secret-token-4711" not in result.stderr


def test_url_secrets_are_redacted_in_errors(tmp_path: Path, cli_env: dict[str, str]) -> None:
    result = run_inspect(
        ["http://user:hunter2@127.0.0.1:1/mcp?api_key=abcdef123456"], tmp_path, cli_env
    )
    # Userinfo is refused outright (it would travel as Basic auth); the message is redacted.
    assert_one_line_error(
        result,
        "Refusing a target URL with a user name or password in it: "
        "http://***@127.0.0.1:1/mcp?api_key=redacted",
    )
    assert "hunter2" not in result.stderr and "abcdef123456" not in result.stderr


def test_legacy_sse_end_to_end(
    tmp_path: Path, cli_env: dict[str, str], server: RunningServer
) -> None:
    result = run_inspect(
        ["--transport", "sse", server.url("/sse"), "--format", "json"], tmp_path, cli_env
    )
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["target"]["transport"] == "legacy-sse"
    assert sorted(tool["name"] for tool in report["surface"]["tools"]) == ["add", "shout"]
