"""A planned run executed through a provider's batch API: the same requests, sent as batch lines.

Each trial's request is built as for a direct run; its trial cache key is its ``custom_id``, so
a request already answered in the cache is not sent, a repeated request is sent once, and every
answer lands in the cache. Answers are read by the direct endpoint's own parser; a line that
errored or expired becomes an errored trial with its reason, counted by --max-error-rate. The
report is then built by the direct path (``run_evaluation``) from those answers, so a batch run
and a direct run of the same answers score alike.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.batch_state import (
    BatchRunState,
    SubmittedBatch,
)
from whichtool_tui.evaluation.cache import TrialCache, cache_key
from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions, run_evaluation
from whichtool_tui.evaluation.events import EventSink, discard_event
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import PlannedTrial
from whichtool_tui.evaluation.plan_identity import ProviderKey, plan_fingerprint
from whichtool_tui.evaluation.report_model import BatchBlock, RunReport, TrialError
from whichtool_tui.evaluation.runner import (
    RunnerSettings,
    build_request,
    error_outcome,
    reply_outcome,
)
from whichtool_tui.providers.base import ProviderError, ProviderIdentity, RouteRequest
from whichtool_tui.providers.batch_api import BatchApi, BatchLine, BatchProgress, split_lines
from whichtool_tui.providers.http import HttpProvider
from whichtool_tui.text_safety import redact_message

Sleep = Callable[[float], Awaitable[None]]


def provider_key(identity: ProviderIdentity) -> ProviderKey:
    """The part of a provider's identity a plan fingerprint covers."""
    return ProviderKey(identity.name, identity.model, identity.request_fingerprint)


@dataclass(frozen=True)
class BatchTally:
    """The progress line's numbers, over every batch of the run."""

    batches: int
    ended: int
    submitted: int
    completed: int
    failed: int


def _settings(options: RunOptions) -> RunnerSettings:
    return RunnerSettings(
        temperature=options.temperature, reasoning_effort=options.reasoning_effort
    )


def _key(provider: HttpProvider, request: RouteRequest, cache: TrialCache | None) -> str:
    key = (
        cache.key_for(provider.identity, request)
        if cache is not None
        else cache_key(provider.identity, request)
    )
    if key is None:  # every HTTP preset has a request fingerprint; kept as a guard
        raise ProviderError("batch/uncacheable", "This provider's requests have no cache key")
    return key


def pending_lines(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: HttpProvider,
    cache: TrialCache | None,
) -> tuple[list[BatchLine], int]:
    """The distinct requests the cache cannot answer, and how many trials it already does."""
    tools = {tool.name: tool for tool in inputs.tools}
    settings = _settings(options)
    seen: set[str] = set()
    lines: list[BatchLine] = []
    cached = 0
    for trial in prepared.plan.trials:
        request = build_request(trial, tools, settings)
        key = _key(provider, request, cache)
        if key in seen:
            continue
        if cache is not None and cache.get(key) is not None:
            cached += 1
            continue
        seen.add(key)
        lines.append(BatchLine(key, provider.build_body(request)))
    return lines, cached


async def submit_batches(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: HttpProvider,
    api: BatchApi,
    cache: TrialCache | None,
    *,
    max_lines: int | None = None,
    shard: str | None = None,
    on_state: Callable[[BatchRunState], None] | None = None,
) -> BatchRunState:
    """Submit every pending request in batches under the limits; ``on_state`` sees the state
    after each accepted batch (the state file is written then, so no batch id is ever lost)."""
    lines, cached = pending_lines(inputs, options, prepared, provider, cache)
    chunks = list(split_lines(lines, api, max_lines))
    identity = provider.identity
    state = BatchRunState(
        api=api.facts.api,
        provider=identity.name,
        model=identity.model,
        endpoint=identity.endpoint,
        plan_fingerprint=plan_fingerprint(inputs, options, prepared.plan, provider_key(identity)),
        planned=prepared.plan.planned,
        shard=shard,
        request_fingerprints=[line.custom_id for line in lines],
        cached=cached,
        batches=[],
    )
    first = 0
    for chunk in chunks:
        batch_id = await api.submit(chunk)
        batch = SubmittedBatch(id=batch_id, first=first, count=len(chunk))
        state = state.model_copy(update={"batches": [*state.batches, batch]})
        first += len(chunk)
        if on_state is not None:
            on_state(state)
    return state


