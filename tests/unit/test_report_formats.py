"""Every run format for one fixed run, against golden files; junit as XML; badge colours.

Regenerate the golden files with ``UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.support import paths
from tests.support.run_report_factory import Answer, Task, build_run, demo_run
from whichtool_tui.evaluation.reader import load_run_report, parse_run_report
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.reports.badge import rate_colour
from whichtool_tui.reports.run_badge import run_badge
from whichtool_tui.reports.run_formats import RUN_FORMATS, render_run
from whichtool_tui.reports.run_junit import render_run_junit
from whichtool_tui.reports.run_markdown import render_run_markdown

GOLDEN = paths.GOLDEN / "report"
SUFFIX = {
    "terminal": "txt",
    "json": "json",
    "markdown": "md",
    "html": "html",
    "junit": "xml",
    "badge": "badge.json",
}


def fixed_run() -> RunReport:
    path = GOLDEN / "input.run.json"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_text(json.dumps(demo_run(min_accuracy=0.9), indent=2) + "\n", "utf-8")
    return load_run_report(path)


@pytest.mark.parametrize("report_format", RUN_FORMATS)
def test_each_format_matches_its_golden_file(report_format: str) -> None:
    rendered = render_run(fixed_run(), report_format)
    path = GOLDEN / f"expected.{SUFFIX[report_format]}"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(rendered, encoding="utf-8")
    assert rendered == path.read_text(encoding="utf-8")
    assert rendered.endswith("\n")


def test_json_round_trips_through_the_strict_reader() -> None:
    report = fixed_run()
    again = parse_run_report(json.loads(render_run(report, "json")), "again.json")
    assert again == report


def test_terminal_and_junit_are_ascii_without_escape_codes() -> None:
    for report_format in ("terminal",):
        text = render_run(fixed_run(), report_format)
        assert text.isascii()
        assert "\x1b" not in text


def test_junit_parses_and_counts_tasks() -> None:
    root = ET.fromstring(render_run_junit(fixed_run()))
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert list(suites) == [
        "whichtool.tool-selection",
        "whichtool.thresholds",
        "whichtool.execution",
        "whichtool.diagnostics",
    ]
    # the confusion-pair warning: a passing case, its message in system-out
    [warning] = suites["whichtool.diagnostics"].findall("testcase")
    assert warning.get("classname") == "run/confusion-pair"
    assert warning.get("name") == "list_users, search_users"
    assert warning.find("failure") is None
    assert (warning.findtext("system-out") or "").startswith("warning: ")
    selection = suites["whichtool.tool-selection"]
    cases = {case.get("name"): case for case in selection.findall("testcase")}
    assert list(cases) == ["list-all", "find-bob", "get-42", "how-many", "weather"]
    assert cases["weather"].get("classname") == "(distractor)"
    assert cases["list-all"].find("failure") is None  # 2 of 3 correct: more than half
    failure = cases["find-bob"].find("failure")
    assert failure is not None and failure.get("type") == "wrong-tool"
    multi = cases["get-42"].find("failure")
    assert multi is not None and multi.get("type") == "multiple-calls"
    assert selection.get("tests") == "5" and selection.get("failures") == "3"
    properties = {p.get("name"): p.get("value") for p in selection.iter("property")}
    assert properties["provider"] == "mock" and properties["repeat"] == "3"
    assert float(properties["accuracy"] or "nan") == pytest.approx(5 / 11, abs=1e-5)
    threshold = suites["whichtool.thresholds"].find("testcase")
    assert threshold is not None and threshold.find("failure") is not None
    assert root.get("failures") == "4"


def _tiny_run(answers: dict[tuple[str, int], Answer], repeat: int = 4, **kw: Any) -> RunReport:
    tools = {"alpha": 50, "beta": 60}
    tasks = [Task("a", "Use alpha", "alpha"), Task("none", "Nothing", None)]
    return parse_run_report(build_run(tools, tasks, answers, repeat, **kw), "tiny.json")


def test_junit_errored_task_and_over_trigger_and_invalid_run() -> None:
    all_errors = {("a", i): "error" for i in range(4)}
    root = ET.fromstring(render_run_junit(_tiny_run(all_errors)))
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert cases["a"].find("error") is not None
    health = cases["run health"].find("error")
    assert health is not None and health.get("type") == "invalid-run"
    over = {("none", i): ["alpha"] for i in range(3)}
    root = ET.fromstring(render_run_junit(_tiny_run(over)))
    failure = {c.get("name"): c for c in root.iter("testcase")}["none"].find("failure")
    assert failure is not None and failure.get("type") == "over-trigger"


def test_junit_diagnostics_suite_when_only_a_finding_fails() -> None:
    data = build_run({"alpha": 50, "beta": 60}, [Task("a", "Use alpha", "alpha")], {}, 2)
    data["diagnostics"].append(
        {"code": "surface/duplicate-tool-name", "severity": "error", "message": "dup <x>"}
    )
    data["ok"] = False
    root = ET.fromstring(render_run_junit(parse_run_report(data, "dup.json")))
    suite = next(s for s in root.iter("testsuite") if s.get("name") == "whichtool.diagnostics")
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.get("message") == "dup <x>"


@pytest.mark.parametrize(
    ("value", "colour"),
    [
        (1.0, "brightgreen"),
        (0.97, "brightgreen"),
        (0.9699, "green"),
        (0.9, "green"),
        (0.8999, "yellow"),
        (0.75, "yellow"),
        (0.7499, "orange"),
        (0.5, "orange"),
        (0.4999, "red"),
        (0.0, "red"),
    ],
)
def test_badge_colour_boundaries(value: float, colour: str) -> None:
    assert rate_colour(value) == colour


@pytest.mark.parametrize(
    ("wrong", "message", "colour"),
    [
        (3, "97% of 100", "brightgreen"),
        (4, "96% of 100", "green"),
        (10, "90% of 100", "green"),
        (11, "89% of 100", "yellow"),
        (25, "75% of 100", "yellow"),
        (50, "50% of 100", "orange"),
        (51, "49% of 100", "red"),
    ],
)
def test_run_badge_at_the_boundaries(wrong: int, message: str, colour: str) -> None:
    answers: dict[tuple[str, int], Answer] = {("a", i): ["beta"] for i in range(wrong)}
    badge = run_badge(_tiny_run(answers, repeat=100))
    assert (badge.label, badge.message, badge.color) == ("tool selection", message, colour)


def test_run_badge_for_failed_unmeasured_and_invalid_runs() -> None:
    failing = run_badge(parse_run_report(demo_run(min_accuracy=0.9), "x.json"))
    assert (failing.message, failing.color) == ("failing verdict (1 error)", "red")
    only_distractors = build_run({"alpha": 5}, [Task("n", "Nothing", None)], {}, 3)
    unmeasured = run_badge(parse_run_report(only_distractors, "d.json"))
    assert (unmeasured.message, unmeasured.color) == ("not measured", "lightgrey")
    invalid = run_badge(_tiny_run({("a", i): "error" for i in range(4)}))
    assert (invalid.message, invalid.color) == ("invalid run (4/8 scored)", "red")
    payload = json.loads(render_run(_tiny_run({}), "badge"))
    assert payload == {
        "schemaVersion": 1,
        "label": "tool selection",
        "message": "100% of 4",
        "color": "brightgreen",
    }


def test_markdown_verdict_lines() -> None:
    assert "**❌ 1 threshold violated**" in render_run_markdown(fixed_run())
    assert "**ℹ️ No thresholds configured**" in render_run_markdown(_tiny_run({}))
    assert "**✅ All thresholds met**" in render_run_markdown(_tiny_run({}, min_accuracy=0.5))
    assert "**❌ Invalid run**" in render_run_markdown(
        _tiny_run({("a", i): "error" for i in range(4)})
    )


def test_markdown_escapes_untrusted_names() -> None:
    data = build_run(
        {"a|b": 5, "<img src=x>": 5}, [Task("t", "p", "a|b")], {("t", 0): ["<img src=x>"]}, 2
    )
    text = render_run_markdown(parse_run_report(data, "evil.json"))
    assert "<img" not in text
    assert "a\\|b" in text


def test_html_is_self_contained_and_escapes() -> None:
    data = build_run(
        {"<script>x</script>": 5, "b": 5},
        [Task("t", "</script><b>", "b")],
        {("t", 0): ["<script>x</script>"]},
        2,
    )
    html = render_run(parse_run_report(data, "evil.json"), "html")
    assert html.count("<script") == 2  # the data block and the inline script, nothing else
    assert "</script><b>" not in html
    assert "http://" not in html and "https://" not in html
    assert 'id="whichtool-data"' in html
    assert "prefers-color-scheme: dark" in html


def test_a_big_surface_keeps_only_measured_heatmap_cells() -> None:
    tools = {f"tool_{i:02d}": 10 for i in range(40)}
    tasks = [Task("a", "Use tool 0", "tool_00"), Task("b", "Use tool 1", "tool_01")]
    data = build_run(tools, tasks, {("a", 0): ["tool_07"], ("b", 1): []}, 2)
    html = render_run(parse_run_report(data, "big.json"), "html")
    # rows tool_00 and tool_01; columns tool_00, tool_01, tool_07 and (none)
    assert html.count("<button") == 2 * 4
