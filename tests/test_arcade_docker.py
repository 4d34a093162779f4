"""Docker target: the exact argv and the gates run everywhere; live runs need a daemon."""

from __future__ import annotations

import argparse
import subprocess
from typing import Any

import pytest

from tests.arcade_support import run_cli
from whichtool_tui.arcade.docker import container_name, refuse_mount_flags, run_argv
from whichtool_tui.errors import WhichtoolError


def daemon_up() -> bool:
    try:
        return (
            subprocess.run(["docker", "version"], capture_output=True, timeout=20).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


def test_run_argv_is_exact_and_forwards_env_by_name() -> None:
    argv = run_argv(
        name=container_name("bout_0123456789abcdef", "poison"),
        image="sha256:feed",
        env_keys=["ARCADE_UNLISTED", "ARCADE_LEAK_PATH", "ARCADE_POISON"],
        binds=["/data:/data:ro"],
        docker_args=["--user", "1000"],
        command=["node", "server.js"],
    )
    assert argv == [
        "docker", "run", "-i", "--name", "arcade-0123456789ab-poison", "--rm",
        "--network", "none", "--read-only", "--tmpfs", "/tmp", "--tmpfs", "/sandbox",
        "--memory", "256m", "--pids-limit", "128", "--cpus", "1",
        "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
        "-e", "ARCADE_POISON", "-e", "ARCADE_UNLISTED",
        "-e", "ARCADE_LEAK_PATH=/sandbox/leak.txt",
        "-v", "/data:/data:ro", "--user", "1000", "sha256:feed", "node", "server.js",
    ]  # fmt: skip


@pytest.mark.parametrize("flag", ["-v", "--volume=/x:/y", "--mount", "--volumes-from"])
def test_mount_flags_are_refused_in_docker_arg(flag: str) -> None:
    with pytest.raises(WhichtoolError, match="use --bind SRC:DST"):
        refuse_mount_flags(["--user", "1", flag])


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--cmd", "node x.js"], "--cmd needs --image on a docker target"),
        (["--image", "mcp/thing:latest"], "a tag or label is not proof"),
        (["--docker-arg=--volume=/a:/b", "--image", "x", "--allow-live"], "use --bind"),
        (["--bind", "/a:/b"], "a bind or extra docker flag needs --allow-live"),
    ],
)
def test_gates_refuse_before_any_docker_call(flags: list[str], message: str, capsys: Any) -> None:
    code, _out, err = run_cli(["bout", "--target", "docker", "--no-prompt", *flags], capsys)
    assert code == 2 and message in err


@pytest.mark.skipif(daemon_up(), reason="a daemon answers here; the unreachable path is moot")
def test_unreachable_daemon_is_a_named_error(capsys: Any) -> None:
    code, _out, err = run_cli(
        ["bout", "--target", "docker", "--image", "x", "--allow-live", "--no-prompt"], capsys
    )
    assert code == 2 and "docker: daemon is not reachable" in err


@pytest.mark.skipif(not daemon_up(), reason="no Docker daemon (`docker version` fails)")
def test_live_docker_bout_leaves_no_container(tmp_path: Any, capsys: Any) -> None:
    image = "python:3.12-slim"
    pulled = subprocess.run(["docker", "image", "inspect", image], capture_output=True)
    if pulled.returncode != 0:
        pytest.skip(f"{image} is not present locally")
    from tests.arcade_support import bout

    _code, receipt, _ = bout(
        tmp_path,
        capsys,
        "--target", "docker", "--image", image, "--allow-live",
        "--cmd", "python -c pass", "--atoms", "inspect.tools_list",
    )  # fmt: skip
    assert receipt["atoms"][0]["session"]["container"]["run_args"][:3] == ["docker", "run", "-i"]
    left = subprocess.run(
        ["docker", "ps", "-a", "--filter", "name=arcade-", "-q"], capture_output=True, text=True
    )
    assert left.stdout.strip() == ""


def test_docker_args_namespace_round_trip() -> None:
    from whichtool_tui.arcade.docker import prepare_docker

    args = argparse.Namespace(docker_arg=[], cmd=["x"], image=None, allow_live=False, bind=[])
    with pytest.raises(WhichtoolError, match="--cmd needs --image"):
        prepare_docker(args)
