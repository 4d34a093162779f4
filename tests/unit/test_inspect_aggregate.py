"""Aggregated findings: a rule firing one way on many tools is one finding naming every tool,
its severity unchanged; terminal and Markdown name the first few; SARIF spreads it out again,
one result per location, up to GitHub's per-run limit and then one summary result per rule."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tests.support.paths import SARIF_SCHEMA
from tests.support.sarif_github import github_problems
from tests.support.upstream_schemas import upstream_validator
from whichtool_tui.reports import inspect_sarif
from whichtool_tui.reports.inspect_json import render_inspect
from whichtool_tui.surface.aggregate import AGGREGATE_MIN_TOOLS
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.report_model import InspectReport

RULE = "parameters/required-without-example"


def _templated(count: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"get_user_record_{index}",
            "description": f"Get a user record number {index} in the workspace, with its roles.",
            "inputSchema": {
                "type": "object",
                "properties": {"user_id": {"type": "string", "description": "The user id."}},
                "required": ["user_id"],
            },
        }
        for index in range(count)
    ]


def _report(raw: list[dict[str, Any]]) -> InspectReport:
    return inspect_surface(ServedListing("snapshot", "t.json", raw))


@pytest.fixture(scope="module")
def thousand() -> InspectReport:
    return _report(_templated(1000))


def test_a_templated_thousand_tools_reads_as_a_few_findings(thousand: InspectReport) -> None:
    assert len(thousand.diagnostics) <= 50
    [finding] = [item for item in thousand.diagnostics if item.code == RULE]
    assert finding.severity == "info"  # the rule's own severity
    assert finding.tools is not None and len(finding.tools) == 1000
    assert finding.message.startswith(f"`{RULE}` on 1,000 of 1,000 tools, mostly parameter")
    assert "`user_id`" in finding.message
    detail = finding.detail
    assert detail["aggregated"] == {"tools": 1000, "of": 1000, "findings": 1000}
    assert {entry["tool"] for entry in detail["instances"]} == set(finding.tools)
    assert detail["instances"][0]["detail"] == {"parameters": ["user_id"]}


def test_aggregated_json_is_what_upstreams_schema_accepts(thousand: InspectReport) -> None:
    data = json.loads(render_inspect(thousand, "json"))
    errors = [e.message for e in upstream_validator("inspect-report").iter_errors(data)]
    assert errors == []


def test_below_the_minimum_each_tool_keeps_its_own_finding() -> None:
    report = _report(_templated(AGGREGATE_MIN_TOOLS - 1))
    own = [item for item in report.diagnostics if item.code == RULE]
    assert len(own) == AGGREGATE_MIN_TOOLS - 1
    assert all(item.tool is not None and item.tools is None for item in own)


def test_terminal_and_markdown_name_the_first_few_and_a_count(thousand: InspectReport) -> None:
    terminal = render_inspect(thousand, "terminal", width=100)
    assert "and 997 more" in terminal
    assert "get_user_record_500" not in terminal
    markdown = render_inspect(thousand, "markdown")
    [row] = [line for line in markdown.splitlines() if f"`{RULE}`" in line]
    assert "and 997 more" in row
    assert "`get_user_record_500`" not in row
    assert "900 more tools not shown" in markdown


def _sarif(report: InspectReport) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(render_inspect(report, "sarif"))
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft4Validator(schema).iter_errors(log)] == []
    # GH1004 is what code scanning displays by default (1,000 results), not what it accepts
    assert [problem for problem in github_problems(log) if problem[0] != "GH1004"] == []
    return log


def test_sarif_has_one_result_per_location(thousand: InspectReport) -> None:
    results = _sarif(thousand)["runs"][0]["results"]
    ours = [result for result in results if result["ruleId"] == RULE]
    assert len(ours) == 1000
    names = {result["locations"][0]["logicalLocations"][0]["name"] for result in ours}
    assert len(names) == 1000
    fingerprints = {result["partialFingerprints"]["whichtoolFinding/v1"] for result in ours}
    assert len(fingerprints) == 1000


def test_sarif_past_the_limit_summarises_the_rest_per_rule_and_says_so(
    thousand: InspectReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    everything = len(_sarif(thousand)["runs"][0]["results"])
    monkeypatch.setattr(inspect_sarif, "MAX_RESULTS_PER_RUN", 1500)
    run = _sarif(thousand)["runs"][0]
    assert everything > 1500 >= len(run["results"])
    said = run["properties"]["resultsSummarized"]
    assert said["limit"] == 1500
    assert said["listed"] + said["summarized"] == everything
    summaries = [
        result for result in run["results"] if "summarized" in result.get("properties", {})
    ]
    assert len(summaries) == said["summaryResults"] >= 1
    assert sum(result["properties"]["summarized"] for result in summaries) == said["summarized"]
    assert "1,500 results" in summaries[0]["message"]["text"]