def check_same_plan(
    state: BatchRunState,
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: HttpProvider,
) -> None:
    """Refuse to finish a batch run under a different plan, provider or model."""
    current = plan_fingerprint(inputs, options, prepared.plan, provider_key(provider.identity))
    if current != state.plan_fingerprint:
        raise WhichtoolError(
            "batch/plan-mismatch",
            f"This run's plan differs from the one submitted ({state.planned} trials on "
            f"{state.provider} {state.model}): the surface, tasks, seed, repeat, sampling or "
            "provider changed",
            "Resume with the same target, task file and run flags as the submitted run.",
        )


async def wait_for_batches(
    api: BatchApi,
    batch_ids: list[str],
    poll_seconds: float,
    on_progress: Callable[[BatchTally], None] | None = None,
    sleep: Sleep = asyncio.sleep,
) -> dict[str, BatchProgress]:
    """Poll every batch until all have ended, reporting the tally after each round."""
    latest: dict[str, BatchProgress] = {}
    while True:
        for batch_id in batch_ids:
            known = latest.get(batch_id)
            if known is None or known.state != "ended":
                latest[batch_id] = await api.poll(batch_id)
        values = list(latest.values())
        if on_progress is not None:
            on_progress(
                BatchTally(
                    batches=len(batch_ids),
                    ended=sum(1 for p in values if p.state == "ended"),
                    submitted=sum(p.total for p in values),
                    completed=sum(p.completed for p in values),
                    failed=sum(p.failed for p in values),
                )
            )
        if all(p.state == "ended" for p in values):
            return latest
        await sleep(poll_seconds)


@dataclass
class Collected:
    """Every returned line as a trial outcome, keyed by custom_id, with the failure counts."""

    outcomes: dict[str, TrialOutcome]
    missing_reason: dict[str, str]  # custom_id -> why its batch returned nothing for it
    errored: int = 0
    expired: int = 0


def _failed(message: str, retryable: bool) -> TrialOutcome:
    return TrialOutcome.failed(
        TrialError(message=redact_message(f"Batch line: {message}"), retryable=retryable)
    )


async def collect_results(
    api: BatchApi,
    provider: HttpProvider,
    state: BatchRunState,
    progress: Mapping[str, BatchProgress],
    cache: TrialCache | None,
) -> Collected:
    """Read every ended batch's lines; answers are parsed as direct answers and cached."""
    collected = Collected({}, {})
    for batch in state.batches:
        reason = progress[batch.id].reason or "the batch returned no result for this request"
        for custom_id in state.request_fingerprints[batch.first : batch.first + batch.count]:
            collected.missing_reason[custom_id] = reason
        for line in await api.results(batch.id):
            if line.answer is None:
                collected.errored += not line.expired
                collected.expired += line.expired
                shown = f"expired: {line.error}" if line.expired else line.error or "failed"
                collected.outcomes[line.custom_id] = _failed(shown, line.expired)
                continue
            try:
                outcome = reply_outcome(provider.parse(line.answer, 0.0), 0.0)
            except Exception as exc:  # a malformed answer is that trial's error, as direct
                collected.errored += 1
                collected.outcomes[line.custom_id] = error_outcome(exc)
                continue
            collected.outcomes[line.custom_id] = outcome
            if cache is not None:
                with contextlib.suppress(WhichtoolError):
                    cache.put(line.custom_id, outcome)
    return collected


async def finish_report(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: HttpProvider,
    api: BatchApi,
    state: BatchRunState,
    collected: Collected,
    cache: TrialCache | None,
    sink: EventSink = discard_event,
) -> RunReport:
    """The report, built by the direct path from the batch's answers (nothing is sent)."""

    async def answered(trial: PlannedTrial, request: RouteRequest) -> TrialOutcome:
        key = _key(provider, request, cache)
        found = collected.outcomes.get(key)
        if found is None and cache is not None:
            found = cache.get(key)
        if found is None:
            reason = collected.missing_reason.get(key, "the request was never submitted")
            found = _failed(reason, True)
        return found

    report = await run_evaluation(
        inputs,
        options,
        provider,
        prepared=prepared,
        cache=None,
        sink=sink,
        send=answered,
        error_budget=False,
    )
    block = BatchBlock(
        api=api.facts.api,
        batch_ids=state.ids(),
        lines_sent=len(state.request_fingerprints),
        answered_from_cache=state.cached,
        errored_lines=collected.errored,
        expired_lines=collected.expired,
        discount=api.facts.discount,
        discount_source=api.facts.source,
        verified_on=api.facts.verified_on,
    )
    return report.model_copy(update={"batch": block})
