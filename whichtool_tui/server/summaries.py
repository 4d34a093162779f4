"""Compact, capped views of the full reports: what an agent's context can afford to hold.

Every view keeps the verdict and the headline numbers, then at most 50 diagnostics and 20 items
per list, each with an ``…Omitted`` count so the agent knows something was left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whichtool_tui.diagnostics import HasSeverity, count_by_severity
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS, ABSOLUTE_MAX_TRIALS
from whichtool_tui.reports.diff_terminal import headline_sentence, verdict_data
from whichtool_tui.reports.rates import percent
from whichtool_tui.server.envelope import MAX_DIAGNOSTICS, MAX_ITEMS, capped

if TYPE_CHECKING:
    from pydantic import BaseModel

    from whichtool_tui.diagnostics import Diagnostic
    from whichtool_tui.usecases.api import (
        Coverage,
        DiffReport,
        InspectReport,
        PreparedRun,
        RunReport,
    )

INSPECT_SUMMARY = "whichtool.mcp-inspect-summary/1"
VALIDATION_SUMMARY = "whichtool.mcp-task-validation-summary/1"
RUN_SUMMARY = "whichtool.mcp-run-summary/1"
DIFF_SUMMARY = "whichtool.mcp-diff-summary/1"
# The headline rates an agent gets: wire name -> RunReport.metrics field.
RATES = {
    "accuracy": "accuracy",
    "abstention": "abstention",
    "overTrigger": "over_trigger",
    "phantom": "phantom",
    "multiCallRate": "multi_call_rate",
    "clarification": "clarification",
}


def put_capped(data: dict[str, Any], key: str, items: list[Any], limit: int = MAX_ITEMS) -> None:
    """``items`` under ``key``, at most ``limit`` of them, and how many were left out."""
    kept, omitted = capped(items, limit)
    data[key] = kept
    data[f"{key}Omitted"] = omitted


def _put_findings(
    data: dict[str, Any], diagnostics: Sequence[HasSeverity], as_json: list[dict[str, Any]]
) -> None:
    """The counts per severity (of every finding) and at most 50 findings as JSON."""
    data["findings"] = count_by_severity(diagnostics)
    put_capped(data, "diagnostics", as_json, MAX_DIAGNOSTICS)


def _plain(model: BaseModel) -> dict[str, Any]:
    """A part of an inspect report as its full JSON has it (absent optional fields left out)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def inspect_summary(report: InspectReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a static review."""
    surface = report.surface
    data: dict[str, Any] = {
        "schemaVersion": INSPECT_SUMMARY,
        "target": _plain(report.target),
        "ok": report.ok,
        "analysisOk": report.analysis_ok,
        "thresholdsOk": report.thresholds_ok,
        "surface": {"hash": surface.hash, "toolCount": surface.tool_count},
        "tokens": {
            "total": report.tokens.total,
            "estimate": True,
            "tokenizer": report.tokens.tokenizer.id,
        },
        "thresholds": [_plain(check) for check in report.thresholds],
    }
    tools = sorted(surface.tools, key=lambda tool: -tool.tokens.total)
    put_capped(
        data,
        "tools",
        [{"name": t.name, "tokens": t.tokens.total, "semantics": t.semantics} for t in tools],
    )
    put_capped(data, "overlapPairs", [_plain(pair) for pair in report.overlap.pairs])
    findings = report.diagnostics
    _put_findings(data, findings, [item.to_upstream_json() for item in findings])
    counts = data["findings"]
    text = (
        f"{'ok' if report.ok else 'FAILED'}: {surface.tool_count} tools, "
        f"~{report.tokens.total:,} tokens (estimate); {counts['error']} errors, "
        f"{counts['warning']} warnings, {counts['info']} info. No tool was executed."
    )
    return text, data


def validation_summary(
    source: str,
    surface_hash: str | None,
    coverage: Coverage,
    diagnostics: list[Diagnostic],
    ok: bool,
) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a task-set lint."""
    coverage_data = coverage.model_dump(by_alias=True)
    put_capped(coverage_data, "uncoveredTools", list(coverage_data.get("uncoveredTools") or []))
    data: dict[str, Any] = {
        "schemaVersion": VALIDATION_SUMMARY,
        "source": source,
        "surfaceChecked": surface_hash is not None,
        "surfaceHash": surface_hash,
        "ok": ok,
        "coverage": coverage_data,
    }
    _put_findings(data, diagnostics, [d.to_json() for d in diagnostics])
    counts = data["findings"]
    checked = "against the surface" if surface_hash else "surface not checked"
    text = (
        f"{'valid' if ok else 'INVALID'}: {source}, {coverage.task_count} tasks "
        f"({coverage.distractor_count} distractors), {checked}; {counts['error']} errors, "
        f"{counts['warning']} warnings."
    )
    return text, data


def plan_summary(
    prepared: PreparedRun,
    tool_count: int,
    max_trials: int,
    max_tools: int,
    provider: dict[str, str | None],
    sources: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The plan and price of a run, before any model is called (also attached to refusals).

    ``sources`` says where each option not left at its default came from (``agent``, or the
    operator's ``flag`` or ``config``), so an agent can tell its own values from the server's.
    """
    plan = prepared.plan
    estimate = prepared.estimate
    return {
        "tasks": len(plan.selected),
        "tasksInFile": plan.tasks_in_file,
        "repeat": plan.repeat,
        "trials": estimate.trials,
        "concurrency": estimate.concurrency,
        "surfaceTokens": estimate.surface_tokens,
        "taskTextTokens": estimate.task_text_tokens,
        "promptTokensPerTrial": estimate.prompt_tokens_per_trial,
        "promptTokensTotal": estimate.prompt_tokens_total,
        "promptTokenEstimate": "lower-bound",
        "tools": tool_count,
        "maxTrials": max_trials,
        "hardMaxTrials": ABSOLUTE_MAX_TRIALS,
        "withinTrialLimit": prepared.within_trial_limit and plan.planned <= ABSOLUTE_MAX_TRIALS,
        "maxTools": max_tools,
        "hardMaxTools": ABSOLUTE_MAX_TOOLS,
        "withinToolLimit": prepared.within_tool_limit and tool_count <= ABSOLUTE_MAX_TOOLS,
        "provider": provider,
        "sources": dict(sources or {}),
    }


def dry_run_summary(plan: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Headline line and data of ``dryRun: true``."""
    data = {"schemaVersion": RUN_SUMMARY, "dryRun": True, "plan": plan}
    blocked = [
        label
        for label, within in (
            ("trial", plan["withinTrialLimit"]),
            ("tool", plan["withinToolLimit"]),
        )
        if not within
    ]
    status = f"blocked by the {' and '.join(blocked)} limit" if blocked else "within the limits"
    text = (
        f"Dry run: {plan['trials']} trials ({plan['tasks']} tasks x {plan['repeat']}), "
        f"~{plan['promptTokensTotal']:,} prompt tokens at least; {status}. No model was called; "
        f"{plan['provider']['destination']}."
    )
    return text, data


def run_summary(
    report: RunReport, artifact: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a finished run."""
    from whichtool_tui.usecases.api import js_numbers, wire_dict

    metrics = report.metrics
    reproducibility = report.reproducibility
    data: dict[str, Any] = {
        "schemaVersion": RUN_SUMMARY,
        "dryRun": False,
        "ok": report.ok,
        "thresholdsOk": report.thresholds_ok,
        "execution": wire_dict(report.execution),
        "target": wire_dict(report.target),
        "provider": {
            "name": reproducibility.provider,
            "model": reproducibility.model,
            "endpoint": reproducibility.endpoint,
        },
        "surfaceHash": reproducibility.surface_hash,
        "repeat": reproducibility.repeat,
        "tasks": {"selected": report.tasks.selected, "distractors": report.tasks.distractors},
        "rates": {name: wire_dict(getattr(metrics, field)) for name, field in RATES.items()},
        "thresholds": [wire_dict(item) for item in report.thresholds],
        "durationMs": js_numbers(report.duration_ms),
    }
    by_tool = sorted(
        metrics.by_tool,
        key=lambda row: (row.accuracy.value is None, row.accuracy.value or 0.0),
    )
    put_capped(
        data,
        "byTool",
        [
            {
                "tool": row.tool,
                "accuracy": wire_dict(row.accuracy),
                "confusedWith": [wire_dict(item) for item in row.confused_with[:3]],
                "contextTokens": row.context_tokens,
            }
            for row in by_tool
        ],
    )
    put_capped(data, "confusionPairs", [wire_dict(pair) for pair in metrics.confusion_pairs])
    findings = report.diagnostics
    _put_findings(data, findings, [wire_dict(item) for item in findings])
    if artifact is not None:
        data["artifact"] = artifact
    accuracy = metrics.accuracy
    verdict = "ok" if report.ok else ("INVALID" if not report.execution.ok else "FAILED")
    text = (
        f"{verdict}: {reproducibility.provider}/{reproducibility.model}, "
        f"{report.execution.scored}/{report.execution.planned} trials scored; accuracy "
        f"{accuracy.numerator}/{accuracy.denominator} ({percent(accuracy.value, 1)}), "
        f"over-trigger {percent(metrics.over_trigger.value, 1)}. Proposed calls were recorded, "
        "never executed."
    )
    return text, data


def diff_summary(report: DiffReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a paired diff."""
    from whichtool_tui.usecases.api import wire_dict

    data: dict[str, Any] = {
        "schemaVersion": DIFF_SUMMARY,
        "ok": report.ok,
        "comparable": report.comparable,
        "incomparable": list(report.incomparable),
        "base": wire_dict(report.base),
        "head": wire_dict(report.head),
        "accuracy": wire_dict(report.accuracy),
        "overTrigger": wire_dict(report.over_trigger),
        "multiCall": wire_dict(report.multi_call),
        "contextTokens": wire_dict(report.context_tokens),
        "pairedUnit": report.paired_unit,
    }
    put_capped(data, "byTool", [wire_dict(item) for item in report.by_tool])
    put_capped(data, "newConfusions", [wire_dict(item) for item in report.new_confusions])
    put_capped(data, "resolvedConfusions", [wire_dict(item) for item in report.resolved_confusions])
    findings = report.diagnostics
    _put_findings(data, findings, [wire_dict(item) for item in findings])
    data["verdicts"] = verdict_data(report)
    text = (
        f"{'ok' if report.ok else 'REGRESSION'}: {headline_sentence(report)}; "
        f"{len(report.new_confusions)} new confusions."
    )
    return text, data
