"""The inspect report as SARIF 2.1.0, for code-scanning upload: one result per finding.

Rule metadata (summary, help text, default level) comes from the rule catalog. Every finding is
located logically (the tool, as a function) and physically, because GitHub code scanning drops
a result without an artifact URI and a start line. The physical location is, in order: the
snapshot file inspected, the snapshot written with ``--save-snapshot``, the config file that
named the target (each when it sits inside the working tree, at the line naming the tool or the
target), else a stable relative URI made from the target itself (``mcp-target/<transport>/...``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from whichtool_tui import __version__
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.aggregate import instances
from whichtool_tui.surface.report_model import InspectReport
from whichtool_tui.surface.rule_catalog import RULES, Rule
from whichtool_tui.text_safety import sanitize_text

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SARIF_VERSION = "2.1.0"
TOOL_NAME = "whichtool-tui"
FINGERPRINT_KEY = "whichtoolFinding/v1"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
INFORMATION_URI = "https://pypi.org/project/whichtool-tui/"
TARGET_URI_PREFIX = "mcp-target"
MAX_RESULTS_PER_RUN = 25_000
"""GitHub code scanning rejects a run with more results than this (hard limit; "SARIF results
exceed limit", docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/
results-exceed-limit, verified 2026-12-03); past it the rest is one summary result per rule."""
_NAME_KEY = re.compile(r'"name"\s*:\s*("(?:[^"\\]|\\.)*")')
_TARGET_KEY = re.compile(r'^\s*"?target"?\s*:')
_UNSAFE_SLUG = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class SarifArtifact:
    """The file (or stable URI) every result points at, and the line each tool is named on."""

    uri: str
    tool_lines: Mapping[str, int] = field(default_factory=dict)
    default_line: int = 1
    in_tree: bool = True


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
        # SARIF tags are a set: a family named like a fixed tag (`mcp/paginated`) is not repeated
        "properties": {"tags": list(dict.fromkeys(["mcp", "tool-surface", code.split("/", 1)[0]]))},
    }


def relative_uri(path: str) -> str | None:
    """A relative URI for a path inside the working tree; None for anything outside it."""
    ref = path.replace("\\", "/").removeprefix("./")
    if not ref or ref.startswith(("/", "~", "../")) or ":" in ref or "/../" in f"/{ref}":
        return None
    return quote(ref, safe="/._-~")


def _read_lines(path: Path) -> list[str]:
    from whichtool_tui.bounded_read import InputFileError, read_input_text

    try:
        return read_input_text(path, prefix="snapshot", what="snapshot").splitlines()
    except InputFileError:
        return []


def tool_lines(path: Path) -> dict[str, int]:
    """Where each tool is named in a snapshot: the 1-based line of its first ``"name"`` key."""
    found: dict[str, int] = {}
    for number, line in enumerate(_read_lines(path), start=1):
        for match in _NAME_KEY.finditer(line):
            try:
                name = json.loads(match.group(1))
            except ValueError:
                continue
            if isinstance(name, str):
                found.setdefault(name, number)
    return found


def _target_line(path: Path) -> int:
    for number, line in enumerate(_read_lines(path), start=1):
        if _TARGET_KEY.match(line):
            return number
    return 1


def target_uri(report: InspectReport) -> str:
    """A stable relative URI for a target that is not a file here: same target, same URI."""
    slug = _UNSAFE_SLUG.sub("-", report.target.ref).strip("-.")[:120] or "target"
    return f"{TARGET_URI_PREFIX}/{report.target.transport}/{slug}"


def sarif_artifact(
    report: InspectReport,
    *,
    saved_snapshot: str | None = None,
    config_path: str | None = None,
    cwd: Path | None = None,
) -> SarifArtifact:
    """Choose the physical location of every result (see the module docstring for the order)."""
    root = cwd or Path.cwd()
    candidates: list[tuple[str | None, bool]] = [
        (report.target.ref if report.target.transport == "snapshot" else None, True),
        (saved_snapshot, True),
        (config_path, False),
    ]
    for path, is_snapshot in candidates:
        if path is None:
            continue
        local = Path(path)
        absolute = local if local.is_absolute() else root / local
        try:
            inside = absolute.resolve().relative_to(root.resolve()).as_posix()
        except (OSError, ValueError):
            continue
        uri = relative_uri(inside)
        if uri is None or not absolute.is_file():
            continue
        if is_snapshot:
            return SarifArtifact(uri=uri, tool_lines=tool_lines(absolute))
        return SarifArtifact(uri=uri, default_line=_target_line(absolute))
    return SarifArtifact(uri=target_uri(report), in_tree=False)


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


def _result(diagnostic: Diagnostic, rule_index: int, artifact: SarifArtifact) -> dict[str, Any]:
    subjects = _subjects(diagnostic)
    line = next(
        (artifact.tool_lines[name] for name in subjects if name in artifact.tool_lines),
        artifact.default_line,
    )
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": {"uri": artifact.uri, "index": 0},
            "region": {"startLine": line},
        }
    }
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


def one_per_location(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Every finding with each aggregated one spread back into its single-tool findings."""
    spread: list[Diagnostic] = []
    for diagnostic in diagnostics:
        inner = instances(diagnostic)
        spread.extend([diagnostic] if inner is None else inner)
    return spread


