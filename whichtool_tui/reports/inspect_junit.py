"""The inspect report as JUnit XML: one testcase per finding; only errors fail."""

from __future__ import annotations

from whichtool_tui.redact import sanitize_text
from whichtool_tui.reports.junit_xml import JunitCase, JunitSuite, render_junit
from whichtool_tui.surface.report_model import InspectReport

SUITE = "whichtool.inspect"


def render_inspect_junit(report: InspectReport) -> str:
    """One case per diagnostic (classname = code); a clean surface gets one passing case."""
    cases = []
    for index, diagnostic in enumerate(report.diagnostics, start=1):
        subject = diagnostic.tool or ", ".join(diagnostic.tools or []) or "surface"
        message = sanitize_text(diagnostic.message)
        if diagnostic.severity == "error":
            cases.append(
                JunitCase(
                    name=f"{subject} #{index}",
                    classname=diagnostic.code,
                    outcome="failure",
                    kind="error",
                    message=message[:300],
                    body=message,
                )
            )
        else:
            cases.append(JunitCase(name=f"{subject} #{index}", classname=diagnostic.code))
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
    return render_junit([suite], "whichtool")
