"""Every refused bout flag is two stderr lines, the message and an indented hint, exit 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import run_cli

pytestmark = pytest.mark.slow  # starts processes or servers

FIXTURE = ["bout", "--target", "fixture", "--no-prompt"]
DOCKER = ["bout", "--target", "docker", "--no-prompt"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*FIXTURE, "--args", "{bad"], "--args needs --task"),
        ([*FIXTURE, "--task", "echo", "--args", "{bad"], "--args is not valid JSON"),
        ([*FIXTURE, "--task", "echo", "--args", "[1]"], "--args must be a JSON object"),
        ([*FIXTURE, "--atoms", "nope"], "--atoms: unknown atom id (nope)"),
        ([*FIXTURE, "--atoms", ","], "--atoms: nothing to run"),
        ([*FIXTURE, "--timeout", "0"], "--timeout must be a positive"),
        ([*FIXTURE, "--agent", "shouty"], "--agent must be naive"),
        ([*FIXTURE, "--url", "http://x"], "do not apply to the fixture target"),
        ([*FIXTURE, "--n-clean", "-3"], "--n-clean -3: must be between 0 and 1000"),
        ([*FIXTURE, "--n-clean", "100000"], "--n-clean 100000: must be between 0 and 1000"),
        (
            ["bout", "--target", "http", "--url", "ftp://x", "--allow-live", "--no-prompt"],
            "not an http:// or https:// URL",
        ),
        (["bout", "--target", "http", "--allow-live", "--no-prompt"], "needs --url"),
        (["bout", "--target", "stdio", "--no-prompt"], "the stdio target needs --cmd"),
        ([*DOCKER, "--image", "x"], "needs --allow-live: a tag or label is not proof"),
        ([*DOCKER, "--cmd", "node x.js"], "--cmd needs --image on a docker target"),
        ([*DOCKER, "--bind", "/a:/b"], "a bind or extra docker flag needs --allow-live"),
        ([*DOCKER, "--image", "x", "--allow-live"], "docker: daemon is not reachable"),
        (["receipt", "r.json", "--score"], "--score needs --timeline"),
    ],
)
def test_refusals_are_a_message_and_a_hint(
    argv: list[str],
    message: str,
    capsys: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No docker client on PATH: the daemon probe fails the same way on every machine.
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)  # a flag wrongly accepted would make its sandbox here
    code, out, err = run_cli(argv, capsys)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("whichtool-tui: ") and message in lines[0]
    assert lines[1].startswith("  ") and lines[1].strip()
    assert "Traceback" not in err and out == ""
