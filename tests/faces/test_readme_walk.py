"""Every shell example in README.md and the docs pages it links to, run as written, page by
page in reading order, in a fresh copy of the repository's tracked files (what a clone has) with
the venv at `.venv`.

Each line of every ```bash block, and each whole `whichtool-tui --no-ui ...` command quoted in
the prose, runs under `bash` in that folder; files it writes are there for
the lines after it, as for a reader going down the page. A line ending in `&` starts in the
background (the HTTP server recipe) and is stopped at the end. A line whose comment says
`# exit N` must exit N; every other line must exit 0. The few lines that cannot run here are
listed in SKIPPED with the reason; nothing else is left out.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.support.processes import wait_for

README = REPO / "README.md"
# The pages whose examples are walked, in the order a reader meets them (README links them).
PAGES = (
    README,
    *(
        REPO / "docs" / name
        for name in (
            "commands.md",
            "inspect.md",
            "run.md",
            "discovery.md",
            "diff.md",
            "improve.md",
            "bouts.md",
            "mcp-server.md",
            "github-action.md",
            "tui.md",
            "testing.md",
        )
    ),
)
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
EXPECTED_EXIT = re.compile(r"#\s*exit (\d)\s*$")
FILE_RECIPE = re.compile(r"^with `([\w.-]+)`:\s*$")
BACKGROUND = re.compile(r"^(.*?)\s*&\s*(?:#.*)?$")
INLINE = re.compile(r"`(whichtool-tui --no-ui [^`]+)`")
# substring of the line -> why it cannot run in a test
SKIPPED = {
    "python3 -m venv .venv": "the install itself: the suite runs inside the installed venv",
    "pip install -e": "an install: the suite runs inside the installed venv",
    "pipx install": "another installer: the suite runs inside the installed venv",
    "uv tool install": "another installer: the suite runs inside the installed venv",
    "bash .ci/run": "the whole CI script, which runs this test",
    "-m pytest": "the whole test suite, which runs this test",
    "bench/": "benchmarks take minutes each and print figures, not pass/fail",
    "--base-url http://127.0.0.1:8080/v1": "needs an OpenAI-compatible model server on :8080",
    "--base-url http://127.0.0.1:8000/v1": "needs an OpenAI-compatible model server on :8000",
    "--agent ollama:": "needs an Ollama server with that model",
    "my-pinning-proxy": "a placeholder for your own defence proxy",
    "whichtool-tui --demo": "the demo is interactive and needs a terminal",
}
TIMEOUT = 180


def _examples() -> list[tuple[str, str]]:
    """(page:line, command) for every command line of every bash block, page by page."""
    return [(f"{page.name}:{n}", c) for page in PAGES for n, c in _page_examples(page)]


def _page_examples(page: Path) -> list[tuple[int, str]]:
    """(line number, command) for every command line of one page's bash blocks, in order."""
    found: list[tuple[int, str]] = []
    in_bash = False
    pending = ""
    start = 0
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            in_bash = not in_bash and fence.group(2) == "bash" if not in_bash else False
            continue
        if not in_bash:
            # inline examples in the prose: a whole headless command in one code span
            found.extend(
                (number, span)
                for span in INLINE.findall(line)
                if not any(placeholder in span for placeholder in ("…", "|", "<"))
            )
            continue
        text = line.strip()
        if not pending and (not text or text.startswith("#")):
            continue
        if not pending:
            start = number
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        found.append((start, pending + text))
        pending = ""
    return found


def _file_recipes() -> dict[str, str]:
    """Files the README spells out in full ("with `NAME`:" then a fenced block)."""
    recipes: dict[str, str] = {}
    lines = [line for page in PAGES for line in page.read_text(encoding="utf-8").splitlines()]
    for index, line in enumerate(lines):
        match = FILE_RECIPE.match(line)
        if match and index + 2 < len(lines) and FENCE.match(lines[index + 2]):
            body = []
            for inner in lines[index + 3 :]:
                if FENCE.match(inner):
                    break
                body.append(inner)
            recipes[match.group(1)] = "\n".join(body) + "\n"
    return recipes


def _clone(target: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("clone")
    _clone(root)
    for name, text in _file_recipes().items():
        (root / name).write_text(text, encoding="utf-8")
    home = root.parent / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("WHICHTOOL_HTTP_AUTHORIZATION", None)
    env.update(
        HOME=str(home),
        NO_COLOR="1",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        WHICHTOOL_TUI_STATE_DIR=str(home / "state"),
    )
    yield root, env


@pytest.mark.slow
def test_every_readme_example_runs_as_written(clone: tuple[Path, dict[str, str]]) -> None:
    root, env = clone
    examples = _examples()
    assert len(examples) > 40, "the README lost its examples, or the parser broke"
    background: list[subprocess.Popen[bytes]] = []
    failures: list[str] = []
    ran = 0
    http_free = _port_free(8000)
    try:
        for number, command in examples:
            if any(marker in command for marker in SKIPPED):
                continue
            if ":8000/" in command and not http_free:
                pytest.skip("port 8000 is taken on this machine; the HTTP examples need it")
            in_background = BACKGROUND.match(command)
            if in_background:
                background.append(
                    subprocess.Popen(
                        ["bash", "--noprofile", "--norc", "-c", f"exec {in_background[1]}"],
                        cwd=root,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        start_new_session=True,
                    )
                )
                # a server's start-up is no example's time: wait for it before going on
                assert wait_for(lambda: not _port_free(8000), 60), f"{number}: no server"
                continue
            expected = EXPECTED_EXIT.search(command)
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-c", command],
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
            ran += 1
            want = int(expected.group(1)) if expected else 0
            if done.returncode != want:
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                failures.append(
                    f"{number}: exit {done.returncode}, not {want}: "
                    f"{command}\n    " + "\n    ".join(tail)
                )
            if "Traceback" in done.stderr:
                failures.append(f"{number}: a traceback: {command}")
    finally:
        for server in background:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)
    assert not failures, "\n".join(failures)
    assert ran > 35
