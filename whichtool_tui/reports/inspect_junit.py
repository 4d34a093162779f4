"""The inspect report as JUnit XML: one testcase per finding; only errors fail.

A static review is not timed (the report is byte-deterministic, with no durations), so every
``time`` is 0.000.
"""

from __future__ import annotations

from whichtool_tui.reports.junit_xml import JunitCase, JunitSuite, finding_cases, render_junit
from whichtool_tui.surface.report_model import InspectReport

SUITE = "whichtool.inspect"


def render_inspect_junit(report: InspectReport) -> str:
    """One case per diagnostic (classname = code); a clean surface gets one passing case."""
    cases = finding_cases(report.diagnostics)
    if not cases:
        cases.append(JunitCase(name="no findings", classname="whichtool.inspect"))
    suite = JunitSuite(
        name=SUITE,
        properties=[
            ("target", f"{report.target.transport} {report.target.ref}"),
            ("surfaceHash", report.surface.hash),
            ("tools", str(report.surface.tool_count)),
            ("estimatedTokens", str(report.tokens.total)),
        ],
        cases=cases,
    )
    suites = [suite]
    if report.hosts is not None:
        from whichtool_tui.reports.hosts_junit import host_suites

        suites += host_suites(report.hosts, [tool.name for tool in report.surface.tools])
    return render_junit(suites, "whichtool")
