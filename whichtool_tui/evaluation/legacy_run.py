"""Upgrade a legacy ``whichtool.run/1`` file to ``whichtool.run/2`` before strict validation.

run/1 trials carry only the first call (``pick``/``arguments``) and a ``callCount``; run/2 keeps
every call. The upgrade rebuilds ``calls`` from that projection (extra calls are nameless, as
nothing else was kept), recomputes verdicts, metrics, thresholds and execution with the default
limits, and sets ``requestFingerprint`` to null.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.metrics import compute_metrics
from whichtool_tui.evaluation.report_model import (
    RUN_SCHEMA_VERSION,
    Call,
    ContextCost,
    ScoredTrial,
)
from whichtool_tui.evaluation.thresholds import (
    ThresholdSettings,
    evaluate_execution,
    evaluate_thresholds,
)
from whichtool_tui.evaluation.verdicts import judge
from whichtool_tui.limits import MAX_CALLS_PER_TRIAL

_DEFAULT_CAPABILITIES = {
    "seed": False,
    "temperatureZero": False,
    "logprobs": False,
    "disableThinking": False,
}


def _invalid(source: str, detail: str) -> WhichtoolError:
    return WhichtoolError(
        "run/invalid",
        f"{source} is not a valid whichtool.run/1 report: {detail}",
        "Only files written by `run --format json` can be read.",
    )


def _upgrade_trial(raw: Any, surface: set[str], source: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _invalid(source, "a trial is not an object")
    trial = dict(raw)
    count = trial.get("callCount", 0)
    if not isinstance(count, int) or count < 0 or count > MAX_CALLS_PER_TRIAL:
        raise _invalid(source, "a trial's callCount is not a count")
    calls: list[dict[str, Any]] = []
    if count:
        first: dict[str, Any] = {"name": trial.get("pick"), "arguments": trial.get("arguments")}
        if trial.get("rawArguments") is not None:
            first["rawArguments"] = trial["rawArguments"]
        calls = [first] + [{"name": None, "arguments": None} for _ in range(count - 1)]
    trial.setdefault("calls", calls)
    trial["unexpectedAdditionalCalls"] = count > 1
    try:
        parsed_calls = [Call.model_validate(call) for call in trial["calls"]]
    except ValidationError:
        raise _invalid(source, "a trial's call is malformed") from None
    trial["verdict"] = judge(
        trial.get("expected"), parsed_calls, trial.get("error") is not None, surface
    )
    return trial


def upgrade_run_v1(data: dict[str, Any], source: str) -> dict[str, Any]:
    """Return a run/2 dict built from a run/1 dict; the caller validates it strictly."""
    upgraded = copy.deepcopy(data)
    upgraded["schemaVersion"] = RUN_SCHEMA_VERSION
    repro = upgraded.get("reproducibility")
    metrics = upgraded.get("metrics")
    if not isinstance(repro, dict) or not isinstance(metrics, dict):
        raise _invalid(source, "reproducibility or metrics is missing")
    repro["requestFingerprint"] = None
    repro.setdefault("providerCapabilities", dict(_DEFAULT_CAPABILITIES))
    by_tool = metrics.get("byTool")
    if not isinstance(by_tool, list):
        raise _invalid(source, "metrics.byTool is missing")
    tools = [row.get("tool") for row in by_tool if isinstance(row, dict)]
    surface = {name for name in tools if isinstance(name, str)}
    raw_trials = upgraded.get("trials")
    if not isinstance(raw_trials, list):
        raise _invalid(source, "trials is missing")
    trial_dicts = [_upgrade_trial(raw, surface, source) for raw in raw_trials]
    tasks = upgraded.get("tasks")
    try:
        trials = [ScoredTrial.model_validate(t, by_alias=True) for t in trial_dicts]
        context = ContextCost.model_validate(upgraded.get("contextCost"), by_alias=True)
        repeat = int(repro["repeat"])
        selected = int(tasks["selected"]) if isinstance(tasks, dict) else 0
    except (ValidationError, KeyError, TypeError, ValueError):
        raise _invalid(source, "trials, contextCost or tasks do not have the run shape") from None
    planned = selected * repeat
    totals = {name: cost.total for name, cost in context.by_tool.items()}
    fresh = compute_metrics(trials, sorted(surface), totals, planned)
    thresholds_in = upgraded.get("thresholds") or []
    limits = {t.get("name"): t.get("limit") for t in thresholds_in if isinstance(t, dict)}
    settings = ThresholdSettings(
        min_accuracy=limits.get("minAccuracy"),
        max_over_trigger=limits.get("maxOverTrigger"),
        max_context_tokens=limits.get("maxContextTokens"),
    )
    thresholds, _ = evaluate_thresholds(fresh, context.total, settings)
    execution, _ = evaluate_execution(trials, planned, settings)
    thresholds_ok = all(t.ok for t in thresholds)
    diagnostics = upgraded.get("diagnostics") or []
    has_error = any(isinstance(d, dict) and d.get("severity") == "error" for d in diagnostics)
    upgraded["trials"] = trial_dicts
    upgraded["metrics"] = fresh.model_dump(mode="json", by_alias=True)
    upgraded["thresholds"] = [t.model_dump(mode="json", by_alias=True) for t in thresholds]
    upgraded["thresholdsOk"] = thresholds_ok
    upgraded["execution"] = execution.model_dump(mode="json", by_alias=True)
    upgraded["ok"] = execution.ok and thresholds_ok and not has_error
    return upgraded
