"""``run --discovery deferred``: every trial through a deferring host's two steps, and the
same plan with every tool upfront, compared task by task."""

from __future__ import annotations

from dataclasses import replace

from whichtool_tui.discovery.compare import compare_arms
from whichtool_tui.discovery.documents import documents_of_specs
from whichtool_tui.discovery.options import DiscoveryOptions as DiscoveryOptions
from whichtool_tui.discovery.protocol import (
    SEARCH_TOOL_NAME,
    answer_query,
    read_search_call,
    search_tool,
)
from whichtool_tui.discovery.ranking import Ranking
from whichtool_tui.discovery.run_model import (
    DeferredTrial,
    DiscoveryBlock,
    SearchStepCall,
    UpfrontTrial,
)
from whichtool_tui.evaluation.cache import TrialCache
from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions, run_evaluation
from whichtool_tui.evaluation.events import (
    EventSink,
    RunEvent,
    RunFinished,
    RunPlanned,
    discard_event,
)
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import PlannedTrial
from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial, TrialUsage
from whichtool_tui.evaluation.runner import run_one
from whichtool_tui.evaluation.stats import proportion
from whichtool_tui.providers.base import Provider, RouteRequest

NO_TOOLS_TEXT = "the tool search returned no tools"


def _usage(first: TrialUsage | None, second: TrialUsage | None) -> TrialUsage | None:
    if first is None or second is None:
        return second or first

    def add(a: int | None, b: int | None) -> int | None:
        return None if a is None or b is None else a + b

    return TrialUsage(
        prompt_tokens=add(first.prompt_tokens, second.prompt_tokens),
        completion_tokens=add(first.completion_tokens, second.completion_tokens),
    )


class DeferredSender:
    """Sends one trial as two requests: the search step, then the found tools."""

    def __init__(
        self,
        provider: Provider,
        cache: TrialCache | None,
        inputs: RunInputs,
        options: DiscoveryOptions,
    ) -> None:
        from whichtool_tui.discovery.review import build_retrievers

        self.provider = provider
        self.cache = cache
        self.options = options
        self.tools = {tool.name: tool for tool in inputs.tools}
        self.names = inputs.tool_names
        # The surface's own documents (titles, annotations) when the inputs carry them.
        documents = inputs.search_documents or documents_of_specs(inputs.tools)
        self.retriever = build_retrievers(documents, [options.retriever], options.min_similarity)[0]
        self.search_spec = search_tool(
            options.retriever, options.top_k, options.variant, self.names
        )
        self.steps: dict[tuple[str, int], DeferredTrial] = {}

    def _record(self, trial: PlannedTrial, **fields: object) -> None:
        self.steps[(trial.task.id, trial.trial_index)] = DeferredTrial(
            task_id=trial.task.id,
            trial_index=trial.trial_index,
            **fields,
        )

    async def __call__(self, trial: PlannedTrial, request: RouteRequest) -> TrialOutcome:
        """Step 1 (search, unless a baseline), the host's answer, then step 2 (the found tools)."""
        expected = trial.task.expected
        first: TrialOutcome | None = None
        if self.provider.identity.is_baseline:
            query: str | None = trial.task.prompt
            ranking: Ranking | None = self.retriever.search(trial.task.prompt)
            source = "prompt"
            calls: list[SearchStepCall] = []
        else:
            source = "model"
            first = await run_one(
                self.provider, replace(request, tools=(self.search_spec,)), self.cache
            )
            calls = [SearchStepCall(name=c.name, arguments=c.arguments) for c in first.calls]
            if first.error is not None:
                self._record(
                    trial,
                    query_source=source,
                    searched=False,
                    query=None,
                    search_calls=[],
                    search_text="",
                    retrieved=[],
                    expected_rank=None,
                    found=None if expected is None else False,
                    offered=False,
                    error=first.error.message,
                )
                return first
            search = read_search_call(first.calls)
            query = search.query
            if not search.searched:
                # No search: what it answered (text, or a call to a tool never loaded) is final.
                self._record(
                    trial,
                    query_source=source,
                    searched=False,
                    query=None,
                    search_calls=calls,
                    search_text=first.text,
                    retrieved=[],
                    expected_rank=None,
                    found=None if expected is None else False,
                    offered=False,
                )
                return first
            ranking = (
                answer_query(query, self.retriever, self.options.variant, self.names)
                if query
                else None
            )
        retrieved = list(ranking.top(self.options.top_k)) if ranking is not None else []
        rank = ranking.rank_of(expected) if ranking is not None and expected else None
        self._record(
            trial,
            query_source=source,
            searched=True,
            query=query,
            search_calls=calls,
            search_text=first.text if first is not None else "",
            retrieved=retrieved,
            expected_rank=rank,
            found=None if expected is None else expected in retrieved,
            offered=bool(retrieved),
        )
        earlier = first.latency_ms if first is not None else 0.0
        if not retrieved:
            return TrialOutcome(text=NO_TOOLS_TEXT, latency_ms=earlier)
        offered = tuple(self.tools[name] for name in retrieved)
        second = await run_one(self.provider, replace(request, tools=offered), self.cache)
        if second.error is not None:
            return second
        return replace(
            second,
            latency_ms=round(earlier + second.latency_ms, 3),
            usage=_usage(first.usage if first is not None else None, second.usage),
        )


