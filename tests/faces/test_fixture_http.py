"""`whichtool-tui fixture --http PORT`: the README's server recipe for its HTTP and SSE examples.

The real binary serves; inspect and a bout reach it over Streamable HTTP (/mcp) and legacy
HTTP+SSE (/sse) on 127.0.0.1.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import binary_path, run_headless
from tests.support.net import free_port
from tests.support.processes import wait_for

pytestmark = pytest.mark.slow  # starts processes or servers


def _accepting(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def served() -> Iterator[int]:
    port = free_port()
    server = subprocess.Popen(
        [binary_path(), "fixture", "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        # start-up is not part of any test's time budget: wait generously for the port
        assert wait_for(lambda: _accepting(port) or server.poll() is not None, 60)
        assert server.poll() is None, server.stderr.read() if server.stderr else ""
        yield port
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


@pytest.mark.parametrize(("path", "flags"), [("/mcp", ()), ("/sse", ("--transport", "sse"))])
def test_inspect_reads_the_fixture_over_both_http_dialects(
    served: int, path: str, flags: tuple[str, ...], cli_env: dict[str, str]
) -> None:
    done = run_headless(
        "inspect", f"http://127.0.0.1:{served}{path}", *flags, "--format", "json", env=cli_env
    )
    assert done.returncode in (0, 1), done.stderr
    assert '"toolCount"' in done.stdout and '"echo"' in done.stdout


def test_a_bout_runs_against_it(served: int, cli_env: dict[str, str], tmp_path: Path) -> None:
    receipt = tmp_path / "http.json"
    done = run_headless(
        "bout",
        "--target",
        "http",
        "--url",
        f"http://127.0.0.1:{served}/mcp",
        "--allow-live",
        "--task",
        "echo",
        "--no-prompt",
        "--sandbox",
        str(tmp_path / "sandbox"),
        "-o",
        str(receipt),
        env=cli_env,
    )
    assert done.returncode == 0, done.stderr
    assert receipt.is_file()
