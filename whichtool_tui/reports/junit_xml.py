"""A minimal JUnit XML writer shared by the inspect and run junit renderers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from whichtool_tui.reports.escape import xml_escape

OutcomeKind = Literal["pass", "failure", "error"]


@dataclass(frozen=True)
class JunitCase:
    """One testcase: passes, fails (a quality problem) or errors (nothing could be measured)."""

    name: str
    classname: str
    outcome: OutcomeKind = "pass"
    kind: str = ""
    message: str = ""
    body: str = ""


@dataclass
class JunitSuite:
    """One testsuite with its properties and cases."""

    name: str
    properties: list[tuple[str, str]] = field(default_factory=list)
    cases: list[JunitCase] = field(default_factory=list)


def _case_xml(case: JunitCase) -> list[str]:
    opening = (
        f'    <testcase name="{xml_escape(case.name)}" classname="{xml_escape(case.classname)}"'
    )
    if case.outcome == "pass":
        return [opening + "/>"]
    tag = "failure" if case.outcome == "failure" else "error"
    return [
        opening + ">",
        f'      <{tag} type="{xml_escape(case.kind)}" message="{xml_escape(case.message)}">'
        f"{xml_escape(case.body)}</{tag}>",
        "    </testcase>",
    ]


def render_junit(suites: list[JunitSuite], name: str) -> str:
    """The XML document, with per-suite and overall test, failure and error counts."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    total = sum(len(s.cases) for s in suites)
    failures = sum(1 for s in suites for c in s.cases if c.outcome == "failure")
    errors = sum(1 for s in suites for c in s.cases if c.outcome == "error")
    lines.append(
        f'<testsuites name="{xml_escape(name)}" tests="{total}" failures="{failures}" '
        f'errors="{errors}">'
    )
    for suite in suites:
        suite_failures = sum(1 for c in suite.cases if c.outcome == "failure")
        suite_errors = sum(1 for c in suite.cases if c.outcome == "error")
        lines.append(
            f'  <testsuite name="{xml_escape(suite.name)}" tests="{len(suite.cases)}" '
            f'failures="{suite_failures}" errors="{suite_errors}">'
        )
        if suite.properties:
            lines.append("    <properties>")
            lines.extend(
                f'      <property name="{xml_escape(k)}" value="{xml_escape(v)}"/>'
                for k, v in suite.properties
            )
            lines.append("    </properties>")
        for case in suite.cases:
            lines.extend(_case_xml(case))
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"
