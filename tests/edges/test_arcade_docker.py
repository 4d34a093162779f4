"""Docker target: the exact argv and the gates run everywhere; live runs need a daemon."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from tests.support.arcade import run_cli
from whichtool_tui.arcade.docker import container_name, refuse_mount_flags, run_argv
from whichtool_tui.errors import WhichtoolError

pytestmark = pytest.mark.slow  # starts processes or servers


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
def test_without_image_the_fixture_build_needs_a_daemon(capsys: Any) -> None:
    code, _out, err = run_cli(["bout", "--target", "docker", "--no-prompt"], capsys)
    assert code == 2 and err.splitlines()[0] == "whichtool-tui: docker: daemon is not reachable"


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
    from tests.support.arcade import bout

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


FAKE_DOCKER = paths.FAKE_DOCKER


@pytest.fixture
def stand_in_docker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `docker` stand-in first on PATH, its state folder beside it (children see it too)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    shutil.copy(FAKE_DOCKER, folder / "docker")
    (folder / "state").mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder / "state"


def docker_bout(tmp_path: Path, capsys: Any, *extra: str) -> dict[str, Any]:
    from tests.support.arcade import bout

    _code, receipt, _ = bout(
        tmp_path,
        capsys,
        "--target", "docker", "--image", "lab:1", "--allow-live",
        "--cmd", f"{sys.executable} -m whichtool_tui.arcade.fixture", "--task", "echo",
        *extra,
    )  # fmt: skip
    return receipt


def test_one_container_per_atom_pinned_snapshotted_and_removed(
    stand_in_docker: Path, tmp_path: Path, capsys: Any
) -> None:
    receipt = docker_bout(tmp_path, capsys)
    assert {a["id"]: a["result"] for a in receipt["atoms"]} == {
        "inspect.tools_list": "pass",
        "poison.follow_through": "fail",
        "temporal.rug_pull": "fail",
        "protocol.unlisted_call": "fail",
    }
    names = [a["session"]["container"]["name"] for a in receipt["atoms"]]
    short = receipt["bout_id"].removeprefix("bout_")[:12]
    assert names == [f"arcade-{short}-{s}" for s in ("inspect", "poison", "rugpull", "unlisted")]
    for item in receipt["atoms"]:
        container = item["session"]["container"]
        assert container["image_id"] == "sha256:" + "a" * 64
        assert container["force_removed"] is True and container["sandbox_method"] == "exec-tar"
        assert container["run_args"][-4:-3] == ["sha256:" + "a" * 64]
    assert (stand_in_docker / "removed.log").read_text().split() == names
    # the poison atom's leak call was withheld (live allow list): the sandbox stayed empty
    poison = next(a for a in receipt["atoms"] if a["id"] == "poison.follow_through")
    assert poison["env_after"] == {"files": {}}
    assert receipt["target"]["image"] == "lab:1" and receipt["target"]["kind"] == "docker"


def test_image_drift_between_atoms_is_an_atom_error(
    stand_in_docker: Path, tmp_path: Path, capsys: Any
) -> None:
    (stand_in_docker / "drift_after").write_text("2")  # the gate and atom 1 see the pinned id
    receipt = docker_bout(tmp_path, capsys, "--atoms", "inspect.tools_list,protocol.unlisted_call")
    first, second = receipt["atoms"]
    assert first["result"] == "pass"
    assert second["result"] == "error"
    assert "drifted" in second["checks"][0]["detail"]
    assert receipt["scores"]["nrp"] == 0.0


def test_without_image_our_fixture_image_is_built_pinned_and_run(
    stand_in_docker: Path, tmp_path: Path, capsys: Any
) -> None:
    """The build argv and context, the id and label gate, and a bout in that image (the stand-in
    runs the Dockerfile's ENTRYPOINT over the unpacked context)."""
    from tests.support.arcade import bout
    from whichtool_tui import __version__

    _code, receipt, _ = bout(tmp_path, capsys, "--target", "docker", "--atoms", "all")
    tag = f"whichtool-tui-fixture:{__version__}"
    assert json.loads((stand_in_docker / "build.log").read_text()) == [
        "docker", "build", "-q", "--provenance=false", "--sbom=false", "-t", tag, "-",
    ]  # fmt: skip
    names = json.loads((stand_in_docker / "context.json").read_text())
    assert names[0] == "Dockerfile" and "whichtool_tui/arcade/fixture.py" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert receipt["target"]["image"] == tag and receipt["allow_live"] is False
    results = {a["id"]: a["result"] for a in receipt["atoms"]}
    assert results == {
        "inspect.tools_list": "pass",
        **{atom_id: "fail" for atom_id in list(results)[1:]},
    }
    for item in receipt["atoms"]:
        container = item["session"]["container"]
        assert container["fixture_image"] is True and container["image_id"] == "sha256:" + "f" * 64
        assert container["run_args"][-1] == "sha256:" + "f" * 64  # no command: the entrypoint
    poison = next(a for a in receipt["atoms"] if a["id"] == "poison.follow_through")
    assert poison["env_after"] == {"files": {"leak.txt": "fixture-secret\n"}}  # no allow list
    removed = (stand_in_docker / "removed.log").read_text().split()
    short = receipt["bout_id"].removeprefix("bout_")[:12]
    assert f"arcade-{short}-identity-b" in removed  # the bait switch's second container


def test_build_context_is_deterministic() -> None:
    from whichtool_tui.arcade.docker import build_context

    assert build_context() == build_context()


@pytest.mark.skipif(not daemon_up(), reason="no Docker daemon (`docker version` fails)")
def test_live_fixture_image_bout(tmp_path: Any, capsys: Any) -> None:
    from tests.support.arcade import bout

    _code, receipt, _ = bout(tmp_path, capsys, "--target", "docker", "--agent", "task-only")
    assert all(a["session"]["container"]["fixture_image"] for a in receipt["atoms"])
