"""The inspect report as SARIF 2.1.0, for code-scanning upload: one result per finding.

Rule metadata (summary, help text, default level) comes from the rule catalog. Findings are
located logically (the tool, as a function) and, when the target is a snapshot file inside the
working tree, physically in that file, so code scanning can show them against the repository.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from whichtool_tui import __version__
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.redact import sanitize_text
from whichtool_tui.surface.report_model import InspectReport
from whichtool_tui.surface.rule_catalog import RULES, Rule

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SARIF_VERSION = "2.1.0"
TOOL_NAME = "whichtool-tui"
FINGERPRINT_KEY = "whichtoolFinding/v1"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _rule_name(code: str) -> str:
    """``names/same-words`` -> ``NamesSameWords`` (SARIF's readable rule name)."""
    parts = code.replace("/", "-").replace("_", "-").split("-")
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def _rule_descriptor(code: str, rule: Rule | None) -> dict[str, Any]:
    if rule is None:  # a finding from outside inspect's rules (the transport, the snapshot)
        summary = f"Finding `{code}` reported while reading the target."
        help_text = "See the message for what happened and how to fix it."
        level = "warning"
    else:
        summary, help_text, level = rule.summary, rule.help, LEVELS[rule.severity]
    return {
        "id": code,
        "name": _rule_name(code),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": help_text, "markdown": f"**Fix:** {help_text}"},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": ["mcp", "tool-surface", code.split("/", 1)[0]]},
    }


def snapshot_uri(report: InspectReport) -> str | None:
    """A relative URI for a snapshot inside the working tree; None for anything else."""
    if report.target.transport != "snapshot":
        return None
    ref = report.target.ref.replace("\\", "/").removeprefix("./")
    if not ref or ref.startswith(("/", "~", "../")) or ":" in ref:
        return None
    return quote(ref, safe="/._-~")


def _subjects(diagnostic: Diagnostic) -> list[str]:
    if diagnostic.tool is not None:
        return [diagnostic.tool]
    return list(diagnostic.tools or [])


def _parameter(diagnostic: Diagnostic) -> str | None:
    detail = diagnostic.detail
    if isinstance(detail, dict) and isinstance(detail.get("parameter"), str):
        return str(detail["parameter"])
    return None


def _fingerprint(diagnostic: Diagnostic) -> str:
    """Stable across runs and message rewording: the code, its tools and its parameter."""
    basis = "\x00".join([diagnostic.code, *_subjects(diagnostic)])
    parameter = _parameter(diagnostic)
    if parameter is not None:
        basis += "\x00" + parameter
    return hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()


def _result(diagnostic: Diagnostic, rule_index: int, uri: str | None) -> dict[str, Any]:
    location: dict[str, Any] = {}
    if uri is not None:
        location["physicalLocation"] = {"artifactLocation": {"uri": uri}}
    subjects = _subjects(diagnostic)
    if subjects:
        location["logicalLocations"] = [
            {
                "name": sanitize_text(name),
                "fullyQualifiedName": sanitize_text(name),
                "kind": "function",
            }
            for name in subjects
        ]
        parameter = _parameter(diagnostic)
        if parameter is not None and len(subjects) == 1:
            location["logicalLocations"].append(
                {
                    "name": sanitize_text(parameter),
                    "fullyQualifiedName": sanitize_text(f"{subjects[0]}/{parameter}"),
                    "kind": "parameter",
                }
            )
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": sanitize_text(diagnostic.message)},
    }
    if location:
        result["locations"] = [location]
    result["partialFingerprints"] = {FINGERPRINT_KEY: _fingerprint(diagnostic)}
    properties: dict[str, Any] = {}
    if diagnostic.hint:
        properties["fix"] = sanitize_text(diagnostic.hint)
    if diagnostic.detail is not None:
        properties["detail"] = diagnostic.detail
    if properties:
        result["properties"] = properties
    return result


def build_sarif(report: InspectReport) -> dict[str, Any]:
    """The SARIF log as plain data: every catalogued rule, then one result per finding."""
    codes = list(RULES)
    codes += sorted({d.code for d in report.diagnostics if d.code not in RULES})
    index = {code: position for position, code in enumerate(codes)}
    uri = snapshot_uri(report)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": TOOL_NAME,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule_descriptor(code, RULES.get(code)) for code in codes],
            }
        },
        "results": [_result(d, index[d.code], uri) for d in report.diagnostics],
        "columnKind": "utf16CodeUnits",
        "properties": {
            "target": {"transport": report.target.transport, "ref": report.target.ref},
            "surfaceHash": report.surface.hash,
            "toolCount": report.surface.tool_count,
            "estimatedTokens": report.tokens.total,
            "ok": report.ok,
        },
    }
    if uri is not None:
        run["artifacts"] = [{"location": {"uri": uri}, "roles": ["analysisTarget"]}]
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_inspect_sarif(report: InspectReport) -> str:
    """SARIF 2.1.0 JSON (ASCII, so lone surrogates in names stay escapes), indent 2, newline."""
    return json.dumps(build_sarif(report), indent=2, ensure_ascii=True) + "\n"
