"""Quality gates (exit 1) and execution health (exit 2): whether a run passed and can be trusted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.evaluation.report_model import (
    Execution,
    Metrics,
    ScoredTrial,
    ThresholdResult,
)
from whichtool_tui.evaluation.stats import proportion
from whichtool_tui.limits import DEFAULT_MAX_ERROR_RATE as DEFAULT_MAX_ERROR_RATE
from whichtool_tui.limits import DEFAULT_MIN_SCORED as DEFAULT_MIN_SCORED


@dataclass(frozen=True)
class ThresholdSettings:
    """The gates a run is held to; None means the gate is not configured."""

    min_accuracy: float | None = None
    max_over_trigger: float | None = None
    max_context_tokens: int | None = None
    max_error_rate: float = DEFAULT_MAX_ERROR_RATE
    min_scored: int = DEFAULT_MIN_SCORED


def js_number(value: float) -> str:
    """A number as JavaScript prints it: whole values without a trailing .0."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def evaluate_thresholds(
    metrics: Metrics, context_total: int, settings: ThresholdSettings
) -> tuple[list[ThresholdResult], list[Diagnostic]]:
    """Check each configured gate; an unmeasured rate fails (accuracy 0, over-trigger 1)."""
    results: list[ThresholdResult] = []
    if settings.min_accuracy is not None:
        value = metrics.accuracy.value
        actual = 0.0 if value is None else value
        ok = value is not None and value >= settings.min_accuracy
        results.append(
            ThresholdResult(name="minAccuracy", limit=settings.min_accuracy, actual=actual, ok=ok)
        )
    if settings.max_over_trigger is not None:
        value = metrics.over_trigger.value
        actual = 1.0 if value is None else value
        ok = value is not None and value <= settings.max_over_trigger
        results.append(
            ThresholdResult(
                name="maxOverTrigger", limit=settings.max_over_trigger, actual=actual, ok=ok
            )
        )
    if settings.max_context_tokens is not None:
        results.append(
            ThresholdResult(
                name="maxContextTokens",
                limit=settings.max_context_tokens,
                actual=context_total,
                ok=context_total <= settings.max_context_tokens,
            )
        )
    diagnostics = [
        Diagnostic(
            code=f"threshold/{result.name}",
            severity="error",
            message=f"{result.name}: {result.actual:.3f} against a limit of "
            f"{js_number(result.limit)}",
        )
        for result in results
        if not result.ok
    ]
    return results, diagnostics


def evaluate_execution(
    trials: Sequence[ScoredTrial], planned: int, settings: ThresholdSettings
) -> tuple[Execution, list[Diagnostic]]:
    """Planned vs completed vs scored, the error budget and the minimum scored trials."""
    completed = len(trials)
    scored = sum(1 for t in trials if t.verdict != "error")
    errored = planned - scored
    error_rate = proportion(errored, planned) if planned >= errored >= 0 else proportion(0, 0)
    rate_ok = error_rate.value is not None and error_rate.value <= settings.max_error_rate
    ok = planned > 0 and completed == planned and scored >= settings.min_scored and rate_ok
    diagnostics: list[Diagnostic] = []
    failures = [t for t in trials if t.error is not None]
    if failures:
        first = failures[0].error
        assert first is not None
        message = (
            f"Errored trials: {len(failures)} of {planned} "
            f"({error_rate.value or 0:.1%}; the limit is {settings.max_error_rate:.1%}). "
            f"First failure: {first.message}"
        )
        if first.hint:
            message += f" ({first.hint})"
        diagnostics.append(
            Diagnostic(
                code="run/errored-trials", severity="info" if ok else "error", message=message
            )
        )
    if completed != planned:
        diagnostics.append(
            Diagnostic(
                code="run/incomplete-plan",
                severity="error",
                message=f"Only {completed} of {planned} planned trials completed.",
            )
        )
    if not failures and scored < settings.min_scored:
        diagnostics.append(
            Diagnostic(
                code="run/insufficient-scored-trials",
                severity="error",
                message=f"Scored trials: {scored}; --min-scored requires at least "
                f"{settings.min_scored}.",
            )
        )
    execution = Execution(
        ok=ok,
        planned=planned,
        completed=completed,
        scored=scored,
        errored=errored,
        error_rate=error_rate,
        max_error_rate=settings.max_error_rate,
        min_scored=settings.min_scored,
    )
    return execution, diagnostics
