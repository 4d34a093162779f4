"""The output rule, as a matrix: every writing command x every kind of bad output path.

Each case must exit 2 with one line on stderr, leave the command's input byte-identical, and
send nothing to the (loopback, request-counting) provider: the rule runs before any request.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.fake_apis import FakeApi, chat_reply, fake_api_server
from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts a loopback provider

LAB = "lab.json"
TASKS = "lab.tasks.yaml"
IMPROVE_TASKS = "lab.improve.tasks.yaml"


def _provider(api: FakeApi) -> list[str]:
    return ["--provider", "openai-compatible", "--model", "m", "--base-url", api.base_url + "/v1"]


# command name -> (the input the output must not overwrite, argv with {out} for the output)
COMMANDS: dict[str, tuple[str, Callable[[FakeApi], list[str]]]] = {
    "inspect --out": (LAB, lambda api: ["inspect", LAB, "--format", "json", "--out", "{out}"]),
    "inspect --save-snapshot": (LAB, lambda api: ["inspect", LAB, "--save-snapshot", "{out}"]),
    "inspect --tasks --out": (
        TASKS,
        lambda api: ["inspect", LAB, "--tasks", TASKS, "--format", "json", "--out", "{out}"],
    ),
    "run --out": (
        LAB,
        lambda api: ["run", LAB, "--tasks", TASKS, *_provider(api), "--no-cache", "--out", "{out}"],
    ),
    "run --out (tasks)": (
        TASKS,
        lambda api: ["run", LAB, "--tasks", TASKS, *_provider(api), "--no-cache", "--out", "{out}"],
    ),
    "report --out": ("saved.json", lambda api: ["report", "saved.json", "--out", "{out}"]),
    "diff --out": (
        "saved.json",
        lambda api: ["diff", "saved.json", "other.json", "--out", "{out}"],
    ),
    "surface-diff --out": (
        LAB,
        lambda api: (
            ["surface-diff", LAB, "head.json", "--tasks", TASKS, *_provider(api), "--out", "{out}"]
        ),
    ),
    "improve --patch-out": (
        LAB,
        lambda api: (
            ["improve", LAB, "--tasks", IMPROVE_TASKS, *_provider(api), "--patch-out", "{out}"]
        ),
    ),
    "improve --out": (
        IMPROVE_TASKS,
        lambda api: ["improve", LAB, "--tasks", IMPROVE_TASKS, *_provider(api), "--out", "{out}"],
    ),
    "tasks mutate --out": (
        TASKS,
        lambda api: ["tasks", "mutate", "--tasks", TASKS, "--out", "{out}", "--force"],
    ),
    "tasks generate --out": (
        LAB,
        lambda api: ["tasks", "generate", LAB, *_provider(api), "--out", "{out}", "--force"],
    ),
}


def _bad_outputs(folder: Path, guarded: str) -> dict[str, str]:
    """Each kind of output the rule refuses, made for the input ``guarded``."""
    link = folder / f"link-{guarded}"
    if not link.is_symlink():
        link.symlink_to(guarded)
    hard = folder / f"hard-{guarded}"
    if not hard.exists():
        os.link(folder / guarded, hard)
    (folder / "a-folder").mkdir(exist_ok=True)
    return {
        "the input": guarded,
        "a symlink to it": link.name,
        "a hard link to it": hard.name,
        "a directory": "a-folder",
        "/proc/version": "/proc/version",
        "a /dev device": "/dev/zero",
    }


KINDS = ["the input", "a symlink to it", "a hard link to it", "a directory"]
KINDS += ["/proc/version", "a /dev device"]


@pytest.fixture(scope="module")
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        server.responder = lambda _request: chat_reply(text="no tool")
        yield server


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outputs")
    shutil.copy(SNAPSHOTS / "demo-lab.json", folder / LAB)
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", folder / TASKS)
    shutil.copy(SNAPSHOTS / "demo-lab.improve.tasks.yaml", folder / IMPROVE_TASKS)
    head = json.loads((folder / LAB).read_text(encoding="utf-8"))
    head["tools"][0]["description"] = "List orders for one customer."
    (folder / "head.json").write_text(json.dumps(head), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        for name in ("saved.json", "other.json"):
            argv = ["--no-ui", "run", LAB, "--tasks", TASKS, "--provider", "keyword"]
            assert main([*argv, "--repeat", "1", "--format", "json", "--out", name]) in (0, 1)
    return folder


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_output_is_refused_before_any_request(
    command: str,
    kind: str,
    folder: Path,
    api: FakeApi,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(folder)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    guarded, argv_of = COMMANDS[command]
    out = _bad_outputs(folder, guarded)[kind]
    before = (folder / guarded).read_bytes()
    sent = len(api.requests)
    argv = [part.replace("{out}", out) for part in argv_of(api)]
    code = main(["--no-ui", *argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("whichtool-tui: Cannot write"), err
    assert "Traceback" not in err
    assert (folder / guarded).read_bytes() == before
    assert (folder / guarded).is_file() and not (folder / guarded).is_symlink()
    assert len(api.requests) == sent, "a request was sent before the output was refused"


def test_a_config_cannot_write_outside_the_working_folder(
    tmp_path: Path,
    api: FakeApi,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(SNAPSHOTS / "demo-lab.json", work / LAB)
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", work / TASKS)
    outside = tmp_path / "elsewhere" / "report"
    config = {
        "tasks": TASKS,
        "provider": {"name": "openai-compatible", "model": "m", "baseUrl": api.base_url + "/v1"},
        "report": {"out": str(outside), "formats": ["json"]},
    }
    (work / "whichtool.config.json").write_text(json.dumps(config), encoding="utf-8")
    monkeypatch.chdir(work)
    sent = len(api.requests)
    code = main(["--no-ui", "run", LAB, "--no-cache", "--format", "json"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "the config chose a path outside the working folder" in err
    assert len(api.requests) == sent
    assert not outside.parent.exists()
    # The same path typed on the command line is the person's choice, and is allowed.
    del config["report"]
    (work / "whichtool.config.json").write_text(json.dumps(config), encoding="utf-8")
    assert main(["--no-ui", "run", LAB, "--provider", "keyword", "--out", str(outside)]) in (0, 1)
    assert outside.is_file()


def test_an_output_cannot_replace_the_discovered_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SNAPSHOTS / "demo-lab.json", tmp_path / LAB)
    config = tmp_path / "whichtool.config.json"
    config.write_text(json.dumps({"provider": {"name": "keyword"}}), encoding="utf-8")
    before = config.read_bytes()
    monkeypatch.chdir(tmp_path)
    code = main(["--no-ui", "inspect", LAB, "--format", "json", "--out", config.name])
    assert code == 2 and "the same file" in capsys.readouterr().err
    assert config.read_bytes() == before
