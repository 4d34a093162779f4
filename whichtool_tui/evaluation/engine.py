"""The one entry point of a routing run: inputs + options + provider -> ``whichtool.run/2``.

The CLI, the TUI and the MCP server all call ``prepare_run`` (plan and price it; what a dry run
shows) and ``run_evaluation`` (spend it), and read progress from the events they pass a sink.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whichtool_tui import __version__, limits
from whichtool_tui.diagnostics import Diagnostic, sort_diagnostics
from whichtool_tui.evaluation.cache import TrialCache
from whichtool_tui.evaluation.events import (
    EventSink,
    RunFinished,
    RunPlanned,
    TrialFinished,
    discard_event,
)
from whichtool_tui.evaluation.findings import run_findings
from whichtool_tui.evaluation.metrics import compute_metrics
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.pacing import Pacer
from whichtool_tui.evaluation.plan import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_TOOLS,
    DEFAULT_MAX_TRIALS,
    DEFAULT_REPEAT,
    DEFAULT_SEED,
    DEFAULT_TEMPERATURE,
    Estimate,
    PlannedTrial,
    TaskSpec,
    TrialPlan,
    check_min_scored,
    check_tool_limit,
    check_trial_limit,
    estimate_run,
    plan_trials,
)
from whichtool_tui.evaluation.report_model import (
    Capabilities,
    ContextCost,
    PacingBlock,
    ReportDiagnostic,
    Reproducibility,
    RunReport,
    ScoredTrial,
    TargetRef,
    TaskEntry,
    TasksBlock,
)
from whichtool_tui.evaluation.runner import RunnerSettings, TrialSender, run_plan
from whichtool_tui.evaluation.task_stats import compute_statistics
from whichtool_tui.evaluation.thresholds import (
    ThresholdSettings,
    evaluate_execution,
    evaluate_thresholds,
)
from whichtool_tui.evaluation.verdicts import score_trial
from whichtool_tui.gc_phases import gc_paused, gc_settling
from whichtool_tui.provenance import Source
from whichtool_tui.providers.base import Provider, ProviderIdentity, ToolSpec


@dataclass(frozen=True)
class RunInputs:
    """What a run measures: the surface (tools in served order), its cost, and the task set."""

    target: TargetRef
    surface_hash: str
    tools: tuple[ToolSpec, ...]
    schemas: Mapping[str, Mapping[str, Any]]  # resolved input schemas, for argument checks
    context_cost: ContextCost
    tasks: tuple[TaskSpec, ...]
    task_set_version: int = 1
    task_set_source: str = ""
    task_set_surface: str | None = None
    surface_diagnostics: tuple[Diagnostic, ...] = ()
    # What a deferring host's search indexes per tool (discovery.documents.ToolDocument, built
    # from the surface with titles and annotations), so a deferred run ranks what inspect does.
    search_documents: tuple[Any, ...] = ()

    @property
    def tool_names(self) -> tuple[str, ...]:
        """Tool names in served order: the unpermuted order of every trial."""
        return tuple(tool.name for tool in self.tools)


@dataclass(frozen=True)
class RunOptions:
    """How to run: repetitions, sampling, selection, budgets and gates (defaults per contract)."""

    repeat: int = DEFAULT_REPEAT
    seed: int = DEFAULT_SEED
    permute: bool = True
    only: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    concurrency: int = DEFAULT_CONCURRENCY
    temperature: float = DEFAULT_TEMPERATURE
    reasoning_effort: str | None = None
    max_trials: int = DEFAULT_MAX_TRIALS
    max_tools: int = DEFAULT_MAX_TOOLS
    thresholds: ThresholdSettings = field(default_factory=ThresholdSettings)
    seconds_per_trial: float | None = None
    timeout: float = limits.DEFAULT_REQUEST_TIMEOUT_SECONDS  # per request, not queue time
    max_output_tokens: int = limits.DEFAULT_MAX_OUTPUT_TOKENS
    # Power planning of a dry run: the drop to detect, and a pilot run to measure variance on.
    detect: float = limits.DEFAULT_DETECT
    baseline: str | None = None
    max_accuracy_drop: float | None = None  # the diff gate the power plan is sized for
    # Where each value came from (``provenance.Source``), keyed by the options merge's field
    # names (``usecases/options.py``), for the plans a person decides on. Nothing runs on it:
    # it is left out of equality and hashing, and no cache key or report reads it.
    sources: Mapping[str, Source] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class PreparedRun:
    """A plan and its price, before any provider exists."""

    plan: TrialPlan
    estimate: Estimate
    within_tool_limit: bool
    within_trial_limit: bool


def prepare_run(inputs: RunInputs, options: RunOptions) -> PreparedRun:
    """Select and plan the trials, refuse an impossible --min-scored, and price the run."""
    plan = plan_trials(
        inputs.tasks,
        inputs.tool_names,
        repeat=options.repeat,
        seed=options.seed,
        permute=options.permute,
        only=options.only,
        skip=options.skip,
    )
    check_min_scored(options.thresholds.min_scored, plan.planned)
    estimate = estimate_run(
        plan, inputs.context_cost.total, options.concurrency, options.seconds_per_trial
    )
    return PreparedRun(
        plan=plan,
        estimate=estimate,
        within_tool_limit=len(inputs.tools) <= options.max_tools,
        within_trial_limit=plan.planned <= options.max_trials,
    )


def check_budgets(inputs: RunInputs, prepared: PreparedRun, options: RunOptions) -> None:
    """The checks a real run (never a dry run) must pass: tool limit first, then trials."""
    check_tool_limit(len(inputs.tools), options.max_tools)
    check_trial_limit(prepared.plan.planned, options.max_trials)


def _capabilities(identity: ProviderIdentity) -> Capabilities:
    caps = identity.capabilities
    return Capabilities(
        seed=caps.seed,
        temperature_zero=caps.temperature_zero,
        logprobs=caps.logprobs,
        disable_thinking=caps.disable_thinking,
    )


def build_report(
    inputs: RunInputs,
    options: RunOptions,
    plan: TrialPlan,
    identity: ProviderIdentity,
    outcomes: Sequence[TrialOutcome],
    duration_ms: float,
    scored: Sequence[ScoredTrial | None] = (),
) -> RunReport:
    """Score the outcomes and assemble the full report (pure: no I/O, no clock).

    ``scored`` may carry trials already scored as they finished (by plan index), so a large run
    is not scored twice.
    """
    trials = [
        (scored[index] if index < len(scored) else None)
        or score_trial(planned, outcome, inputs.schemas)
        for index, (planned, outcome) in enumerate(zip(plan.trials, outcomes, strict=False))
    ]
    return assemble_report(
        inputs,
        options,
        plan,
        identity,
        trials,
        duration_ms,
        cache_hits=sum(1 for outcome in outcomes if outcome.from_cache),
        unsupported=identity.capabilities.unsupported_settings(
            options.temperature, options.seed, options.reasoning_effort
        ),
    )


def assemble_report(
    inputs: RunInputs,
    options: RunOptions,
    plan: TrialPlan,
    identity: ProviderIdentity,
    trials: list[ScoredTrial],
    duration_ms: float,
    *,
    cache_hits: int,
    unsupported: tuple[str, ...],
) -> RunReport:
    """The report of scored trials: metrics, statistics, findings, gates (pure), shared by a
    run and by ``report merge``, which rebuilds one run's report from its shards' trials."""
    token_totals = {name: cost.total for name, cost in inputs.context_cost.by_tool.items()}
    metrics = compute_metrics(trials, inputs.tool_names, token_totals, plan.planned)
    statistics = compute_statistics(trials, sorted(inputs.tool_names), plan.repeat)
    capabilities = _capabilities(identity)
    thresholds, threshold_notes = evaluate_thresholds(
        metrics, inputs.context_cost.total, options.thresholds
    )
    execution, execution_notes = evaluate_execution(trials, plan.planned, options.thresholds)
    diagnostics = sort_diagnostics(
        [
            *inputs.surface_diagnostics,
            *run_findings(
                metrics,
                statistics,
                trials,
                capabilities,
                options.temperature,
                plan.permuted,
                cache_hits,
                unsupported,
                inputs.context_cost.total,
            ),
            *threshold_notes,
            *execution_notes,
        ]
    )
    thresholds_ok = all(result.ok for result in thresholds)
    has_error = any(d.severity == "error" for d in diagnostics)
    return RunReport(
        reproducibility=Reproducibility(
            whichtool_version=__version__,
            provider=identity.name,
            model=identity.model,
            endpoint=identity.endpoint,
            request_fingerprint=identity.request_fingerprint,
            provider_capabilities=capabilities,
            temperature=options.temperature,
            reasoning_effort=options.reasoning_effort,
            seed=options.seed,
            repeat=plan.repeat,
            permuted=plan.permuted,
            concurrency=options.concurrency,
            surface_hash=inputs.surface_hash,
            task_set_version=inputs.task_set_version,
            task_set_source=inputs.task_set_source,
            task_set_surface=inputs.task_set_surface,
        ),
        target=inputs.target,
        tasks=TasksBlock(
            in_file=plan.tasks_in_file,
            selected=len(plan.selected),
            distractors=sum(1 for task in plan.selected if task.expected is None),
            only=list(plan.only),
            skip=list(plan.skip),
            list=[
                TaskEntry(id=t.id, prompt=t.prompt, expected=t.expected, tags=list(t.tags))
                for t in plan.selected
            ],
        ),
        metrics=metrics,
        context_cost=inputs.context_cost,
        diagnostics=[ReportDiagnostic.of(d) for d in diagnostics],
        thresholds=thresholds,
        thresholds_ok=thresholds_ok,
        execution=execution,
        ok=execution.ok and thresholds_ok and not has_error,
        duration_ms=round(duration_ms, 3),
        trials=trials,
        statistics=statistics,
    )


async def run_evaluation(
    inputs: RunInputs,
    options: RunOptions,
    provider: Provider,
    *,
    prepared: PreparedRun | None = None,
    cache: TrialCache | None = None,
    sink: EventSink = discard_event,
    send: TrialSender | None = None,
    error_budget: bool = True,
) -> RunReport:
    """Plan (unless given), check budgets, run every trial and build the report, with events.

    ``send`` replaces how one trial is sent (the deferred-discovery protocol's two steps, or a
    batch's answers already paid for: then ``error_budget`` False records every one of them).
    """
    prepared = prepared or prepare_run(inputs, options)
    check_budgets(inputs, prepared, options)
    plan = prepared.plan
    identity = provider.identity
    sink(
        RunPlanned(
            planned=plan.planned,
            provider=identity.name,
            model=identity.model,
            concurrency=options.concurrency,
            prompt_tokens_per_trial=prepared.estimate.prompt_tokens_per_trial,
        )
    )
    tools = {tool.name: tool for tool in inputs.tools}
    done = 0
    scored: list[ScoredTrial | None] = [None] * plan.planned

    def finished(index: int, planned: PlannedTrial, outcome: TrialOutcome) -> None:
        nonlocal done
        done += 1
        trial = scored[index] = score_trial(planned, outcome, inputs.schemas)
        kept()
        sink(
            TrialFinished(
                done=done, planned=plan.planned, trial=trial, from_cache=outcome.from_cache
            )
        )

    pacer = Pacer(options.concurrency) if send is None else None
    started = time.perf_counter()
    with gc_settling() as kept:
        outcomes = await run_plan(
            plan,
            provider,
            tools,
            RunnerSettings(
                concurrency=options.concurrency,
                temperature=options.temperature,
                reasoning_effort=options.reasoning_effort,
                max_trials=options.max_trials,
                max_tools=options.max_tools,
                max_errors=math.floor(options.thresholds.max_error_rate * plan.planned + 1e-9)
                if error_budget
                else None,
            ),
            cache,
            finished,
            send,
            pacer,
        )
        duration_ms = (time.perf_counter() - started) * 1000
        with gc_paused():  # the scored trials become the report: nothing here is garbage
            report = build_report(inputs, options, plan, identity, outcomes, duration_ms, scored)
    if pacer is not None and pacer.waits:
        pacing = PacingBlock(
            max_concurrency=pacer.limit,
            lowest_concurrency=pacer.lowest,
            settled_concurrency=pacer.current,
            rate_limit_waits=pacer.waits,
        )
        report = report.model_copy(update={"pacing": pacing})
    sink(RunFinished(report=report))
    return report
