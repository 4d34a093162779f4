"""Our JUnit XML as CI report plugins read it, parsed with junitparser: times on everything,
names that stay the same run to run, warnings as passing cases with system-out, and no bidi or
control characters in a name."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from junitparser import JUnitXml, TestCase, TestSuite

from tests.support.paths import REPO
from tests.support.run_report_factory import demo_run
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.reports.inspect_json import render_inspect
from whichtool_tui.reports.run_junit import render_run_junit
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.load import load_snapshot

SNAPSHOTS = sorted((REPO / "snapshots").glob("*.json"))
BIDI_AND_CONTROLS = {"Cc", "Cf", "Zl", "Zp"}


def _parse(xml: str) -> list[TestSuite]:
    document = JUnitXml.fromstring(xml)
    return [document] if isinstance(document, TestSuite) else list(document)


def _cases(xml: str) -> list[TestCase]:
    return [case for suite in _parse(xml) for case in suite]


def _listing(tools: list[dict[str, Any]], folder: Path) -> ServedListing:
    path = folder / "surface.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return load_snapshot(path, cwd=folder)


def _inspect_junit(listing: ServedListing) -> str:
    return render_inspect(inspect_surface(listing), "junit")


@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=lambda p: p.name)
def test_inspect_junit_parses_with_times_and_unique_stable_names(snapshot: Path) -> None:
    xml = _inspect_junit(load_snapshot(snapshot, cwd=REPO))
    [suite] = _parse(xml)
    cases = list(suite)
    assert cases
    assert suite.time == 0.0 and all(case.time == 0.0 for case in cases)  # not timed: static
    keys = [(case.classname, case.name) for case in cases]
    assert len(set(keys)) == len(keys), "two cases share a name"
    assert not any("#" in (case.name or "") for case in cases)
    report = inspect_surface(load_snapshot(snapshot, cwd=REPO))
    errors = sum(1 for d in report.diagnostics if d.severity == "error")
    assert suite.failures == errors and suite.errors == 0 and suite.skipped == 0


def test_names_do_not_depend_on_the_order_tools_were_served(tmp_path: Path) -> None:
    tools = json.loads((REPO / "snapshots" / "filesystem.json").read_text())["tools"]
    forward = _cases(_inspect_junit(_listing(tools, tmp_path)))
    backward = _cases(_inspect_junit(_listing(list(reversed(tools)), tmp_path)))
    assert sorted((c.classname, c.name) for c in forward) == sorted(
        (c.classname, c.name) for c in backward
    )


def test_warnings_pass_with_their_message_in_system_out(tmp_path: Path) -> None:
    tools = json.loads((REPO / "snapshots" / "filesystem.json").read_text())["tools"]
    report = inspect_surface(_listing(tools, tmp_path))
    warnings = [d for d in report.diagnostics if d.severity == "warning"]
    assert warnings
    cases = {case.classname: case for case in _cases(render_inspect(report, "junit"))}
    for diagnostic in warnings:
        case = cases[diagnostic.code]
        assert case.is_passed and not case.is_skipped
        assert (case.system_out or "").startswith("warning: ")
    with_fix = [d for d in warnings if d.hint]
    assert with_fix and "fix: " in (cases[with_fix[0].code].system_out or "")


def test_bidi_and_control_characters_never_reach_a_name(tmp_path: Path) -> None:
    sneaky = "list_\u202efiles\u2066\u200f\x07\x1b[31m"
    tools = [
        {"name": sneaky, "description": "Read a file.", "inputSchema": {"type": "object"}},
        {"name": sneaky, "description": "Read a file.", "inputSchema": {"type": "object"}},
        {"name": "line\nbreak", "inputSchema": {"type": "object"}},
    ]
    cases = _cases(_inspect_junit(_listing(tools, tmp_path)))
    assert cases
    for case in cases:
        for text in (case.name or "", case.classname or ""):
            assert not {unicodedata.category(c) for c in text} & BIDI_AND_CONTROLS, text
    assert any("list_files" in (case.name or "") for case in cases)


def test_run_junit_times_add_up_and_names_are_task_ids() -> None:
    report = parse_run_report(demo_run(min_accuracy=0.9), "run.json")
    document = JUnitXml.fromstring(render_run_junit(report))
    suites = {suite.name: suite for suite in document}
    selection = suites["whichtool.tool-selection"]
    assert [case.name for case in selection] == [task.id for task in report.tasks.list]
    by_task: dict[str, float] = {}
    for trial in report.trials:
        by_task[trial.task_id] = by_task.get(trial.task_id, 0.0) + trial.latency_ms / 1000
    for case in selection:
        assert case.time == pytest.approx(by_task[case.name], abs=1e-3)
    assert selection.time == pytest.approx(sum(by_task.values()), abs=1e-3)
    assert document.time == pytest.approx(report.duration_ms / 1000, abs=1e-3)
    findings = suites["whichtool.diagnostics"]
    assert all(case.is_passed and case.system_out for case in findings)
