"""Shards of one planned run, and their merge back into the unsharded run's report.

``run --shard i/N`` keeps every N-th task of the plan in task-id order (trial seeds and tool
orders depend only on the run seed and the task id, so a shard's trials are exactly the full
plan's trials of its tasks). Each shard's report records the full plan's fingerprint, its shard,
the task order and what the merge needs to rebuild the report. ``report merge`` puts the trials
back in plan order and rebuilds metrics, intervals, statistics, findings and gates with the
same code a run uses, so the merged report equals the unsharded run's (bar durations).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.engine import RunInputs, RunOptions, assemble_report
from whichtool_tui.evaluation.plan import TaskSpec, TrialPlan
from whichtool_tui.evaluation.plan_identity import ProviderKey, plan_fingerprint
from whichtool_tui.evaluation.report_model import (
    BatchBlock,
    ReportDiagnostic,
    RunReport,
    ScoredTrial,
    ShardBlock,
)
from whichtool_tui.evaluation.thresholds import ThresholdSettings
from whichtool_tui.providers.base import Capabilities, ProviderIdentity, ToolSpec

MERGE_ERROR = "report/merge-mismatch"
_CACHE_HITS = re.compile(r": (\d+) of \d+ trials\.$")


@dataclass(frozen=True)
class ShardSpec:
    """Shard ``index`` of ``count`` (1-based), as typed: ``2/4``."""

    index: int
    count: int

    @property
    def text(self) -> str:
        """The ``i/N`` form."""
        return f"{self.index}/{self.count}"


def shard_plan(plan: TrialPlan, spec: ShardSpec) -> TrialPlan:
    """The plan restricted to this shard's tasks: every ``count``-th task in task-id order."""
    ranked = sorted(range(len(plan.selected)), key=lambda index: plan.selected[index].id)
    kept = {index for rank, index in enumerate(ranked) if rank % spec.count == spec.index - 1}
    if not kept:
        raise WhichtoolError(
            "run/empty-shard",
            f"Shard {spec.text} has no tasks: the plan has {len(plan.selected)}",
            f"Use at most {len(plan.selected)} shards.",
        )
    selected = tuple(task for index, task in enumerate(plan.selected) if index in kept)
    return replace(plan, selected=selected)


def shard_block(
    report: RunReport,
    inputs: RunInputs,
    options: RunOptions,
    full_plan: TrialPlan,
    spec: ShardSpec,
) -> ShardBlock:
    """What a shard's report records: the full plan's identity and what the merge rebuilds."""
    rep = report.reproducibility
    provider = ProviderKey(rep.provider, rep.model, rep.request_fingerprint)
    return ShardBlock(
        index=spec.index,
        count=spec.count,
        plan_fingerprint=plan_fingerprint(inputs, options, full_plan, provider),
        planned_total=full_plan.planned,
        tasks_total=len(full_plan.selected),
        task_ids=[task.id for task in full_plan.selected],
        tool_names=list(inputs.tool_names),
        surface_diagnostics=[ReportDiagnostic.of(d) for d in inputs.surface_diagnostics],
    )


def _fail(message: str, hint: str) -> WhichtoolError:
    return WhichtoolError(MERGE_ERROR, message, hint)


def _check_shards(named: Sequence[tuple[str, RunReport]]) -> list[tuple[str, ShardBlock]]:
    blocks: list[tuple[str, ShardBlock]] = []
    for name, report in named:
        if report.shard is None:
            raise _fail(
                f"{name} is not a shard (it has no shard block)",
                "Merge the reports of `run --shard i/N`.",
            )
        if report.discovery is not None:
            raise _fail(f"{name} is a deferred-discovery run", "Merge upfront runs only.")
        blocks.append((name, report.shard))
    first_name, first = blocks[0]
    seen: dict[int, str] = {}
    for name, block in blocks:
        if block.plan_fingerprint != first.plan_fingerprint or block.count != first.count:
            raise _fail(
                f"{name} is a shard of another plan than {first_name}",
                "Merge the shards of one run: same target, tasks, flags and provider.",
            )
        if block.index in seen:
            raise _fail(
                f"{name} and {seen[block.index]} are both shard {block.index}/{block.count}",
                "Pass each shard once.",
            )
        seen[block.index] = name
    missing = [str(i) for i in range(1, first.count + 1) if i not in seen]
    if missing:
        raise _fail(
            f"Shard(s) {', '.join(missing)} of {first.count} are missing",
            "Pass every shard's report.",
        )
    return blocks


