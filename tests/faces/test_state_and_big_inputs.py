"""The bounded reader reaches the files the TUI keeps for itself and the big-file paths.

Preferences and the recent list are read through it (a 100,000-deep file, a FIFO or
``/dev/zero`` in their place give the defaults at once, never a traceback, a hang or an endless
read); a large JSON that is no run report is refused before it is parsed; a model's free text
is stored capped.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run_headless
from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main
from whichtool_tui.limits import MAX_STORED_TEXT_CHARS
from whichtool_tui.ui.preferences import load_preferences
from whichtool_tui.ui.recent import load_recent

pytestmark = pytest.mark.slow  # starts the binary and a loopback provider

DEEP_JSON = "[" * 100_000 + "]" * 100_000


def _hostile_state_file(state: Path, name: str, kind: str) -> None:
    state.mkdir(parents=True, exist_ok=True)
    path = state / name
    if kind == "deep":
        path.write_text(DEEP_JSON, encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "not-utf8":
        path.write_bytes(b"\xff\xfe{}")


@pytest.mark.parametrize("kind", ["deep", "fifo", "dev-zero", "not-utf8"])
def test_a_hostile_preferences_or_recent_file_gives_the_defaults(
    kind: str, isolated_state: Path
) -> None:
    _hostile_state_file(isolated_state, "preferences.json", kind)
    _hostile_state_file(isolated_state, "recent.json", kind)
    assert load_preferences().theme is None
    assert load_recent() == []


@pytest.mark.parametrize("kind", ["deep", "fifo", "dev-zero"])
def test_the_command_line_starts_past_a_hostile_preferences_file(kind: str, tmp_path: Path) -> None:
    state = tmp_path / "state"
    _hostile_state_file(state, "preferences.json", kind)
    env = {**os.environ, "WHICHTOOL_TUI_STATE_DIR": str(state), "NO_COLOR": "1"}
    # --theme reads the saved preferences before it remembers the new choice.
    done = run_headless("--theme", "nord", "inspect", str(SNAPSHOTS / "demo-lab.json"), env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_big_json_that_is_no_run_report_is_refused_unparsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.json"
    row = json.dumps({"id": 1, "name": "x" * 40, "values": [1.5, 2.5, 3.5]})
    with big.open("w", encoding="utf-8") as stream:
        stream.write('{"items": [' + ",".join([row] * 260_000) + "]}")
    assert big.stat().st_size > 16 * 1024 * 1024
    code = main(["--no-ui", "report", str(big)])
    err = capsys.readouterr().err
    assert code == 2
    assert "is not a run report: its" in err and "name no whichtool.run schema" in err


def test_a_model_answer_is_stored_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(SNAPSHOTS / "demo-lab.json", tmp_path / "lab.json")
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", tmp_path / "lab.tasks.yaml")
    long_text = "blah " * 40_000  # 200,000 characters of free text beside no call
    with fake_api_server() as api:
        api.responder = lambda _request: chat_reply(text=long_text)
        argv = ["--no-ui", "run", "lab.json", "--tasks", "lab.tasks.yaml", "--repeat", "1"]
        argv += ["--provider", "openai-compatible", "--model", "m", "--no-cache"]
        argv += ["--base-url", api.base_url + "/v1", "--format", "json", "--out", "run.json"]
        assert main(argv) in (0, 1), capsys.readouterr().err
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    texts = [trial["text"] for trial in report["trials"]]
    assert texts and all(len(text) < MAX_STORED_TEXT_CHARS + 100 for text in texts)
    assert all(text.endswith("more characters not kept]") for text in texts)
