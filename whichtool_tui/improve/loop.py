"""The improve loop: tuning failures -> candidates -> held-out measurement -> accepted patch.

The base surface answers the tuning tasks (or a saved base run supplies them); each involved
tool gets its candidates (rule-based, or one structured model request); each candidate runs the
held-out tasks against the surface it would replace, with one seed, repeat and permutation, and
is accepted only through ``measure.decide``. Tools are visited in served order and an accepted
rewrite becomes part of the surface the next tool's candidates are measured against, so the
patch is exactly the surface the last measurement ran on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.inputs import build_run_inputs, normalize_listing
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial
from whichtool_tui.improve.briefs import ToolBrief, gather_briefs, tuning_failures
from whichtool_tui.improve.budget import TrialLedger, run_trials
from whichtool_tui.improve.events import (
    CandidateMeasured,
    CandidateProposed,
    ImproveSink,
    LoopNote,
    discard_improve_event,
)
from whichtool_tui.improve.measure import decide, measure
from whichtool_tui.improve.model import Candidate, ImproveReport, Measurement, SplitBlock, Target
from whichtool_tui.improve.patch import changed_keys, patch_operations, rewritable, with_rewrite
from whichtool_tui.improve.proposal import Proposal
from whichtool_tui.improve.rewrite_request import StructuredProvider, model_proposal
from whichtool_tui.improve.rules import rule_proposals
from whichtool_tui.improve.split import TaskSplit, no_held_out_note, tools_without_held_out
from whichtool_tui.improve.veto import router_scores, uses_embedding_router, veto_reason
from whichtool_tui.limits import DEFAULT_MIN_SIMILARITY
from whichtool_tui.providers.base import Provider, ProviderError, can_structure
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.tokens import tool_tokens
from whichtool_tui.tasks.load import LoadedTaskSet

METHOD = (
    "seeded split per expected tool into tuning (shown to the rewriter) and held-out (never "
    "shown); each candidate runs the held-out tasks against the surface it would replace with "
    "one seed, repeat and permutation; accepted when the task-level paired change in held-out "
    "accuracy is not negative, over-trigger does not rise, the tool's token estimate grows by "
    "at most the bound, the tasks it targets improve, and an independent router (a host "
    "search profile, and the embedding router when installed) does not get worse on the "
    "held-out prompts; candidates whose target has no held-out prompt are skipped unmeasured; "
    "intervals are task-clustered"
)
REWRITABLE_KEYS = frozenset(["description", "title"])


@dataclass(frozen=True)
class ImproveJob:
    """Everything one improve run reads, already loaded and validated."""

    listing: ServedListing
    patch_prefix: str
    loaded: LoadedTaskSet
    split: TaskSplit
    options: RunOptions
    holdout_share: float
    max_token_growth: float
    findings: tuple[Diagnostic, ...]
    base_run: RunReport | None = None
    base_run_source: str | None = None
    approximates: str | None = None
    focus: frozenset[str] = frozenset()  # rewrite only these tools (empty: every involved one)
    ledger: TrialLedger = field(default_factory=lambda: TrialLedger(None))  # trials sent
    veto_retriever: str = "bm25"  # the search profile of the second, independent router


async def _run(
    job: ImproveJob, raw_tools: Sequence[Any], tasks: Sequence[TaskSpec], provider: Provider
) -> RunReport:
    options = job.options
    job.ledger.spend(run_trials(tasks, options.repeat, options.only, options.skip))
    listing = dataclasses.replace(job.listing, raw_tools=list(raw_tools))
    surface = normalize_listing(listing)
    inputs = build_run_inputs(
        listing, surface, job.loaded, job.options.max_tools, approximates=job.approximates
    )
    report = await run_evaluation(
        dataclasses.replace(inputs, tasks=tuple(tasks)), job.options, provider
    )
    if not report.execution.ok:
        raise WhichtoolError(
            "improve/provider-errors",
            f"{report.execution.errored} of {report.execution.planned} trials failed; nothing "
            "can be measured on them",
            "Check the provider, or raise --timeout; improve needs every run to be scored.",
        )
    return report


def _tool_tokens(raw_tools: Sequence[Any], name: str) -> int:
    surface = normalize_listing(
        ServedListing(transport="snapshot", ref="", raw_tools=list(raw_tools))
    )
    return next(tool_tokens(tool).total for tool in surface.tools if tool.name == name)


async def _proposals(
    job: ImproveJob, brief: ToolBrief, provider: Provider, use_model: bool
) -> list[Proposal]:
    if not use_model:
        return rule_proposals(brief)
    try:
        proposal = await model_proposal(
            cast(StructuredProvider, provider),
            brief,
            job.max_token_growth,
            job.options.max_output_tokens,
        )
    except ProviderError as error:
        proposal = Proposal(
            tool=brief.tool.name,
            rewriter="model",
            rule=None,
            description="",
            title=brief.tool.title,
            target=brief.target,
            addressed=tuple(brief.addressed),
            refused=f"the rewrite request failed: {error.message}",
        )
    return [proposal]


def _candidate(
    proposal: Proposal,
    number: int,
    before: dict[str, Any],
    measurement: Measurement | None,
    accepted: bool,
    reason: str,
) -> Candidate:
    return Candidate(
        id=f"{proposal.tool}#{number}",
        tool=proposal.tool,
        rewriter=proposal.rewriter,
        rule=proposal.rule,
        addressed=list(proposal.addressed),
        target=proposal.target,
        description_before=str(before.get("description", "")),
        description_after=proposal.description,
        title_before=before.get("title") if isinstance(before.get("title"), str) else None,
        title_after=proposal.title if isinstance(before.get("title"), str) else None,
        measurement=measurement,
        accepted=accepted,
        reason=reason,
    )


def measurable(target: Target, held_out: Sequence[TaskSpec]) -> bool:
    """Whether a held-out prompt can show the improvement a target asks for."""
    if target.kind == "static":
        return True
    wanted: set[str | None] = {None} if target.kind == "over-trigger" else set(target.tools)
    return any(task.expected in wanted for task in held_out)


def _unmeasured_notes(job: ImproveJob, failures: Sequence[Any]) -> list[str]:
    failing = list(dict.fromkeys(f.expected for f in failures if f.expected is not None))
    missing = tools_without_held_out(job.split, failing)
    return [no_held_out_note(missing, len(failing), failing=True)] if missing else []


def _rank(measured: Measurement) -> tuple[float, float, float]:
    targeted = measured.targeted_paired.mean_delta if measured.targeted_paired else None
    accuracy = measured.accuracy_paired.mean_delta
    return (targeted or 0.0, accuracy or 0.0, -measured.token_growth)


async def _tuning_trials(
    job: ImproveJob, raw_tools: Sequence[Any], provider: Provider
) -> list[ScoredTrial]:
    """The base surface on the tuning tasks: a saved base run's trials, or a run of them now."""
    if job.base_run is None:
        return (await _run(job, raw_tools, job.split.tuning, provider)).trials
    wanted = {task.id for task in job.split.tuning}
    return [trial for trial in job.base_run.trials if trial.task_id in wanted]


