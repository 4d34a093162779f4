"""Compact, capped views of the full reports: what an agent's context can afford to hold.

Every view keeps the verdict and the headline numbers, then at most 50 diagnostics and 20 items
per list, each with an ``…Omitted`` count so the agent knows something was left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from whichtool_tui.evaluation.plan import ABSOLUTE_MAX_TOOLS, ABSOLUTE_MAX_TRIALS
from whichtool_tui.reports.rates import percent
from whichtool_tui.server.envelope import MAX_DIAGNOSTICS, MAX_ITEMS, capped

if TYPE_CHECKING:
    from whichtool_tui.diagnostics import Diagnostic
    from whichtool_tui.evaluation.diff_model import DiffReport
    from whichtool_tui.evaluation.engine import PreparedRun
    from whichtool_tui.evaluation.report_model import RunReport
    from whichtool_tui.surface.report_model import InspectReport
    from whichtool_tui.tasks.lint import Coverage

INSPECT_SUMMARY = "whichtool.mcp-inspect-summary/1"
VALIDATION_SUMMARY = "whichtool.mcp-task-validation-summary/1"
RUN_SUMMARY = "whichtool.mcp-run-summary/1"
DIFF_SUMMARY = "whichtool.mcp-diff-summary/1"
RATE_NAMES = ("accuracy", "abstention", "overTrigger", "phantom", "multiCallRate", "clarification")


def _put_list(data: dict[str, Any], key: str, items: list[Any], limit: int = MAX_ITEMS) -> None:
    kept, omitted = capped(items, limit)
    data[key] = kept
    data[f"{key}Omitted"] = omitted


def _counts(severities: list[str]) -> dict[str, int]:
    return {level: severities.count(level) for level in ("error", "warning", "info")}


def _put_diagnostics(data: dict[str, Any], diagnostics: list[dict[str, Any]]) -> None:
    data["findings"] = _counts([str(d["severity"]) for d in diagnostics])
    _put_list(data, "diagnostics", diagnostics, MAX_DIAGNOSTICS)


def inspect_summary(report: InspectReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a static review."""
    full = report.to_json_data()
    data: dict[str, Any] = {
        "schemaVersion": INSPECT_SUMMARY,
        "target": full["target"],
        "ok": full["ok"],
        "analysisOk": full["analysisOk"],
        "thresholdsOk": full["thresholdsOk"],
        "surface": {"hash": full["surface"]["hash"], "toolCount": full["surface"]["toolCount"]},
        "tokens": {
            "total": full["tokens"]["total"],
            "estimate": True,
            "tokenizer": full["tokens"]["tokenizer"]["id"],
        },
        "thresholds": full["thresholds"],
    }
    tools = sorted(full["surface"]["tools"], key=lambda tool: -int(tool["tokens"]["total"]))
    _put_list(
        data,
        "tools",
        [
            {"name": t["name"], "tokens": t["tokens"]["total"], "semantics": t["semantics"]}
            for t in tools
        ],
    )
    _put_list(data, "overlapPairs", full["overlap"]["pairs"])
    _put_diagnostics(data, full["diagnostics"])
    counts = data["findings"]
    text = (
        f"{'ok' if report.ok else 'FAILED'}: {data['surface']['toolCount']} tools, "
        f"~{data['tokens']['total']:,} tokens (estimate); {counts['error']} errors, "
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
    _put_list(coverage_data, "uncoveredTools", list(coverage_data.get("uncoveredTools") or []))
    data: dict[str, Any] = {
        "schemaVersion": VALIDATION_SUMMARY,
        "source": source,
        "surfaceChecked": surface_hash is not None,
        "surfaceHash": surface_hash,
        "ok": ok,
        "coverage": coverage_data,
    }
    _put_diagnostics(data, [d.to_json() for d in diagnostics])
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
) -> dict[str, Any]:
    """The plan and price of a run, before any model is called (also attached to refusals)."""
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
    from whichtool_tui.evaluation.report_model import report_to_dict

    full = report_to_dict(report)
    metrics = full["metrics"]
    reproducibility = full["reproducibility"]
    data: dict[str, Any] = {
        "schemaVersion": RUN_SUMMARY,
        "dryRun": False,
        "ok": full["ok"],
        "thresholdsOk": full["thresholdsOk"],
        "execution": full["execution"],
        "target": full["target"],
        "provider": {
            "name": reproducibility["provider"],
            "model": reproducibility["model"],
            "endpoint": reproducibility["endpoint"],
        },
        "surfaceHash": reproducibility["surfaceHash"],
        "repeat": reproducibility["repeat"],
        "tasks": {
            "selected": full["tasks"]["selected"],
            "distractors": full["tasks"]["distractors"],
        },
        "rates": {name: metrics[name] for name in RATE_NAMES},
        "thresholds": full["thresholds"],
        "durationMs": full["durationMs"],
    }
    by_tool = sorted(
        metrics["byTool"],
        key=lambda row: (row["accuracy"]["value"] is None, row["accuracy"]["value"] or 0.0),
    )
    _put_list(
        data,
        "byTool",
        [
            {
                "tool": row["tool"],
                "accuracy": row["accuracy"],
                "confusedWith": row["confusedWith"][:3],
                "contextTokens": row["contextTokens"],
            }
            for row in by_tool
        ],
    )
    _put_list(data, "confusionPairs", metrics["confusionPairs"])
    _put_diagnostics(data, full["diagnostics"])
    if artifact is not None:
        data["artifact"] = artifact
    accuracy = metrics["accuracy"]
    over = metrics["overTrigger"]
    verdict = "ok" if report.ok else ("INVALID" if not report.execution.ok else "FAILED")
    text = (
        f"{verdict}: {reproducibility['provider']}/{reproducibility['model']}, "
        f"{report.execution.scored}/{report.execution.planned} trials scored; accuracy "
        f"{accuracy['numerator']}/{accuracy['denominator']} ({percent(accuracy['value'], 1)}), "
        f"over-trigger {percent(over['value'], 1)}. Proposed calls were recorded, never executed."
    )
    return text, data


def diff_summary(report: DiffReport) -> tuple[str, dict[str, Any]]:
    """Headline line and compact data of a paired diff."""
    from whichtool_tui.evaluation.diff_model import diff_to_dict

    full = diff_to_dict(report)
    data: dict[str, Any] = {
        "schemaVersion": DIFF_SUMMARY,
        "ok": full["ok"],
        "comparable": full["comparable"],
        "incomparable": full["incomparable"],
        "base": full["base"],
        "head": full["head"],
        "accuracy": full["accuracy"],
        "overTrigger": full["overTrigger"],
        "multiCall": full["multiCall"],
        "contextTokens": full["contextTokens"],
        "pairedUnit": full.get("pairedUnit"),
    }
    _put_list(data, "byTool", full["byTool"])
    _put_list(data, "newConfusions", full["newConfusions"])
    _put_list(data, "resolvedConfusions", full["resolvedConfusions"])
    _put_diagnostics(data, full["diagnostics"])
    accuracy = full["accuracy"]
    delta = accuracy["delta"]
    change = "n/a" if delta is None else f"{delta * 100:+.1f} points"
    paired = accuracy["paired"]
    text = (
        f"{'ok' if report.ok else 'REGRESSION'}: accuracy {change} "
        f"({paired['improved']} improved, {paired['regressed']} regressed, "
        f"p={paired['pValue']:.3g}); {len(full['newConfusions'])} new confusions."
    )
    return text, data
