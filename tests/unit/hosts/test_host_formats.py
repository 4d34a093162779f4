"""Host verdicts in SARIF (still valid SARIF 2.1.0, still what GitHub ingests) and JUnit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import jsonschema

from tests.support.paths import SARIF_SCHEMA
from tests.support.sarif_github import github_problems
from tests.unit.hosts.surfaces import schema, tool
from whichtool_tui.hosts.attach import with_hosts
from whichtool_tui.reports.inspect_json import render_inspect
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.report_model import InspectReport


def _report(hosts: list[str]) -> InspectReport:
    raw = [
        tool("items.get"),
        tool("search", inputSchema=schema(oneOf=[{"required": ["id"]}])),
        tool("long", description="x" * 2100),
    ]
    listing = ServedListing(transport="snapshot", ref="tools.json", raw_tools=raw)
    return with_hosts(inspect_surface(listing), listing, hosts, "srv")


def _sarif(report: InspectReport) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(render_inspect(report, "sarif"))
    sarif_schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft4Validator(sarif_schema).iter_errors(log)] == []
    assert github_problems(log) == []
    return log


def test_sarif_carries_one_result_per_host_finding_and_the_matrix() -> None:
    log = _sarif(_report(["anthropic", "claude-code"]))
    (run,) = log["runs"]
    hosted = [r for r in run["results"] if r["ruleId"].startswith("hosts/")]
    assert {(r["ruleId"], r["level"]) for r in hosted} == {
        ("hosts/anthropic/name-alphabet", "error"),
        ("hosts/anthropic/root-combinator", "error"),
        ("hosts/claude-code/full-name-64", "error"),
        ("hosts/claude-code/root-combinator", "error"),
        ("hosts/claude-code/description-2048", "warning"),
    }
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    matrix = {entry["host"]: entry["tools"] for entry in run["properties"]["hosts"]}
    assert matrix["claude-code"] == {
        "items.get": "request-rejected",
        "long": "truncated",
        "search": "tool-dropped",
    }
    assert matrix["anthropic"]["long"] == "ok"


def test_sarif_without_hosts_is_unchanged() -> None:
    listing = ServedListing(transport="snapshot", ref="tools.json", raw_tools=[tool()])
    plain = inspect_surface(listing)
    assert "hosts" not in _sarif(plain)["runs"][0]["properties"]


def test_junit_has_a_suite_per_host_failing_where_the_tool_breaks_it() -> None:
    root = ET.fromstring(render_inspect(_report(["claude-code", "gemini-json-schema"]), "junit"))
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    claude = suites["whichtool.hosts.claude-code"]
    outcomes = {
        case.get("name"): (case.find("failure") is not None) for case in claude.iter("testcase")
    }
    assert outcomes == {"items.get": True, "long": False, "search": True}
    long_case = next(c for c in claude.iter("testcase") if c.get("name") == "long")
    assert "truncated" in (long_case.findtext("system-out") or "")
    lenient = suites["whichtool.hosts.gemini-json-schema"]
    assert lenient.get("failures") == "0" and lenient.get("tests") == "3"


def test_a_saved_report_with_hosts_reads_back_to_the_same_bytes() -> None:
    report = _report(["all"])
    text = report.to_json_text()
    assert InspectReport.model_validate(json.loads(text)).to_json_text() == text


def test_a_thousand_tools_that_fail_alike_read_as_a_few_lines() -> None:
    raw = [tool(f"t{index}.get") for index in range(999)] + [tool("clean_one")]
    listing = ServedListing(transport="snapshot", ref="tools.json", raw_tools=raw)
    report = with_hosts(inspect_surface(listing), listing, ["openai"], None)
    terminal = render_inspect(report, "terminal", width=100)
    section = terminal[terminal.index("Hosts (") :]
    assert "t0.get +998 like it  rejected" in section
    assert "clean_one            ok" in section  # a cell names what the tool itself breaks
    assert "999 tools: t0.get, t1.get" in section
    assert section.count("request-rejected") == 2  # one line per rule, not per tool
    markdown = render_inspect(report, "markdown")
    assert "| `t0.get` and 998 like it | request-rejected |" in markdown
    assert "| (surface) | request-rejected |" in markdown


def test_sarif_with_hosts_stays_within_githubs_result_limit(monkeypatch: Any) -> None:
    from whichtool_tui.reports import inspect_sarif

    report = _report(["all"])
    everything = _sarif(report)["runs"][0]
    monkeypatch.setattr(inspect_sarif, "MAX_RESULTS_PER_RUN", len(everything["results"]) - 4)
    capped = json.loads(render_inspect(report, "sarif"))["runs"][0]
    assert len(capped["results"]) <= len(everything["results"]) - 4
    assert capped["properties"]["hostResultsSummarized"] > 0
    summarized = [r for r in capped["results"] if "summarized" in r.get("properties", {})]
    assert summarized and all(r["ruleId"].startswith("hosts/") for r in summarized)
