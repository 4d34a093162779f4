"""Command lines that start the four public reference MCP servers over stdio.

The npm servers live in tests/node_servers/node_modules (installed by CI); the PyPI ones are
console scripts beside the running interpreter. Each helper returns None when its server is not
installed, so tests can skip cleanly.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.net import free_port
from tests.support.paths import NODE_SERVERS, SUPPORT

NODE_PACKAGES = NODE_SERVERS / "node_modules" / "@modelcontextprotocol"


def _node_entry(package: str) -> Path | None:
    entry = NODE_PACKAGES / package / "dist" / "index.js"
    if shutil.which("node") is None or not entry.is_file():
        return None
    return entry


def _script(name: str) -> Path | None:
    candidate = Path(sys.executable).parent / name
    return candidate if candidate.is_file() else None


def everything_command() -> str | None:
    """The npm ``server-everything`` in stdio mode."""
    entry = _node_entry("server-everything")
    return None if entry is None else shlex.join(["node", str(entry), "stdio"])


def filesystem_command(allowed_dir: Path) -> str | None:
    """The npm ``server-filesystem``, allowed to see ``allowed_dir`` only."""
    entry = _node_entry("server-filesystem")
    return None if entry is None else shlex.join(["node", str(entry), str(allowed_dir)])


def time_command() -> str | None:
    """PyPI ``mcp-server-time`` pinned to UTC."""
    script = _script("mcp-server-time")
    return None if script is None else shlex.join([str(script), "--local-timezone", "UTC"])


def make_git_repo(folder: Path) -> Path:
    """An existing repository with one commit, which ``mcp-server-git`` requires."""
    folder.mkdir(parents=True, exist_ok=True)
    run = {"cwd": folder, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **run)  # type: ignore[call-overload]
    (folder / "README.md").write_text("test repository\n", encoding="utf-8")
    subprocess.run(["git", "add", "README.md"], **run)  # type: ignore[call-overload]
    subprocess.run(  # type: ignore[call-overload]
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "init"],
        **run,
    )
    return folder


def git_command(repository: Path) -> str | None:
    """PyPI ``mcp-server-git`` on ``repository``."""
    script = _script("mcp-server-git")
    if script is None or shutil.which("git") is None:
        return None
    return shlex.join([str(script), "--repository", str(repository)])


LOOPBACK_PRELOAD = SUPPORT / "loopback_only.cjs"


@contextmanager
def everything_over_http(mode: str) -> Iterator[str | None]:
    """Run npm ``server-everything`` in ``streamableHttp`` or ``sse`` mode on 127.0.0.1.

    Yields the base URL (``http://127.0.0.1:PORT``), or None when the server is not installed.
    The process is stopped, and waited for, when the block ends.
    """
    entry = _node_entry("server-everything")
    if entry is None:
        yield None
        return
    port = free_port()
    process = subprocess.Popen(
        ["node", "--require", str(LOOPBACK_PRELOAD), str(entry), mode],
        env={**os.environ, "PORT": str(port)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server-everything {mode} did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
