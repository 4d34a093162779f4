"""Running a plan against a provider: bounded concurrency, the cache, errors become trial errors.

Cancellation (Ctrl+C in the CLI, cancel in the TUI) propagates as ``asyncio.CancelledError``:
the worker tasks are cancelled, which aborts their in-flight HTTP requests, and nothing is
returned, so no partial report can be built from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass

from whichtool_tui import limits
from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.evaluation.cache import TrialCache
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.pacing import (
    RATE_LIMIT_RETRIES,
    Pacer,
    is_rate_limit,
    wait_seconds,
)
from whichtool_tui.evaluation.plan import (
    ABSOLUTE_MAX_TOOLS,
    ABSOLUTE_MAX_TRIALS,
    PlannedTrial,
    TrialPlan,
)
from whichtool_tui.evaluation.report_model import Call, TrialError, TrialUsage
from whichtool_tui.limits import CONCURRENCY
from whichtool_tui.providers.base import (
    Provider,
    ProviderError,
    RouteReply,
    RouteRequest,
    ToolSpec,
)
from whichtool_tui.providers.calls import normalize_calls
from whichtool_tui.text_safety import redact_message

OutcomeCallback = Callable[[int, PlannedTrial, TrialOutcome], None]
# Sends one trial's request its own way (the deferred-discovery protocol makes two requests).
TrialSender = Callable[[PlannedTrial, RouteRequest], Awaitable[TrialOutcome]]


@dataclass(frozen=True)
class RunnerSettings:
    """How trials are sent: parallelism, sampling settings and the defensive budgets."""

    concurrency: int = 4
    temperature: float = 0.0
    reasoning_effort: str | None = None
    max_trials: int = ABSOLUTE_MAX_TRIALS
    max_tools: int = ABSOLUTE_MAX_TOOLS
    # Errored trials past which the run is invalid whatever follows: stop sending then.
    max_errors: int | None = None


def _check_limits(plan: TrialPlan, settings: RunnerSettings) -> None:
    """Re-check the budgets right before spending: a caller that skipped them still cannot."""
    if plan.planned > settings.max_trials:
        raise WhichtoolError(
            TRIAL_LIMIT,
            f"Refusing to run {plan.planned} trials: the limit is {settings.max_trials}",
            f"Raise the limit with --max-trials {plan.planned}.",
        )
    if len(plan.tool_names) > settings.max_tools:
        raise WhichtoolError(
            TOOL_LIMIT,
            f"Refusing to run on {len(plan.tool_names)} tools: the limit is {settings.max_tools}",
            f"Raise the limit with --max-tools {len(plan.tool_names)}.",
        )
    if not CONCURRENCY.contains(settings.concurrency):
        raise WhichtoolError(
            "run/invalid-concurrency",
            f"Concurrency must be between {CONCURRENCY.low} and {CONCURRENCY.high}",
            CONCURRENCY.hint(),
        )


def build_request(
    trial: PlannedTrial, tools: Mapping[str, ToolSpec], settings: RunnerSettings
) -> RouteRequest:
    """The bare single-message request of one trial, tools in its permuted order."""
    return RouteRequest(
        prompt=trial.task.prompt,
        tools=tuple(tools[name] for name in trial.order),
        temperature=settings.temperature,
        seed=trial.seed,
        reasoning_effort=settings.reasoning_effort,
        task_id=trial.task.id,
        trial_index=trial.trial_index,
    )


def error_outcome(exc: Exception) -> TrialOutcome:
    """A provider failure as the trial's error (redacted), never raised."""
    if isinstance(exc, ProviderError):
        return TrialOutcome.failed(
            TrialError(
                message=redact_message(exc.message),
                retryable=exc.retryable,
                hint=redact_message(exc.hint) if exc.hint else None,
            )
        )
    return TrialOutcome.failed(
        TrialError(
            message=redact_message(f"Provider failed: {type(exc).__name__}: {exc}"),
            retryable=False,
        )
    )


def capped_text(text: str | None) -> str | None:
    """``text`` cut to ``limits.MAX_STORED_TEXT_CHARS``, saying how much was left out."""
    if text is None or len(text) <= limits.MAX_STORED_TEXT_CHARS:
        return text
    left_out = len(text) - limits.MAX_STORED_TEXT_CHARS
    return f"{text[: limits.MAX_STORED_TEXT_CHARS]}… [{left_out:,} more characters not kept]"


