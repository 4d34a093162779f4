"""Every command's --help example works after any install (issue 30, item 2): in an empty folder
with only the installed binary, `demo init` writes the demo and each example then runs, in the
order a newcomer would meet them, on the files `demo init` wrote or an earlier example produced.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.cli import binary_path
from whichtool_tui.cli import EXAMPLES, PROG

pytestmark = pytest.mark.slow  # runs the binary many times, a bout and two servers

# The order a newcomer meets them: what one writes, a later one reads.
ORDER = (
    "",
    "inspect",
    "tasks",
    "tasks lint",
    "tasks mutate",
    "run",
    "report",
    "diff",
    "surface-diff",
    "improve",
    "cache",
    "bout",
    "atoms",
    "receipt",
    "tape",
    "dataset",
    "open",
    "mcp",
)
# Examples that need something no empty folder has: a model server, or a free port 8000.
NEEDS_A_MODEL = ("tasks generate",)
SERVES = ("fixture",)


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        NO_COLOR="1",
        XDG_CACHE_HOME=str(folder / "cache"),
        WHICHTOOL_TUI_STATE_DIR=str(folder / "state"),
    )
    return env


def _argv(example: str) -> list[str]:
    words = shlex.split(example.split("&&")[0])
    assert words[0] == PROG
    return [binary_path(), *words[1:]]


def _run(example: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return _bash(_argv(example), cwd, env)


def _bash(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_example_is_covered() -> None:
    assert set(EXAMPLES) == {*ORDER, *NEEDS_A_MODEL, *SERVES, "demo", "demo init"}


def test_every_help_example_runs_in_an_empty_folder(tmp_path: Path) -> None:
    env = _env(tmp_path)
    made = _run(EXAMPLES["demo init"], tmp_path, env)
    assert made.returncode == 0, made.stderr
    tour = tmp_path / "tour"
    assert (tour / "demo-lab.json").is_file()
    for key in ORDER:
        done = _run(EXAMPLES[key], tour, env)
        assert done.returncode == 0, f"`{EXAMPLES[key]}` exited {done.returncode}: {done.stderr}"
        assert "Traceback" not in done.stderr
    for written in ("inspect.json", "variants.yaml", "run.json", "run.md", "tape.json"):
        assert (tour / written).is_file(), written
    assert (tour / "descriptions.patch.json").is_file()
    assert (tour / "dataset" / "manifest.json").is_file()


def test_the_model_example_fails_only_for_want_of_a_model_server(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert _run(EXAMPLES["demo init"], tmp_path, env).returncode == 0
    done = _run(EXAMPLES["tasks generate"], tmp_path / "tour", env)
    if done.returncode == 0:  # an ollama server happens to run here
        return
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "could not be reached" in done.stderr or "refused" in done.stderr.lower()


def test_the_fixture_example_serves(tmp_path: Path) -> None:
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 8000)) == 0:
            pytest.skip("port 8000 is taken on this machine")
    env = _env(tmp_path)
    server = subprocess.Popen(
        _argv(EXAMPLES["fixture"]),
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120  # generous: start-up on a loaded machine
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", 8000)) == 0:
                    break
            time.sleep(0.2)
        else:
            pytest.fail("the fixture never listened on 8000")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_demo_init_refuses_to_overwrite_and_names_the_file(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert _run(f"{PROG} demo init tour", tmp_path, env).returncode == 0
    edited = tmp_path / "tour" / "demo-lab.tasks.yaml"
    edited.write_text("mine\n", encoding="utf-8")
    again = _run(f"{PROG} demo init tour", tmp_path, env)
    assert again.returncode == 2 and again.stderr.count("\n") <= 2
    assert "demo-lab.json already exists" in again.stderr and "--force" in again.stderr
    assert edited.read_text(encoding="utf-8") == "mine\n"  # nothing was written
    forced = _run(f"{PROG} demo init tour --force", tmp_path, env)
    assert forced.returncode == 0 and edited.read_text(encoding="utf-8") != "mine\n"
    (tmp_path / "file").write_text("x", encoding="utf-8")
    not_folder = _run(f"{PROG} demo init file", tmp_path, env)
    assert not_folder.returncode == 2 and "is not a folder" in not_folder.stderr


def _tour() -> list[str]:
    """The README's `# tour` block, line by line."""
    from tests.support.paths import REPO

    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("# tour") + 1
    end = lines.index("```", start)
    return [line for line in lines[start:end] if line.strip()]


def test_the_readme_tour_runs_verbatim_in_an_empty_folder(tmp_path: Path) -> None:
    env = _env(tmp_path)
    env["PATH"] = f"{Path(binary_path()).parent}{os.pathsep}{env.get('PATH', '')}"
    tour = _tour()
    assert tour[0].startswith(f"{PROG} demo init")
    covered = " ".join(tour)
    for part in ("inspect", "--tasks", "--host", " run ", " report ", "diff", " bout ", "receipt"):
        assert part in covered, part
    for line in tour:
        done = _bash(["bash", "--noprofile", "--norc", "-c", line], tmp_path, env)
        assert done.returncode == 0, f"`{line}` exited {done.returncode}: {done.stderr}"
        assert "Traceback" not in done.stderr
