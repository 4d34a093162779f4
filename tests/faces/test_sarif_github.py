"""`inspect --format sarif` for snapshot, stdio and HTTP targets: the SARIF 2.1.0 schema and
GitHub code scanning's ingestion rules (GH1001-GH2012) both pass, and every result points at a
file and a line."""

from __future__ import annotations

import copy
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support.mcp_http_server import serve
from tests.support.net import RunningServer
from tests.support.paths import REPO, SARIF_SCHEMA
from tests.support.sarif_github import CHECKS, github_problems
from whichtool_tui.cli import main
from whichtool_tui.reports.inspect_sarif import build_sarif, sarif_artifact, tool_lines
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.load import load_snapshot

pytestmark = pytest.mark.slow  # starts processes or servers

SNAPSHOTS = REPO / "snapshots"
FIXTURE = f"{sys.executable} -m whichtool_tui.arcade.fixture"


@pytest.fixture(scope="module")
def http_server() -> Iterator[RunningServer]:
    with serve() as running:
        yield running


@pytest.fixture(autouse=True)
def _in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


def _schema_errors(log: dict[str, Any]) -> list[str]:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    checker = jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    return [error.message for error in checker.iter_errors(log)]


def _sarif(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = main(["--no-ui", "inspect", *argv, "--format", "sarif"])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    log: dict[str, Any] = json.loads(out)
    assert _schema_errors(log) == []
    assert github_problems(log) == []
    assert log["runs"][0]["results"], "a log without results proves nothing"
    return log


def _uris_and_lines(log: dict[str, Any]) -> set[tuple[str, int]]:
    return {
        (
            location["physicalLocation"]["artifactLocation"]["uri"],
            location["physicalLocation"]["region"]["startLine"],
        )
        for result in log["runs"][0]["results"]
        for location in result["locations"]
    }


def test_a_snapshot_in_the_tree_is_the_artifact_at_each_tools_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "surfaces").mkdir()
    shutil.copy(SNAPSHOTS / "filesystem.json", tmp_path / "surfaces" / "fs.json")
    log = _sarif(capsys, "surfaces/fs.json")
    lines = tool_lines(tmp_path / "surfaces" / "fs.json")
    text = (tmp_path / "surfaces" / "fs.json").read_text(encoding="utf-8").splitlines()
    for result in log["runs"][0]["results"]:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "surfaces/fs.json"
        tools = [n["name"] for n in result["locations"][0].get("logicalLocations", [])]
        line = physical["region"]["startLine"]
        if tools and tools[0] in lines:
            assert line == lines[tools[0]]
            assert f'"{tools[0]}"' in text[line - 1]
    run = log["runs"][0]
    assert run["tool"]["driver"]["informationUri"].startswith("https://")
    assert run["artifacts"] == [
        {"location": {"uri": "surfaces/fs.json"}, "roles": ["analysisTarget"]}
    ]


def test_a_stdio_target_alone_gets_a_stable_target_uri(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = _sarif(capsys, "--transport", "stdio", FIXTURE)
    second = _sarif(capsys, "--transport", "stdio", FIXTURE)
    [(uri, line)] = _uris_and_lines(first)
    assert uri.startswith("mcp-target/stdio/") and line == 1
    assert _uris_and_lines(second) == {(uri, line)}
    assert "not a file in this tree" in first["runs"][0]["artifacts"][0]["description"]["text"]


def test_a_stdio_target_saved_with_save_snapshot_points_at_that_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _sarif(capsys, "--transport", "stdio", FIXTURE, "--save-snapshot", "surface.json")
    uris = {uri for uri, _ in _uris_and_lines(log)}
    assert uris == {"surface.json"}
    named = tool_lines(tmp_path / "surface.json")
    assert named, "the saved snapshot names its tools"
    assert {line for _, line in _uris_and_lines(log)} <= {1, *named.values()}


def test_a_config_target_points_at_the_config_files_target_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "whichtool.config.json"
    config.write_text(
        '{\n  "trials": {"maxTools": 6},\n  "target": {"transport": "stdio", "command": '
        + json.dumps(FIXTURE)
        + "}\n}\n",
        encoding="utf-8",
    )
    log = _sarif(capsys)
    assert _uris_and_lines(log) == {("whichtool.config.json", 3)}


def test_an_http_target_gets_a_stable_target_uri(
    capsys: pytest.CaptureFixture[str], http_server: RunningServer
) -> None:
    log = _sarif(capsys, http_server.url())
    [(uri, line)] = _uris_and_lines(log)
    assert uri.startswith("mcp-target/http/") and line == 1
    assert "/" not in uri.removeprefix("mcp-target/http/")


@pytest.mark.parametrize("snapshot", sorted(SNAPSHOTS.glob("*.json")), ids=lambda p: p.name)
def test_every_bundled_snapshot_passes_githubs_rules(snapshot: Path) -> None:
    report = inspect_surface(load_snapshot(snapshot, cwd=REPO))
    log = build_sarif(report, sarif_artifact(report, cwd=REPO))
    assert _schema_errors(log) == []
    assert github_problems(log) == []


def _log() -> dict[str, Any]:
    report = inspect_surface(load_snapshot(SNAPSHOTS / "demo-lab.json", cwd=REPO))
    return build_sarif(report, sarif_artifact(report, cwd=REPO))


def _first_result(log: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = log["runs"][0]["results"][0]
    return result


def _physical(log: dict[str, Any]) -> dict[str, Any]:
    physical: dict[str, Any] = _first_result(log)["locations"][0]["physicalLocation"]
    return physical


BREAKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "GH1001": lambda log: _first_result(log)["locations"][0].pop("physicalLocation"),
    "GH1002": lambda log: _first_result(log).update(
        codeFlows=[{"threadFlows": [{"locations": [{"index": 0}]}]}]
    ),
    "GH1003": lambda log: _physical(log).pop("region"),
    "GH1004": lambda log: _first_result(log).update(locations=_first_result(log)["locations"] * 11),
    "GH1005": lambda log: _physical(log)["artifactLocation"].update(uri="https://x.test/a.json"),
    "GH1006": lambda log: _physical(log)["artifactLocation"].update(uri="file:///abs/a.json"),
    "GH1007": lambda log: _first_result(log).update(message={"id": "default"}),
    "GH1011": lambda log: log.update({"$schema": "https://example.test/sarif-2.0.0.json"}),
    "GH1013": lambda log: log.update(version="2.0.0"),
    "GH1014": lambda log: log["runs"][0].pop("tool"),
    "GH1015": lambda log: _first_result(log).pop("partialFingerprints"),
    "GH1016": lambda log: _first_result(log).update(relatedLocations=[{"id": 1}]),
    "GH1017": lambda log: _physical(log).update(region={"startLine": 5, "endLine": 2}),
    "GH1018": lambda log: log["runs"][0]["tool"]["driver"].pop("rules"),
    "GH2012": lambda log: log["runs"][0]["tool"]["driver"]["rules"][0].pop("help"),
}


def test_every_rule_has_a_breaking_case() -> None:
    assert set(BREAKS) == set(CHECKS)


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_each_github_check_catches_its_violation(rule: str) -> None:
    log = copy.deepcopy(_log())
    assert CHECKS[rule](log) == []
    BREAKS[rule](log)
    problems = CHECKS[rule](log)
    assert problems and all(problem[0] == rule for problem in problems)
