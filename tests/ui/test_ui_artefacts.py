"""Artefact detection and the headless `open` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_binary
from tests.support.ui import LAB_INSPECT, LAB_TOOLS, UI_DATA
from whichtool_tui.artefacts import classify, describe, load_artefact
from whichtool_tui.errors import WhichtoolError

pytestmark = pytest.mark.slow  # starts processes or servers

RECEIPT = {
    "schema_id": "mcp-arcade.bout/v1",
    "bout_id": "bout_1",
    "target": {"kind": "fixture"},
    "agent_policy": "naive",
    "atoms": [{"id": "inspect.tools_list", "result": "pass"}],
    "wire": [{"seq": 1, "direction": "out", "method": "initialize", "rpc_id": 1, "message": {}}],
    "scores": {"nrp": 1.0},
}


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({"schemaVersion": "whichtool.inspect/1"}, "inspect-report"),
        ({"schemaVersion": "whichtool.run/2"}, "run-report"),
        ({"schemaVersion": "whichtool.run/1"}, "run-report"),
        ({"schemaVersion": "whichtool.diff/2"}, "diff-report"),
        ({"schema_id": "mcp-arcade.bout/v1"}, "receipt"),
        ({"schema_id": "mcp-arcade.tape/v1"}, "tape"),
        ({"version": 1, "tasks": []}, "task-set"),
        ({"tools": [{"name": "a"}]}, "snapshot"),
        ([{"name": "a"}], "snapshot"),
        ({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}]}}, "snapshot"),
    ],
)
def test_classify_by_schema_and_shape(data: object, kind: str) -> None:
    assert classify(data, "f")[0] == kind


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"schemaVersion": "whichtool.run/9"}, "open/unsupported-version"),
        ({"hello": "world"}, "open/unknown-kind"),
        ([1, 2, 3], "open/unknown-kind"),
        ("just text", "open/unknown-kind"),
    ],
)
def test_classify_refuses_unknown(data: object, code: str) -> None:
    with pytest.raises(WhichtoolError) as caught:
        classify(data, "f")
    assert caught.value.code == code


def test_yaml_task_set_is_detected_and_strict(tmp_path: Path) -> None:
    good = tmp_path / "t.yaml"
    good.write_text("version: 1\ntasks:\n  - id: a\n    prompt: hi\n    expected: null\n")
    artefact = load_artefact(good)
    assert artefact.kind == "task-set"
    assert "distractors  1" in describe(artefact)
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\ntasks: &x []\n")
    with pytest.raises(WhichtoolError) as caught:
        load_artefact(bad)
    assert caught.value.code == "open/invalid-yaml"


def test_describe_receipt_hides_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(RECEIPT))
    text = describe(load_artefact(path))
    assert "bout receipt (mcp-arcade.bout/v1)" in text
    assert "wire events  1" in text
    assert "pass" not in text


def test_open_no_ui_prints_summary(cli_env: dict[str, str]) -> None:
    done = run_binary("--no-ui", "open", str(LAB_INSPECT), env=cli_env)
    assert done.returncode == 0, done.stderr
    assert "inspect report (whichtool.inspect/1)" in done.stdout
    assert "1 errors, 1 warnings, 1 info" in done.stdout
    snap = run_binary("open", str(LAB_TOOLS), env=cli_env)
    assert snap.returncode == 0, snap.stderr
    assert "tools/list snapshot" in snap.stdout
    assert "list_users" in snap.stdout


def test_open_unknown_kind_exits_2(tmp_path: Path, cli_env: dict[str, str]) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}')
    done = run_binary("--no-ui", "open", str(path), env=cli_env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("whichtool-tui: ")
    assert "not a report" in lines[0]
    assert "Traceback" not in done.stderr


def _as_run_v1(path: Path, target: Path) -> Path:
    """An upstream whichtool.run/1 file made from one of our runs (the legacy shape)."""
    legacy = json.loads(path.read_text())
    legacy["schemaVersion"] = "whichtool.run/1"
    del legacy["reproducibility"]["requestFingerprint"]
    for trial in legacy["trials"]:
        del trial["calls"]
        del trial["unexpectedAdditionalCalls"]
    del legacy["execution"]
    target.write_text(json.dumps(legacy))
    return target


@pytest.mark.parametrize(
    ("name", "label", "section"),
    [
        ("lab-inspect.json", "inspect report (whichtool.inspect/1)", "surface"),
        ("lab-run.json", "run report (whichtool.run/2)", "results"),
        ("lab-diff.json", "diff report (whichtool.diff/2)", "results"),
        ("lab-receipt.json", "bout receipt (mcp-arcade.bout/v1)", "bout"),
        ("lab-tape.json", "bout tape (mcp-arcade.tape/v1)", "bout"),
        ("upstream-receipt.json", "bout receipt (mcp-arcade.bout/v1)", "bout"),
        ("upstream-tape.json", "bout tape (mcp-arcade.tape/v1)", "bout"),
        ("lab-tasks.yaml", "task set", "tasks"),
        ("lab-tools.json", "tools/list snapshot", "surface"),
    ],
)
def test_every_saved_kind_is_recognised(name: str, label: str, section: str) -> None:
    artefact = load_artefact(UI_DATA / name)
    assert artefact.label == label
    assert artefact.section == section
    first_line = describe(artefact).splitlines()[0]
    assert first_line == f"./tests/ui_data/{name}: {label}" or first_line.endswith(
        f"{name}: {label}"
    )


async def test_every_kind_opens_its_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from whichtool_tui.ui.app import WhichtoolApp

    monkeypatch.setenv("WHICHTOOL_TUI_STATE_DIR", str(tmp_path / "state"))
    files = [UI_DATA / n for n in ("upstream-receipt.json", "upstream-tape.json", "lab-diff.json")]
    files.append(_as_run_v1(UI_DATA / "lab-run.json", tmp_path / "legacy-run.json"))
    for path in files:
        artefact = load_artefact(path)
        app = WhichtoolApp(artefact)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.current_mode == artefact.section, path.name
            assert not any(n.severity == "error" for n in app._notifications), path.name
            if path.name == "legacy-run.json":
                assert app.session.run is not None
                assert app.session.run.schema_version == "whichtool.run/2"
            if path.name == "upstream-receipt.json":
                assert app.session.bout is not None and app.session.bout.receipt is not None


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("notes.md", "# Title\n\nSome prose: with a colon.\n", "open/unknown-kind"),
        ("bad.json", "{bad", "open/invalid-json"),
        ("empty.json", "   \n", "open/empty"),
    ],
)
def test_unreadable_artefacts_fail_with_a_hint(
    tmp_path: Path, name: str, content: str, code: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(WhichtoolError) as refused:
        load_artefact(path)
    assert refused.value.code == code
    assert refused.value.hint
