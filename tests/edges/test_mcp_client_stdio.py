"""tools/list over real stdio: the public reference servers and a deliberately bad server.

Every test that starts a server checks afterwards that neither it nor anything it started is
still running.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import reference_servers
from tests.support.bad_server import bad_server_spec
from tests.support.paths import MISBEHAVING_SERVER as BAD_SERVER
from tests.support.paths import REPO
from tests.support.processes import read_pidfile, wait_gone
from whichtool_tui.config import Settings, parse_config
from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.mcp_client.sessions import McpSession
from whichtool_tui.targets import TargetSpec, fetch_listing, load_listing, resolve_target

pytestmark = pytest.mark.slow  # starts processes or servers


async def _listing_with_pid(spec: TargetSpec) -> tuple[list[Any], int]:
    async with McpSession(spec, timeout=20) as session:
        pid = session.pid
        assert pid is not None
        page = await session.list_tools_page(None)
        assert session.server_name
    return list(page["tools"]), pid


def _names(tools: list[Any]) -> list[str]:
    return sorted(tool["name"] for tool in tools)


async def test_time_server_over_stdio() -> None:
    command = reference_servers.time_command()
    if command is None:
        pytest.skip("mcp-server-time is not installed")
    tools, pid = await _listing_with_pid(resolve_target(command, "stdio", Settings()))
    assert _names(tools) == ["convert_time", "get_current_time"]
    assert all("inputSchema" in tool for tool in tools)
    assert wait_gone(pid)


async def test_git_server_over_stdio(tmp_path: Path) -> None:
    command = reference_servers.git_command(reference_servers.make_git_repo(tmp_path / "repo"))
    if command is None:
        pytest.skip("mcp-server-git or git is not installed")
    tools, pid = await _listing_with_pid(resolve_target(command, "stdio", Settings()))
    assert len(tools) == 12
    assert {"git_status", "git_log", "git_diff"} <= set(_names(tools))
    assert wait_gone(pid)


async def test_everything_server_over_stdio() -> None:
    command = reference_servers.everything_command()
    if command is None:
        pytest.skip("npm server-everything is not installed")
    tools, pid = await _listing_with_pid(resolve_target(command, "stdio", Settings()))
    assert len(tools) == 13
    assert "echo" in _names(tools)
    assert wait_gone(pid)


async def test_filesystem_server_over_stdio(tmp_path: Path) -> None:
    command = reference_servers.filesystem_command(tmp_path)
    if command is None:
        pytest.skip("npm server-filesystem is not installed")
    listing = await fetch_listing(resolve_target(command, "stdio", Settings()), timeout=20)
    assert listing.transport == "stdio"
    assert listing.server_name == "secure-filesystem-server"
    assert len(listing.raw_tools) == 14
    assert "read_text_file" in _names(listing.raw_tools)


def test_load_listing_is_synchronous_and_keeps_entries_raw(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    listing = load_listing(bad_server_spec("malformed", pidfile), timeout=10)
    assert listing.raw_tools == [
        {"name": "good", "description": "Fine", "inputSchema": {"type": "object"}},
        "not an object",
        {"description": "no name", "inputSchema": {"type": "object"}},
        {"name": "weird", "description": 42, "extra": {"kept": True}},
    ]
    assert listing.server_name == "misbehaving"
    assert listing.protocol_version == "2025-06-18"
    assert all(wait_gone(pid) for pid in read_pidfile(pidfile))


def test_pagination_over_stdio_adds_info(tmp_path: Path) -> None:
    listing = load_listing(bad_server_spec("paged"), timeout=10)
    assert [tool["name"] for tool in listing.raw_tools] == ["tool_0", "tool_1", "tool_2"]
    assert [(d.code, d.severity) for d in listing.diagnostics] == [("mcp/paginated", "info")]


def test_child_environment_is_an_allowlist_plus_config_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-never-reach-the-server")
    monkeypatch.setenv("WHICHTOOL_HTTP_AUTHORIZATION", "Bearer nope")
    monkeypatch.setenv("LANG", "C.UTF-8")
    listing = load_listing(bad_server_spec("env", tmp_path / "pids"), timeout=10)
    seen = set(listing.raw_tools[0]["description"].split())
    assert "OPENAI_API_KEY" not in seen
    assert "WHICHTOOL_HTTP_AUTHORIZATION" not in seen
    assert {"PATH", "LANG", "MISBEHAVE_PIDFILE"} <= seen
    allowed = set(reference_servers_allowlist()) | {"MISBEHAVE_PIDFILE"}
    # Python may add a few of its own at start-up; nothing else from our environment.
    assert seen - allowed <= {"LC_CTYPE", "PYTHONIOENCODING"}


def reference_servers_allowlist() -> tuple[str, ...]:
    from whichtool_tui.mcp_client.command import ENV_ALLOWLIST

    return ENV_ALLOWLIST


@pytest.mark.parametrize(
    ("mode", "code", "in_hint"),
    [
        ("exit", "stdio/exited-early", "fatal: missing configuration file"),
        ("garbage", "stdio/invalid-json", "misbehaving server starting"),
        ("not-jsonrpc", "mcp/invalid-message", None),
        ("huge", "mcp/oversize", None),
        ("error", "mcp/server-error", None),
        ("no-tools", "mcp/method-not-found", None),
        ("loop", "mcp/cursor-loop", None),
        ("endless", "mcp/too-many-pages", None),
    ],
)
def test_bad_stdio_servers_get_named_errors(
    tmp_path: Path, mode: str, code: str, in_hint: str | None
) -> None:
    pidfile = tmp_path / "pids"
    with pytest.raises(WhichtoolError) as caught:
        load_listing(bad_server_spec(mode, pidfile), timeout=10)
    error = caught.value
    assert error.code == code
    assert error.exit_code == ExitCode.ERROR
    assert "\n" not in error.message
    assert "Traceback" not in error.message
    if in_hint is not None:
        assert error.hint is not None and in_hint in error.hint
    assert all(wait_gone(pid) for pid in read_pidfile(pidfile))


@pytest.mark.parametrize(("mode", "method"), [("hang", "initialize"), ("hang-tools", "tools/list")])
def test_hung_server_times_out_by_name(tmp_path: Path, mode: str, method: str) -> None:
    pidfile = tmp_path / "pids"
    with pytest.raises(WhichtoolError) as caught:
        load_listing(bad_server_spec(mode, pidfile), timeout=0.5)
    assert caught.value.code == "mcp/timeout"
    assert method in caught.value.message
    assert "0.5 s" in caught.value.message
    assert all(wait_gone(pid) for pid in read_pidfile(pidfile))


def test_exit_code_and_stderr_tail_are_reported(tmp_path: Path) -> None:
    with pytest.raises(WhichtoolError) as caught:
        load_listing(bad_server_spec("exit"), timeout=10)
    assert "exit code 3" in caught.value.message
    assert caught.value.hint is not None
    assert caught.value.hint.count("|") <= 4


def test_noisy_stderr_neither_blocks_nor_floods_the_hint(tmp_path: Path) -> None:
    listing = load_listing(bad_server_spec("stderr-noise"), timeout=10)
    assert [tool["name"] for tool in listing.raw_tools] == ["alpha", "beta"]


def test_command_not_found_is_named() -> None:
    spec = resolve_target("definitely-not-a-command-xyz --flag", "stdio", Settings())
    with pytest.raises(WhichtoolError) as caught:
        load_listing(spec, timeout=5)
    assert caught.value.code == "stdio/command-not-found"
    assert "definitely-not-a-command-xyz" in caught.value.message


def test_missing_working_directory_is_named(tmp_path: Path) -> None:
    settings = parse_config(
        {
            "target": {
                "transport": "stdio",
                "command": sys.executable,
                "cwd": str(tmp_path / "nowhere"),
            }
        },
        "test",
    )
    with pytest.raises(WhichtoolError) as caught:
        load_listing(resolve_target(None, None, settings), timeout=5)
    assert caught.value.code == "target/invalid-cwd"


def test_command_is_not_run_through_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    line = f"{shlex.quote(sys.executable)} {shlex.quote(str(BAD_SERVER))} ok ; touch {marker}"
    listing = load_listing(resolve_target(line, "stdio", Settings()), timeout=10)
    assert [tool["name"] for tool in listing.raw_tools] == ["alpha", "beta"]
    assert not marker.exists()


def test_server_ignoring_stdin_close_is_terminated(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    listing = load_listing(bad_server_spec("slow-exit", pidfile), timeout=10)
    assert len(listing.raw_tools) == 2
    assert all(wait_gone(pid, seconds=1.0) for pid in read_pidfile(pidfile))


def test_ctrl_c_while_waiting_leaves_no_server_behind(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    pidfile = tmp_path / "pids"
    code = (
        # A test runner started in the background inherits an ignored SIGINT; undo that.
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from tests.support.bad_server import bad_server_spec\n"
        "from whichtool_tui.targets import load_listing\n"
        "from pathlib import Path\n"
        "try:\n"
        f"    load_listing(bad_server_spec('hang', Path({str(pidfile)!r})), timeout=60)\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(130)\n"
    )
    client = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while not (pidfile.exists() and len(pidfile.read_text().split()) == 2):
            assert time.monotonic() < deadline, "the server never started"
            time.sleep(0.05)
        time.sleep(0.3)
        client.send_signal(signal.SIGINT)
        assert client.wait(timeout=20) == 130
        assert all(wait_gone(pid) for pid in read_pidfile(pidfile))
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        for pid in read_pidfile(pidfile) if pidfile.exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_notifications_and_foreign_ids_are_skipped() -> None:
    listing = load_listing(bad_server_spec("chatty"), timeout=10)
    assert [tool["name"] for tool in listing.raw_tools] == ["alpha", "beta"]
