"""The batch use cases: submit a planned run to the provider's batch API (and wait, or detach
with a state file), and resume a detached one to the same report.

The provider is opened by the one provider builder (``usecases.providers.open_provider``), so
the batch endpoints get the key exactly where the direct endpoint would: same route, same key
rule, same base URL provenance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.evaluation.batch_run import BatchTally
    from whichtool_tui.evaluation.batch_state import BatchRunState
    from whichtool_tui.evaluation.cache import TrialCache
    from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions
    from whichtool_tui.evaluation.events import EventSink
    from whichtool_tui.evaluation.report_model import RunReport
    from whichtool_tui.providers.base import Provider
    from whichtool_tui.providers.batch_api import BatchFacts
    from whichtool_tui.providers.http import HttpProvider


@dataclass(frozen=True)
class BatchOptions:
    """How a batch run is driven: where its state goes, how often to poll, how to split."""

    state_path: Path | None  # NAME.batch.json beside --out (None: no --out, nothing written)
    poll_seconds: float
    max_lines: int | None = None  # below the documented per-batch limit, when asked
    shard: str | None = None


def state_path_for(out: str) -> Path:
    """Where ``--out FILE`` puts its batch state (``FILE`` minus extension + ``.batch.json``)."""
    from whichtool_tui.evaluation.batch_state import state_path_for as path_for

    return path_for(out)


def read_batch_state(path: str) -> BatchRunState:
    """A state file written by ``--batch-detach`` (one-line error when it is not one)."""
    from whichtool_tui.evaluation.batch_state import read_state

    return read_state(path)


def remove_batch_state(path: Path, cache: TrialCache | None) -> None:
    """Drop a finished run's state file and its note in the cache (its answers are in the
    report and the cache)."""
    import contextlib

    from whichtool_tui.evaluation.batch_state import unregister_pending

    if cache is not None:
        unregister_pending(cache.directory, path)
    with contextlib.suppress(OSError):
        path.unlink()


def pending_batch_lines(cache_dir: str) -> list[str]:
    """``cache info``'s lines for the batch runs submitted and not yet finished."""
    from whichtool_tui.evaluation.batch_state import pending_batch_runs
    from whichtool_tui.redact import redact_paths

    return [
        f"  {redact_paths(run.state_file)}: {run.api}, {run.model}, {run.requests:,} requests "
        f"in {', '.join(run.batch_ids) or 'no batch'}"
        for run in pending_batch_runs(Path(cache_dir))
    ]


def progress_text(tally: BatchTally) -> str:
    """The progress line while polling: batches ended, lines submitted, completed, failed."""
    return (
        f"batch: {tally.ended}/{tally.batches} batches ended, {tally.submitted:,} lines "
        f"submitted, {tally.completed:,} completed, {tally.failed:,} failed"
    )


def batch_facts_for(provider_name: str | None) -> BatchFacts:
    """The published limits and discount of a provider's batch API (refused when it has none)."""
    from whichtool_tui.providers.batch_api import ANTHROPIC_BATCH, OPENAI_BATCH
    from whichtool_tui.providers.batch_factory import BATCH_PROVIDERS

    if provider_name == "anthropic":
        return ANTHROPIC_BATCH
    if provider_name in ("openai", "openai-chat"):
        return OPENAI_BATCH
    raise WhichtoolError(
        "batch/unsupported",
        f"The {provider_name or 'unnamed'} provider has no batch API here",
        f"--batch works with {', '.join(BATCH_PROVIDERS)}; run without --batch.",
    )


def _http(provider: Provider) -> HttpProvider:
    from whichtool_tui.providers.http import HttpProvider

    if isinstance(provider, HttpProvider):
        return provider
    batch_facts_for(provider.identity.name)  # an offline provider: refused here
    raise WhichtoolError("batch/unsupported", f"{provider.identity.name} has no batch API")


async def submit_batch_run(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: Provider,
    cache: TrialCache | None,
    batch: BatchOptions,
    on_state: Callable[[BatchRunState], None] | None = None,
) -> BatchRunState:
    """Submit every request the cache cannot answer; the state file is written after each
    accepted batch. The provider stays open for ``wait_batch_run``; closed on failure."""
    from whichtool_tui.evaluation.batch_run import submit_batches
    from whichtool_tui.evaluation.batch_state import register_pending, write_state
    from whichtool_tui.providers.batch_factory import open_batch_api

    http = _http(provider)
    api = open_batch_api(http)

    def written(state: BatchRunState) -> None:
        if batch.state_path is not None:
            write_state(batch.state_path, state)
            if cache is not None:
                register_pending(cache.directory, batch.state_path, state)
        if on_state is not None:
            on_state(state)

    try:
        state = await submit_batches(
            inputs,
            options,
            prepared,
            http,
            api,
            cache,
            max_lines=batch.max_lines,
            shard=batch.shard,
            on_state=written,
        )
    finally:
        await api.aclose()
    if not state.batches:
        written(state)  # everything came from the cache: the state still says so
    return state


async def finish_batch_run(
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    provider: Provider,
    cache: TrialCache | None,
    state: BatchRunState,
    batch: BatchOptions,
    *,
    on_progress: Callable[[str], None] | None = None,
    sink: EventSink | None = None,
) -> RunReport:
    """Poll the state's batches until they end, collect their lines, and build the report
    (the same whether the run waited or was resumed later, on this machine or another)."""
    from whichtool_tui.evaluation.batch_run import (
        check_same_plan,
        collect_results,
        finish_report,
        wait_for_batches,
    )
    from whichtool_tui.evaluation.events import discard_event
    from whichtool_tui.providers.batch_factory import open_batch_api

    http = _http(provider)
    check_same_plan(state, inputs, options, prepared, http)
    api = open_batch_api(http)
    try:
        shown = None if on_progress is None else lambda tally: on_progress(progress_text(tally))
        progress = await wait_for_batches(api, state.ids(), batch.poll_seconds, shown)
        collected = await collect_results(api, http, state, progress, cache)
        return await finish_report(
            inputs, options, prepared, http, api, state, collected, cache, sink or discard_event
        )
    finally:
        await api.aclose()