def reply_outcome(reply: RouteReply, elapsed_ms: float) -> TrialOutcome:
    """A model's answer as a trial outcome (calls normalised, free text capped); raises on
    calls it cannot read."""
    calls = tuple(
        Call(
            name=call.name,
            arguments=call.arguments,
            raw_arguments=capped_text(call.raw_arguments),
        )
        for call in normalize_calls(reply)
    )
    usage = None
    if reply.usage is not None:
        usage = TrialUsage(
            prompt_tokens=reply.usage.prompt_tokens,
            completion_tokens=reply.usage.completion_tokens,
        )
    return TrialOutcome(
        calls=calls,
        text=capped_text(reply.text) or "",
        usage=usage,
        reasoning_chars=reply.reasoning_chars,
        latency_ms=round(elapsed_ms, 3),
    )


async def run_one(
    provider: Provider,
    request: RouteRequest,
    cache: TrialCache | None,
    pacer: Pacer | None = None,
) -> TrialOutcome:
    """One trial: a cache hit, or a provider call whose failure becomes the trial's error.

    With a ``pacer`` the call holds one of its slots, and a rate limit waits and tries again
    (see ``pacing``) instead of failing the trial.
    """
    key = cache.key_for(provider.identity, request) if cache is not None else None
    if cache is not None and key is not None:
        cached = cache.get(key)
        if cached is not None:
            return cached
    attempt = 0
    while True:
        async with pacer.slot() if pacer is not None else _no_slot() as generation:
            started = time.perf_counter()
            try:
                reply = await provider.route(request)
                outcome = reply_outcome(reply, (time.perf_counter() - started) * 1000)
            except asyncio.CancelledError:
                raise
            except ProviderError as exc:
                if pacer is None or not is_rate_limit(exc) or attempt >= RATE_LIMIT_RETRIES:
                    return error_outcome(exc)
                pacer.rate_limited(generation)
                attempt += 1
                delay = wait_seconds(exc, attempt)
            except Exception as exc:  # every provider failure is recorded on the trial
                return error_outcome(exc)
            else:
                if pacer is not None:
                    pacer.succeeded()
                break
        if pacer is not None:
            await pacer.wait(delay)
    if cache is not None and key is not None:
        # An unwritable cache costs only future hits, never this run.
        with contextlib.suppress(WhichtoolError):
            cache.put(key, outcome)
    return outcome


@contextlib.asynccontextmanager
async def _no_slot() -> AsyncIterator[int]:
    yield 0


_NOT_SENT = TrialOutcome.failed(
    TrialError(
        message="Not sent: more trials had already errored than --max-error-rate allows, so the "
        "run could no longer be valid",
        retryable=False,
    )
)


async def run_plan(
    plan: TrialPlan,
    provider: Provider,
    tools: Mapping[str, ToolSpec],
    settings: RunnerSettings,
    cache: TrialCache | None = None,
    on_outcome: OutcomeCallback | None = None,
    send: TrialSender | None = None,
    pacer: Pacer | None = None,
) -> list[TrialOutcome]:
    """Run every planned trial with at most ``concurrency`` in flight; results in plan order.

    ``send`` replaces the single request of a trial (default: ``run_one`` with the cache, paced
    by ``pacer`` when given).
    """
    _check_limits(plan, settings)
    outcomes: list[TrialOutcome | None] = [None] * len(plan.trials)
    next_index = 0

    errors = 0

    async def worker() -> None:
        nonlocal next_index, errors
        while next_index < len(plan.trials):
            index = next_index
            next_index += 1
            trial = plan.trials[index]
            if settings.max_errors is not None and errors > settings.max_errors:
                outcome = _NOT_SENT  # the error budget is already spent: no money after it
            else:
                request = build_request(trial, tools, settings)
                if send is None:
                    outcome = await run_one(provider, request, cache, pacer)
                else:
                    outcome = await send(trial, request)
                errors += outcome.error is not None
            outcomes[index] = outcome
            if on_outcome is not None:
                on_outcome(index, trial, outcome)

    workers = min(settings.concurrency, len(plan.trials))
    async with asyncio.TaskGroup() as group:
        for _ in range(workers):
            group.create_task(worker())
    return [outcome for outcome in outcomes if outcome is not None]