def _cache_hits(report: RunReport) -> int:
    for diagnostic in report.diagnostics:
        if diagnostic.code == "run/cache-hits":
            found = _CACHE_HITS.search(diagnostic.message)
            return int(found.group(1)) if found else 0
    return 0


def _unsupported(report: RunReport) -> tuple[str, ...]:
    for diagnostic in report.diagnostics:
        detail = diagnostic.detail
        if diagnostic.code == "run/settings-not-sent" and isinstance(detail, dict):
            return tuple(str(name) for name in detail.get("settings", []))
    return ()


def _thresholds(report: RunReport) -> ThresholdSettings:
    limits = {result.name: result.limit for result in report.thresholds}
    context = limits.get("maxContextTokens")
    return ThresholdSettings(
        min_accuracy=limits.get("minAccuracy"),
        max_over_trigger=limits.get("maxOverTrigger"),
        max_context_tokens=None if context is None else int(context),
        max_error_rate=report.execution.max_error_rate,
        min_scored=report.execution.min_scored,
    )


def _merged_batch(reports: Sequence[RunReport]) -> BatchBlock | None:
    blocks = [report.batch for report in reports if report.batch is not None]
    if not blocks:
        return None
    return blocks[0].model_copy(
        update={
            "batch_ids": [batch_id for block in blocks for batch_id in block.batch_ids],
            "lines_sent": sum(block.lines_sent for block in blocks),
            "answered_from_cache": sum(block.answered_from_cache for block in blocks),
            "errored_lines": sum(block.errored_lines for block in blocks),
            "expired_lines": sum(block.expired_lines for block in blocks),
        }
    )


def merge_shards(named: Sequence[tuple[str, RunReport]]) -> RunReport:
    """One report from every shard of one plan, as the unsharded run would have written it."""
    blocks = _check_shards(named)
    reports = [report for _, report in named]
    first, block = reports[0], blocks[0][1]
    rep = first.reproducibility
    by_task: dict[str, list[ScoredTrial]] = {}
    entries = {}
    for report in reports:
        for trial in report.trials:
            by_task.setdefault(trial.task_id, []).append(trial)
        for entry in report.tasks.list:
            entries[entry.id] = entry
    if set(entries) != set(block.task_ids):
        raise _fail("The shards' tasks do not add up to the plan's", "Re-run the shards.")
    trials = [
        trial
        for task_id in block.task_ids
        for trial in sorted(by_task.get(task_id, []), key=lambda t: t.trial_index)
    ]
    tasks = tuple(
        TaskSpec(entries[i].id, entries[i].prompt, entries[i].expected, tuple(entries[i].tags))
        for i in block.task_ids
    )
    inputs = RunInputs(
        target=first.target,
        surface_hash=rep.surface_hash,
        tools=tuple(ToolSpec(name, None, {}) for name in block.tool_names),
        schemas={},
        context_cost=first.context_cost,
        tasks=tasks,
        task_set_version=rep.task_set_version,
        task_set_source=rep.task_set_source,
        task_set_surface=rep.task_set_surface,
        surface_diagnostics=tuple(
            Diagnostic.model_validate(d.model_dump()) for d in block.surface_diagnostics
        ),
    )
    options = RunOptions(
        repeat=rep.repeat,
        seed=rep.seed,
        permute=rep.permuted,
        concurrency=rep.concurrency,
        temperature=rep.temperature,
        reasoning_effort=rep.reasoning_effort,
        thresholds=_thresholds(first),
    )
    plan = TrialPlan(
        tasks_in_file=first.tasks.in_file,
        selected=tasks,
        only=tuple(first.tasks.only),
        skip=tuple(first.tasks.skip),
        repeat=rep.repeat,
        seed=rep.seed,
        permuted=rep.permuted,
        tool_names=tuple(block.tool_names),
    )
    caps = rep.provider_capabilities
    identity = ProviderIdentity(
        name=rep.provider,
        model=rep.model,
        endpoint=rep.endpoint,
        request_fingerprint=rep.request_fingerprint,
        capabilities=Capabilities(
            seed=caps.seed,
            temperature_zero=caps.temperature_zero,
            logprobs=caps.logprobs,
            disable_thinking=caps.disable_thinking,
        ),
    )
    merged = assemble_report(
        inputs,
        options,
        plan,
        identity,
        trials,
        sum(report.duration_ms for report in reports),
        cache_hits=sum(_cache_hits(report) for report in reports),
        unsupported=_unsupported(first),
    )
    return merged.model_copy(update={"batch": _merged_batch(reports)})