async def improve_surface(
    job: ImproveJob, provider: Provider, sink: ImproveSink = discard_improve_event
) -> ImproveReport:
    """Run the whole loop with one provider: it routes every trial and, when it can answer in
    a structured shape and is not a baseline, writes the candidates too."""
    base_tools = list(job.listing.raw_tools)
    surface = normalize_listing(job.listing)
    tuning = {task.id: task for task in job.split.tuning}
    failures = tuning_failures(await _tuning_trials(job, base_tools, provider), tuning)
    briefs = gather_briefs(surface, job.findings, failures)
    if job.focus:
        briefs = [brief for brief in briefs if brief.tool.name in job.focus]
    use_model = can_structure(provider) and not provider.identity.is_baseline
    notes: list[str] = _unmeasured_notes(job, failures)
    for note in notes:
        sink(LoopNote(note))
    held_out = job.split.held_out
    embedding = uses_embedding_router(provider.identity.name)

    def second_routers(tools: Sequence[Any]) -> list[Any]:
        return router_scores(tools, held_out, job.veto_retriever, embedding, DEFAULT_MIN_SIMILARITY)

    base_report = await _run(job, base_tools, held_out, provider)
    current_tools, current = base_tools, base_report
    current_routers = second_routers(current_tools)
    candidates: list[Candidate] = []
    skipped = 0
    for brief in briefs:
        index = brief.tool.served_index
        if not rewritable(base_tools[index]):
            notes.append(
                f"`{brief.tool.name}` has no string description to replace; a rewrite needs "
                "the server to serve one first"
            )
            continue
        if use_model and not measurable(brief.target, held_out):
            skipped += 1  # a model rewrite would be paid for and never measured
            continue
        passed: list[tuple[int, Measurement, list[Any], RunReport]] = []
        for number, proposal in enumerate(await _proposals(job, brief, provider, use_model), 1):
            if proposal.refused is None and not measurable(proposal.target, held_out):
                skipped += 1
                continue
            before = current_tools[index]
            sink(
                CandidateProposed(
                    proposal.tool,
                    proposal.rule,
                    str(before.get("description", "")),
                    proposal.description,
                )
            )
            if proposal.refused is not None:
                candidates.append(
                    _candidate(proposal, number, before, None, False, proposal.refused)
                )
                sink(CandidateMeasured(candidates[-1]))
                continue
            trial_tools = with_rewrite(current_tools, index, proposal.description, proposal.title)
            stray = set(changed_keys(before, trial_tools[index])) - REWRITABLE_KEYS
            if stray:  # with_rewrite only touches the two keys; a guard, not a code path
                raise AssertionError(f"a rewrite changed {sorted(stray)}")
            tokens = (
                _tool_tokens(current_tools, brief.tool.name),
                _tool_tokens(trial_tools, brief.tool.name),
            )
            report = await _run(job, trial_tools, held_out, provider)
            measured = measure(current, report, proposal.target, tokens)
            accepted, reason = decide(measured, proposal.target, job.max_token_growth)
            if accepted:
                vetoed = veto_reason(current_routers, second_routers(trial_tools))
                if vetoed is not None:
                    accepted, reason = False, f"{vetoed} (the measuring provider: {reason})"
            candidates.append(_candidate(proposal, number, before, measured, False, reason))
            sink(CandidateMeasured(candidates[-1].model_copy(update={"accepted": accepted})))
            if accepted:
                passed.append((len(candidates) - 1, measured, trial_tools, report))
        if passed:
            best = max(passed, key=lambda entry: _rank(entry[1]))
            for position, _, _, _ in passed:
                chosen = candidates[position]
                if position == best[0]:
                    candidates[position] = chosen.model_copy(update={"accepted": True})
                else:
                    candidates[position] = chosen.model_copy(
                        update={
                            "reason": f"passed ({chosen.reason}), but "
                            f"{candidates[best[0]].id} improved more"
                        }
                    )
            current_tools, current = best[2], best[3]
            current_routers = second_routers(current_tools)
    accepted_tools = [c.tool for c in candidates if c.accepted]
    final = None
    if accepted_tools:
        totals = (
            sum(tool_tokens(tool).total for tool in surface.tools),
            sum(
                tool_tokens(tool).total
                for tool in normalize_listing(
                    dataclasses.replace(job.listing, raw_tools=current_tools)
                ).tools
            ),
        )
        final = measure(base_report, current, Target(kind="static", tools=accepted_tools), totals)
    if skipped:
        notes.append(
            f"{skipped} candidate(s) were skipped unmeasured: no held-out prompt expects the "
            "tools they target (or, for a distractor rewrite, no held-out distractor)"
        )
    if not briefs:
        about = "the chosen tools" if job.focus else "a tool description"
        notes.append(f"no finding or tuning failure involves {about}: nothing to rewrite")
    recorded = base_report.reproducibility
    return ImproveReport(
        snapshot=job.listing.ref,
        surface_hash=surface.hash,
        task_set=job.loaded.source,
        provider=recorded.provider,
        model=recorded.model,
        baseline=provider.identity.is_baseline,
        rewriter="model" if use_model else "rules",
        repeat=recorded.repeat,
        permuted=recorded.permuted,
        max_token_growth=job.max_token_growth,
        base_run=job.base_run_source,
        split=SplitBlock(
            seed=job.options.seed,
            holdout_share=job.holdout_share,
            tuning=[task.id for task in job.split.tuning],
            held_out=[task.id for task in job.split.held_out],
        ),
        tuning_failures=failures,
        candidates=candidates,
        accepted_tools=accepted_tools,
        patch=patch_operations(base_tools, current_tools, job.patch_prefix),
        final=final,
        notes=notes,
        method=METHOD,
    )