def deferred_floor(inputs: RunInputs, options: DiscoveryOptions, task_tokens: int) -> int:
    """Prompt tokens one deferred trial sends at least: the search step (its one tool and the
    prompt), then the loaded step (``top_k`` tools of the surface's mean size and the prompt)."""
    import json

    from whichtool_tui.surface.tokens import count_tokens

    spec = search_tool(options.retriever, options.top_k, options.variant, inputs.tool_names)
    search = count_tokens(
        json.dumps(
            {"name": spec.name, "description": spec.description, "inputSchema": spec.input_schema}
        )
    )
    by_tool = inputs.context_cost.by_tool
    mean = sum(tool.total for tool in by_tool.values()) / len(by_tool) if by_tool else 0.0
    loaded = round(mean * min(options.top_k, len(by_tool)))
    return search + task_tokens + loaded + task_tokens


def discovery_block(
    options: DiscoveryOptions,
    trials: list[ScoredTrial],
    steps: dict[tuple[str, int], DeferredTrial],
    upfront: list[ScoredTrial] | None,
) -> DiscoveryBlock:
    """Found and picked rates over scored trials with an expected tool, plus the comparison."""
    keyed = [(t, steps.get((t.task_id, t.trial_index))) for t in trials]
    ordered = [step for _, step in keyed if step is not None]
    scored = [t for t in trials if t.expected is not None and t.verdict != "error"]
    found_keys = {(s.task_id, s.trial_index) for s in ordered if s.found}
    found = [t for t in scored if (t.task_id, t.trial_index) in found_keys]
    correct = [t for t in scored if t.verdict == "correct"]
    correct_found = [t for t in found if t.verdict == "correct"]
    comparison = None
    upfront_rows = None
    if upfront is not None:
        upfront_rows = [
            UpfrontTrial(
                task_id=t.task_id, trial_index=t.trial_index, pick=t.pick, verdict=t.verdict
            )
            for t in upfront
        ]
        comparison = compare_arms(trials, upfront, ordered)
    return DiscoveryBlock(
        mode="deferred",
        variant=options.variant,
        retriever=options.retriever,
        top_k=options.top_k,
        search_tool=SEARCH_TOOL_NAME,
        found=proportion(len(found), len(scored)),
        picked=proportion(len(correct), len(scored)),
        picked_when_found=proportion(len(correct_found), len(found)),
        trials=ordered,
        upfront=upfront_rows,
        comparison=comparison,
    )


async def run_deferred_evaluation(
    inputs: RunInputs,
    options: RunOptions,
    provider: Provider,
    discovery: DiscoveryOptions,
    *,
    prepared: PreparedRun | None = None,
    cache: TrialCache | None = None,
    sink: EventSink = discard_event,
) -> RunReport:
    """The upfront arm (unless switched off), then the deferred arm with progress, then both
    compared; the report's ``trials`` are the deferred arm's."""
    upfront: RunReport | None = None
    if discovery.compare_upfront:
        upfront = await run_evaluation(inputs, options, provider, prepared=prepared, cache=cache)
    sender = DeferredSender(provider, cache, inputs, discovery)
    finished: list[RunReport] = []

    def forward(event: RunEvent) -> None:
        if isinstance(event, RunFinished):
            finished.append(event.report)
        elif isinstance(event, RunPlanned):
            # The deferred arm's own floor (search step + loaded tools), plus the upfront
            # arm's when it runs beside: what the whole command sends at least.
            upfront_floor = event.prompt_tokens_per_trial
            task_tokens = prepared.estimate.task_text_tokens if prepared is not None else 0
            own = deferred_floor(inputs, discovery, task_tokens)
            per_trial = own + (upfront_floor if discovery.compare_upfront else 0)
            sink(replace(event, prompt_tokens_per_trial=per_trial))
        else:
            sink(event)

    report = await run_evaluation(
        inputs, options, provider, prepared=prepared, cache=cache, sink=forward, send=sender
    )
    block = discovery_block(
        discovery,
        report.trials,
        sender.steps,
        upfront.trials if upfront is not None else None,
    )
    report = report.model_copy(update={"discovery": block})
    sink(RunFinished(report=report))
    return report