def _summary_result(
    items: list[Diagnostic], rule_index: int, artifact: SarifArtifact
) -> dict[str, Any]:
    """One result standing for a rule's findings past the per-run limit, saying so."""
    first = items[0]
    tools = len({name for item in items for name in _subjects(item)})
    text = (
        f"{len(items):,} more `{first.code}` findings on {tools:,} tools are summarised in this "
        f"one result: GitHub code scanning rejects a run of more than {MAX_RESULTS_PER_RUN:,} "
        "results. The JSON report (--format json) lists every one."
    )
    summary = Diagnostic(code=first.code, severity=first.severity, message=text)
    result = _result(summary, rule_index, artifact)
    result["partialFingerprints"] = {
        FINGERPRINT_KEY: hashlib.sha256(f"{first.code}\x00summary".encode()).hexdigest()
    }
    result["properties"] = {"summarized": len(items), "tools": tools}
    return result


def _results(
    report: InspectReport, index: Mapping[str, int], where: SarifArtifact
) -> tuple[list[dict[str, Any]], dict[str, int] | None]:
    """One result per location up to the per-run limit, then one summary per rule (and what was
    summarised, None when nothing was). The findings come worst first, so notes go first."""
    spread = one_per_location(report.diagnostics)
    if len(spread) <= MAX_RESULTS_PER_RUN:
        return [_result(d, index[d.code], where) for d in spread], None
    listed = MAX_RESULTS_PER_RUN - len({d.code for d in spread})
    rest: dict[str, list[Diagnostic]] = {}
    for diagnostic in spread[listed:]:
        rest.setdefault(diagnostic.code, []).append(diagnostic)
    results = [_result(d, index[d.code], where) for d in spread[:listed]]
    results += [_summary_result(items, index[code], where) for code, items in rest.items()]
    return results, {
        "limit": MAX_RESULTS_PER_RUN,
        "listed": listed,
        "summarized": len(spread) - listed,
        "summaryResults": len(rest),
    }


def build_sarif(report: InspectReport, artifact: SarifArtifact | None = None) -> dict[str, Any]:
    """The SARIF log as plain data: every catalogued rule, then one result per location (up to
    GitHub's per-run limit, then one summary result per rule)."""
    codes = list(RULES)
    codes += sorted({d.code for d in report.diagnostics if d.code not in RULES})
    index = {code: position for position, code in enumerate(codes)}
    where = artifact or sarif_artifact(report)
    results, summarized = _results(report, index, where)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": TOOL_NAME,
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule_descriptor(code, RULES.get(code)) for code in codes],
            }
        },
        "results": results,
        "columnKind": "utf16CodeUnits",
        "properties": {
            "target": {"transport": report.target.transport, "ref": report.target.ref},
            "surfaceHash": report.surface.hash,
            "toolCount": report.surface.tool_count,
            "estimatedTokens": report.tokens.total,
            "ok": report.ok,
        },
    }
    if summarized is not None:
        run["properties"]["resultsSummarized"] = summarized
    if report.hosts is not None:
        from whichtool_tui.reports.hosts_sarif import add_host_results

        names = [tool.name for tool in report.surface.tools]
        add_host_results(
            run,
            report.hosts,
            names,
            lambda d, i: _result(d, i, where),
            lambda items, i: _summary_result(items, i, where),
            MAX_RESULTS_PER_RUN,
        )
    described = {"location": {"uri": where.uri}, "roles": ["analysisTarget"]}
    if not where.in_tree:
        described["description"] = {
            "text": f"The {report.target.transport} target itself; it is not a file in this tree."
        }
    run["artifacts"] = [described]
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_inspect_sarif(report: InspectReport, artifact: SarifArtifact | None = None) -> str:
    """SARIF 2.1.0 JSON (ASCII, so lone surrogates in names stay escapes), indent 2, newline."""
    return json.dumps(build_sarif(report, artifact), indent=2, ensure_ascii=True) + "\n"
