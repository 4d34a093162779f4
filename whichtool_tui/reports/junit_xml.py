"""A minimal JUnit XML writer shared by the inspect and run junit renderers.

What CI systems expect of it: ``time`` on every case, suite and the document (seconds); names
that stay the same from run to run (no position index), with bidi and control characters
removed; and findings that do not fail the gate (warnings, notes) reported as passing cases
whose ``system-out`` carries the message. ``skipped`` would be wrong for those: the check ran,
and dashboards count skipped cases as work not done.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from whichtool_tui.text_safety import sanitize_text, strip_controls, xml_escape

OutcomeKind = Literal["pass", "failure", "error"]


class Finding(Protocol):
    """What a JUnit case needs of a finding: inspect's Diagnostic and the run report's alike."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def tool(self) -> str | None: ...
    @property
    def tools(self) -> list[str] | None: ...
    @property
    def detail(self) -> Any: ...


@dataclass(frozen=True)
class JunitCase:
    """One testcase: passes, fails (a quality problem) or errors (nothing could be measured)."""

    name: str
    classname: str
    outcome: OutcomeKind = "pass"
    kind: str = ""
    message: str = ""
    body: str = ""
    seconds: float = 0.0
    system_out: str = ""


@dataclass
class JunitSuite:
    """One testsuite with its properties and cases."""

    name: str
    properties: list[tuple[str, str]] = field(default_factory=list)
    cases: list[JunitCase] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """The suite's time: the sum of its cases'."""
        return sum(case.seconds for case in self.cases)


def junit_name(text: str) -> str:
    """A test name as every viewer shows it: no bidi or control characters, one line."""
    return " ".join(strip_controls(text).split()) or "(unnamed)"


def _time(seconds: float) -> str:
    return f"{max(seconds, 0.0):.3f}"


def _subject(diagnostic: Finding) -> str:
    subject = diagnostic.tool or ", ".join(diagnostic.tools or []) or "surface"
    detail = diagnostic.detail
    if isinstance(detail, dict) and isinstance(detail.get("parameter"), str):
        subject += f" / {detail['parameter']}"
    return subject


def finding_cases(diagnostics: Iterable[Finding], *, errors_fail: bool = True) -> list[JunitCase]:
    """One case per finding: classname is its code, name what it is about (stable, unique).

    An error fails its case (when ``errors_fail``); every other finding passes, with the
    message (and fix) in ``system-out``. Two findings of one code about the same subject are
    told apart by a short hash of their message, never by their position.
    """
    items = list(diagnostics)
    names = [junit_name(_subject(d)) for d in items]
    seen = Counter(zip((d.code for d in items), names, strict=True))
    cases = []
    for diagnostic, name in zip(items, names, strict=True):
        if seen[(diagnostic.code, name)] > 1:
            digest = hashlib.sha256(diagnostic.message.encode("utf-8", "surrogatepass"))
            name = f"{name} [{digest.hexdigest()[:8]}]"
        message = sanitize_text(diagnostic.message)
        hint = getattr(diagnostic, "hint", None)
        fix = f"\nfix: {sanitize_text(hint)}" if isinstance(hint, str) and hint else ""
        classname = junit_name(diagnostic.code)
        if diagnostic.severity == "error" and errors_fail:
            cases.append(
                JunitCase(name, classname, "failure", "error", message[:300], message + fix)
            )
        else:
            cases.append(
                JunitCase(name, classname, system_out=f"{diagnostic.severity}: {message}{fix}")
            )
    return cases


def _case_xml(case: JunitCase) -> list[str]:
    opening = (
        f'    <testcase name="{xml_escape(junit_name(case.name))}" '
        f'classname="{xml_escape(junit_name(case.classname))}" time="{_time(case.seconds)}"'
    )
    inner = []
    if case.outcome != "pass":
        tag = "failure" if case.outcome == "failure" else "error"
        inner.append(
            f'      <{tag} type="{xml_escape(case.kind)}" message="{xml_escape(case.message)}">'
            f"{xml_escape(case.body)}</{tag}>"
        )
    if case.system_out:
        inner.append(f"      <system-out>{xml_escape(case.system_out)}</system-out>")
    if not inner:
        return [opening + "/>"]
    return [opening + ">", *inner, "    </testcase>"]


def render_junit(suites: list[JunitSuite], name: str, seconds: float | None = None) -> str:
    """The XML document, with per-suite and overall test, failure, error counts and time."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    total = sum(len(s.cases) for s in suites)
    failures = sum(1 for s in suites for c in s.cases if c.outcome == "failure")
    errors = sum(1 for s in suites for c in s.cases if c.outcome == "error")
    overall = sum(s.seconds for s in suites) if seconds is None else seconds
    lines.append(
        f'<testsuites name="{xml_escape(name)}" tests="{total}" failures="{failures}" '
        f'errors="{errors}" time="{_time(overall)}">'
    )
    for suite in suites:
        suite_failures = sum(1 for c in suite.cases if c.outcome == "failure")
        suite_errors = sum(1 for c in suite.cases if c.outcome == "error")
        lines.append(
            f'  <testsuite name="{xml_escape(suite.name)}" tests="{len(suite.cases)}" '
            f'failures="{suite_failures}" errors="{suite_errors}" skipped="0" '
            f'time="{_time(suite.seconds)}">'
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
