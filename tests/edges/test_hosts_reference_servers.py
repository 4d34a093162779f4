"""The public reference servers, started for real over stdio, through every host profile.

The expected verdicts are what this version of the profiles says about the servers as installed
by the test setup (npm server-everything and server-filesystem, PyPI mcp-server-git and
mcp-server-time); a profile or server change shows here first.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.support import reference_servers as servers
from tests.support.cli import run_headless

pytestmark = pytest.mark.slow

HOSTS = (
    "anthropic", "chatgpt-apps", "claude-code", "claude-directory", "gemini",
    "gemini-json-schema", "mcp-spec", "mcp-typescript-sdk", "openai", "openai-strict",
    "vscode-copilot",
)  # fmt: skip

# server -> (tool count, {host: (compatible, tools seen, {rule: findings})}); hosts not listed
# are compatible with every tool seen and no finding
EXPECTED: dict[str, tuple[int, dict[str, tuple[bool, int, dict[str, int]]]]] = {
    "everything": (13, {
        "gemini": (False, 0, {"gemini/unknown-keywords": 13}),
        "openai-strict": (False, 0, {"openai-strict/strict-schema": 13}),
    }),
    "git": (12, {
        "claude-directory": (False, 12, {"claude-directory/title": 12}),
        "openai-strict": (False, 0, {"openai-strict/strict-schema": 12}),
    }),
    "time": (2, {
        "claude-directory": (False, 2, {"claude-directory/title": 2}),
        "openai-strict": (False, 0, {"openai-strict/strict-schema": 2}),
    }),
    "filesystem": (14, {
        "chatgpt-apps": (False, 14, {"chatgpt-apps/three-hints": 10}),
        "gemini": (False, 0, {"gemini/unknown-keywords": 14}),
        "openai-strict": (False, 0, {"openai-strict/strict-schema": 14}),
    }),
}  # fmt: skip


def _command(server: str, tmp_path: Path) -> str | None:
    if server == "everything":
        return servers.everything_command()
    if server == "git":
        return servers.git_command(servers.make_git_repo(tmp_path / "repo"))
    if server == "time":
        return servers.time_command()
    return servers.filesystem_command(tmp_path)


@pytest.mark.parametrize("server", sorted(EXPECTED))
def test_reference_server_through_every_profile(
    server: str, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    command = _command(server, tmp_path)
    if command is None:
        pytest.skip(f"{server} is not installed")
    done = run_headless(
        "inspect", "--transport", "stdio", command, "--host", "all", "--format", "json",
        env=cli_env,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    tool_count, deviations = EXPECTED[server]
    assert report["surface"]["toolCount"] == tool_count
    got = {
        verdict["host"]: (
            verdict["compatible"],
            verdict["readiness"]["toolsSeen"],
            dict(Counter(finding["rule"] for finding in verdict["findings"])),
        )
        for verdict in report["hosts"]
    }
    assert tuple(got) == HOSTS
    expected = {host: deviations.get(host, (True, tool_count, {})) for host in HOSTS}
    assert got == expected
