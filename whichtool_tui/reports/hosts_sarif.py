"""Host findings in SARIF: one rule per host rule, one result per finding, and the host x tool
matrix in the run's properties (code scanning shows results; the matrix rides for dashboards)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.hosts.matrix import host_matrix
from whichtool_tui.hosts.profile_model import BLOCKING_EFFECTS
from whichtool_tui.hosts.registry import rules_of
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.text_safety import sanitize_text

LEVELS = {"error": "error", "warning": "warning"}


def host_code(host: str, rule: str) -> str:
    """The finding code of a host rule: ``hosts/<host>/<rule id>``."""
    return f"hosts/{host}/{rule.rsplit('/', 1)[-1]}"


def host_diagnostics(verdicts: Sequence[HostVerdict]) -> list[Diagnostic]:
    """Each host finding as a diagnostic: an error where it breaks the host, else a warning."""
    return [
        Diagnostic(
            code=host_code(verdict.host, finding.rule),
            severity="error" if finding.effect in BLOCKING_EFFECTS else "warning",
            message=f"{verdict.host}: {finding.effect}: {finding.message}",
            tool=finding.tool,
            hint=f"Sources: {finding.source} (verified {finding.verified})",
        )
        for verdict in verdicts
        for finding in verdict.findings
    ]


def host_rule_descriptors(verdicts: Sequence[HostVerdict]) -> list[dict[str, Any]]:
    """A SARIF rule per rule of every named host (whether or not it fired)."""
    descriptors = []
    for verdict in verdicts:
        for origin, rule in rules_of(verdict.host):
            code = host_code(verdict.host, f"{origin}/{rule.id}")
            blocking = rule.effect in BLOCKING_EFFECTS
            descriptors.append(
                {
                    "id": code,
                    "name": "".join(
                        p[:1].upper() + p[1:] for p in code.replace("/", "-").split("-")
                    ),
                    "shortDescription": {"text": f"{verdict.host}: {rule.summary}"},
                    "fullDescription": {"text": f"{rule.effect}: {rule.summary}"},
                    "help": {
                        "text": f"Sources: {', '.join(rule.sources)} (verified {rule.verified})",
                        "markdown": f"**Sources:** {', '.join(rule.sources)} "
                        f"(verified {rule.verified})",
                    },
                    "defaultConfiguration": {"level": "error" if blocking else "warning"},
                    "properties": {"tags": ["mcp", "tool-surface", "hosts", verdict.host]},
                }
            )
    return descriptors


def host_matrix_property(
    verdicts: Sequence[HostVerdict], tool_names: Sequence[str]
) -> list[dict[str, Any]]:
    """The matrix as run properties: per host, its verdict, readiness and each tool's cell."""
    matrix = host_matrix(verdicts, tool_names)
    return [
        {
            "host": verdict.host,
            "compatible": verdict.compatible,
            "toolsSeen": verdict.readiness.tools_seen,
            "tokensLoaded": verdict.readiness.tokens_loaded,
            "tools": {
                sanitize_text(row): matrix.cell(row, verdict.host) or "ok" for row in matrix.rows
            },
        }
        for verdict in verdicts
    ]


def add_host_results(
    run: dict[str, Any],
    verdicts: Sequence[HostVerdict],
    tool_names: Sequence[str],
    result: Callable[[Diagnostic, int], dict[str, Any]],
    summary: Callable[[list[Diagnostic], int], dict[str, Any]],
    limit: int,
) -> None:
    """Append the host rules, results and matrix to a SARIF run built for the inspect report;
    the run stays within ``limit`` results (past it, one ``summary`` result per host rule)."""
    rules = run["tool"]["driver"]["rules"]
    start = len(rules)
    descriptors = host_rule_descriptors(verdicts)
    index = {descriptor["id"]: start + offset for offset, descriptor in enumerate(descriptors)}
    rules.extend(descriptors)
    diagnostics = host_diagnostics(verdicts)
    room = limit - len(run["results"])
    if len(diagnostics) <= room:
        run["results"].extend(result(d, index[d.code]) for d in diagnostics)
    else:
        listed = max(0, room - len({d.code for d in diagnostics}))
        rest: dict[str, list[Diagnostic]] = {}
        for diagnostic in diagnostics[listed:]:
            rest.setdefault(diagnostic.code, []).append(diagnostic)
        groups = list(rest.values())
        slots = max(0, room - listed)
        if len(groups) > slots:  # fewer slots than rules: the last slot stands for the rest
            groups = [*groups[: slots - 1], [d for g in groups[slots - 1 :] for d in g]]
            groups = groups if slots else []
        run["results"].extend(result(d, index[d.code]) for d in diagnostics[:listed])
        run["results"].extend(summary(items, index[items[0].code]) for items in groups)
        run["properties"]["hostResultsSummarized"] = len(diagnostics) - listed
    run["properties"]["hosts"] = host_matrix_property(verdicts, tool_names)
