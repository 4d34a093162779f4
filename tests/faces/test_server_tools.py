"""`whichtool-tui mcp` under the SDK's own client over stdio: the published tools and each call."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from tests.support.cli import binary_path, run_headless
from tests.support.mcp_session import call, demo_workspace, mcp_session, server_env
from whichtool_tui.server.tools import SERVER_TOOLS

pytestmark = pytest.mark.slow  # starts processes or servers

TOOL_NAMES = [
    "inspect_surface",
    "validate_task_file",
    "run_evaluation",
    "diff_saved_results",
    "improve_descriptions",
    "diff_surfaces",
]


async def test_list_tools_publishes_schemas_and_annotations(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    async with mcp_session(tmp_path, config=config) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert sorted(tools) == sorted(TOOL_NAMES)
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False
        assert tool.output_schema is not None
        assert tool.output_schema["required"] == ["schemaVersion", "ok", "summary"]
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        assert tool.annotations is not None
        assert tool.annotations.destructive_hint is False
    inspect = tools["inspect_surface"].annotations
    assert inspect is not None
    assert (inspect.read_only_hint, inspect.idempotent_hint, inspect.open_world_hint) == (
        False,
        True,
        True,
    )
    run = tools["run_evaluation"].annotations
    assert run is not None
    assert (run.read_only_hint, run.idempotent_hint, run.open_world_hint) == (False, False, True)
    diff = tools["diff_saved_results"].annotations
    assert diff is not None
    assert (diff.read_only_hint, diff.open_world_hint) == (True, False)
    assert tools["diff_saved_results"].input_schema["required"] == ["base", "head"]
    improve = tools["improve_descriptions"].annotations
    assert improve is not None
    assert (improve.read_only_hint, improve.idempotent_hint, improve.open_world_hint) == (
        True,
        False,
        True,
    )
    assert tools["diff_surfaces"].input_schema["required"] == ["base", "head"]
    run_props = tools["run_evaluation"].input_schema["properties"]
    assert run_props["repeat"]["maximum"] == 20
    assert run_props["concurrency"]["maximum"] == 16


async def test_inspect_validate_run_and_diff(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    async with mcp_session(tmp_path, config=config) as session:
        inspected = await call(session, "inspect_surface")
        validated = await call(session, "validate_task_file")
        dry = await call(session, "run_evaluation", dryRun=True, repeat=3)
        ran = await call(session, "run_evaluation", repeat=2, minAccuracy=0.5)
        gated = await call(session, "inspect_surface", maxContextTokens=10)
    data = inspected["data"]
    assert inspected["ok"] is True
    assert data["schemaVersion"] == "whichtool.mcp-inspect-summary/1"
    assert data["surface"]["toolCount"] == 6
    assert data["tokens"]["estimate"] is True
    assert data["findings"]["warning"] >= 1
    assert {d["code"] for d in data["diagnostics"]} >= {"overlap/high"}
    assert "No tool was executed" in inspected["summary"]

    assert gated["ok"] is False and "error" not in gated
    assert gated["data"]["thresholdsOk"] is False

    report = validated["data"]
    assert validated["ok"] is True
    assert report["schemaVersion"] == "whichtool.mcp-task-validation-summary/1"
    assert report["surfaceChecked"] is True
    assert report["coverage"]["taskCount"] == 10
    assert report["source"] == "demo-lab.tasks.yaml"

    plan = dry["data"]["plan"]
    assert dry["data"]["schemaVersion"] == "whichtool.mcp-run-summary/1"
    assert dry["data"]["dryRun"] is True
    assert plan["trials"] == 30 and plan["repeat"] == 3
    assert plan["promptTokenEstimate"] == "lower-bound"
    assert (plan["maxTrials"], plan["hardMaxTrials"], plan["withinTrialLimit"]) == (50, 1000, True)
    assert (plan["maxTools"], plan["hardMaxTools"], plan["withinToolLimit"]) == (6, 1000, True)
    assert plan["provider"] == {
        "name": "keyword",
        "model": None,
        "reasoningEffort": None,
        "endpoint": None,
        "keyEnv": None,
        "destination": "provider keyword: offline, no network requests",
    }
    assert "No model was called" in dry["summary"]

    summary = ran["data"]
    assert summary["dryRun"] is False
    assert summary["execution"]["planned"] == 20
    assert summary["provider"]["name"] == "keyword"
    assert summary["rates"]["accuracy"]["denominator"] == 14
    assert summary["thresholds"][0]["name"] == "minAccuracy"
    assert ran["ok"] == summary["ok"]
    assert "artifact" not in summary


def _saved_run(folder: Path, name: str, repeat: int) -> str:
    """A run report saved by the command line (the keyword baseline, offline)."""
    out = folder / name
    completed = run_headless(
        "run",
        "demo-lab.json",
        "--tasks",
        "demo-lab.tasks.yaml",
        "--provider",
        "keyword",
        "--repeat",
        str(repeat),
        "--format",
        "json",
        "--out",
        str(out),
        cwd=folder,
        env=server_env(),
    )
    assert completed.returncode in (0, 1), completed.stderr
    return name


async def test_diff_saved_results(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    base = _saved_run(tmp_path, "base.json", 2)
    head = _saved_run(tmp_path, "head.json", 2)
    other = _saved_run(tmp_path, "other.json", 3)
    async with mcp_session(tmp_path, config=config) as session:
        same = await call(session, "diff_saved_results", base=base, head=head)
        upstream = await call(
            session, "diff_saved_results", base=base, head=head, pairedUnit="trial"
        )
        refused = await call(session, "diff_saved_results", base=base, head=other)
    data = same["data"]
    assert same["ok"] is True
    assert data["schemaVersion"] == "whichtool.mcp-diff-summary/1"
    assert data["comparable"] is True
    assert data["accuracy"]["delta"] == 0
    assert data["accuracy"]["paired"]["matched"] == 14  # distractor trials are not in accuracy
    assert data["newConfusions"] == [] and data["newConfusionsOmitted"] == 0
    assert data["pairedUnit"] == "task" and data["accuracy"]["byTask"]["pValue"] == 1
    assert upstream["data"]["pairedUnit"] == "trial"
    assert refused["error"]["code"] == "diff/incomparable"
    assert refused["error"]["detail"]["incomparable"]


async def test_result_file_keeps_the_full_report_out_of_the_context(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    result_file = tmp_path / "out" / "full-run.json"
    async with mcp_session(tmp_path, ["--result-file", str(result_file)], config=config) as session:
        ran = await call(session, "run_evaluation", repeat=1)
    artifact = ran["data"]["artifact"]
    text = result_file.read_text(encoding="utf-8")
    full = json.loads(text)
    assert full["schemaVersion"] == "whichtool.run/2"
    assert len(full["trials"]) == 10
    assert artifact == {
        "kind": "file",
        "path": "./out/full-run.json",
        "mediaType": "application/json",
        "schemaVersion": "whichtool.run/2",
        "characters": len(text),
    }
    assert "trials" not in ran["data"]


async def test_error_findings_fail_an_mcp_run(tmp_path: Path) -> None:
    """Item 76: the full static review travels into the MCP run, so an identical pair fails it."""
    surface = {
        "tools": [
            {"name": "list_users", "description": "Find users by name or email address."},
            {"name": "search_users", "description": "Find users by name or email address."},
        ]
    }
    (tmp_path / "twins.json").write_text(json.dumps(surface), encoding="utf-8")
    (tmp_path / "twins.tasks.yaml").write_text(
        "version: 1\ntasks:\n"
        "  - id: a\n    prompt: list users named Ann\n    expected: list_users\n"
        "  - id: b\n    prompt: search users by email\n    expected: search_users\n"
        "  - id: c\n    prompt: what time is it\n    expected: null\n",
        encoding="utf-8",
    )
    config = tmp_path / "c.json"
    config.write_text(
        json.dumps(
            {
                "target": {"transport": "snapshot", "path": "twins.json"},
                "tasks": "twins.tasks.yaml",
                "provider": {"name": "keyword"},
            }
        ),
        encoding="utf-8",
    )
    async with mcp_session(tmp_path, config=config) as session:
        ran = await call(session, "run_evaluation", repeat=1)
    codes = {d["code"] for d in ran["data"]["diagnostics"]}
    assert "descriptions/identical" in codes
    assert ran["data"]["ok"] is False
    assert ran["ok"] is False and "error" not in ran


def test_config_must_be_json(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("tasks: x.yaml\n", encoding="utf-8")
    completed = subprocess.run(
        [binary_path(), "mcp", "--config", "c.yaml"],
        cwd=tmp_path,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 2
    assert "JSON configs only" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_our_inspect_finds_no_error_on_our_own_surface(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    command = f"{binary_path()} mcp --config {config}"
    completed = run_headless(
        "inspect",
        "--transport",
        "stdio",
        command,
        "--format",
        "json",
        cwd=tmp_path,
        env=server_env(),
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["surface"]["toolCount"] == len(SERVER_TOOLS)
    assert report["analysisOk"] is True
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    assert report["annotations"]["coverage"]["annotated"] == len(SERVER_TOOLS)


async def test_configured_inspect_rules_reach_the_agent_facing_review(tmp_path: Path) -> None:
    config = demo_workspace(tmp_path)
    settings = json.loads(config.read_text(encoding="utf-8"))
    settings["inspect"] = {"rules": {"overlap/high": "off", "names/generic": "error"}}
    config.write_text(json.dumps(settings), encoding="utf-8")
    async with mcp_session(tmp_path, config=config) as session:
        inspected = await call(session, "inspect_surface")
        ran = await call(session, "run_evaluation", repeat=1)
    codes = {d["code"] for d in inspected["data"]["diagnostics"]}
    assert "overlap/high" not in codes
    assert "descriptions/overlap-without-preference" in codes
    run_codes = {d["code"] for d in ran["data"]["diagnostics"]}
    assert "overlap/high" not in run_codes
    assert "descriptions/overlap-without-preference" in run_codes
