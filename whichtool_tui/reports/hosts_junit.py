"""Host verdicts in JUnit: one suite per host, one case per tool (the matrix row), failing where
the tool breaks that host; degrading effects pass with the message in system-out."""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.hosts.matrix import SURFACE_ROW, host_matrix
from whichtool_tui.hosts.profile_model import BLOCKING_EFFECTS
from whichtool_tui.hosts.report_model import HostFinding, HostVerdict
from whichtool_tui.reports.junit_xml import JunitCase, JunitSuite, junit_name
from whichtool_tui.text_safety import sanitize_text


def host_suites(verdicts: Sequence[HostVerdict], tool_names: Sequence[str]) -> list[JunitSuite]:
    """A suite per host with its verdict and readiness as properties."""
    matrix = host_matrix(verdicts, tool_names)
    suites = []
    for verdict in verdicts:
        by_row: dict[str, list[HostFinding]] = {}
        for finding in verdict.findings:
            row_of = finding.tool if finding.tool is not None else SURFACE_ROW
            by_row.setdefault(row_of, []).append(finding)
        cases = []
        for row in matrix.rows:
            findings = by_row.get(row, [])
            worst = matrix.cell(row, verdict.host)
            text = "\n".join(
                sanitize_text(f"{f.effect}: {f.message} (sources: {f.source})") for f in findings
            )
            failing = worst in BLOCKING_EFFECTS
            cases.append(
                JunitCase(
                    name=junit_name(row),
                    classname=f"whichtool.hosts.{verdict.host}",
                    outcome="failure" if failing else "pass",
                    kind=worst or "",
                    message=sanitize_text(findings[0].message) if failing else "",
                    body=text if failing else "",
                    system_out="" if failing else text,
                )
            )
        suites.append(
            JunitSuite(
                name=f"whichtool.hosts.{verdict.host}",
                properties=[
                    ("compatible", "true" if verdict.compatible else "false"),
                    ("toolsSeen", str(verdict.readiness.tools_seen)),
                    ("tokensLoaded", str(verdict.readiness.tokens_loaded)),
                ],
                cases=cases,
            )
        )
    return suites
