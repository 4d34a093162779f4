"""Paired comparison of two saved runs: refusal rules, paired tests, confusions and the verdict.

Trials are paired by (task, trial index), so a change counts only when the same prompt shown
the same way flipped. Upstream's exact sign test over trial pairs is always computed; by default
the gate uses the task-level sign-flip test instead (``paired_unit="trial"`` restores upstream).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from whichtool_tui.diagnostics import Diagnostic, sort_diagnostics
from whichtool_tui.evaluation.diff_model import (
    ConfusionDelta,
    ContextTokensDelta,
    DiffReport,
    DiffRunRef,
    MetricDelta,
    PairedComparison,
    PairedUnit,
    ToolDelta,
)
from whichtool_tui.evaluation.diff_tasks import (
    PairTally,
    holm_family,
    is_correct,
    tallied_task_paired,
    tally_pairs,
)
from whichtool_tui.evaluation.diff_verdict import (
    GateVerdict,
    comparison_verdict,
    confusion_verdict,
)
from whichtool_tui.evaluation.report_model import ReportDiagnostic, RunReport, ScoredTrial
from whichtool_tui.evaluation.signtest import is_distinguishable, sign_test_p_value
from whichtool_tui.evaluation.wording import p_text, points, signed_points, units
from whichtool_tui.gc_phases import gc_paused

TrialKey = tuple[str, int]
# A base trial and its head partner (either side may be missing).
Paired = tuple[ScoredTrial | None, ScoredTrial | None]
Passes = Callable[[ScoredTrial], bool]


@dataclass(frozen=True)
class DiffInput:
    """One side of the diff: a strictly read run and where it came from (redacted)."""

    report: RunReport
    source: str


def incomparable_reasons(base: RunReport, head: RunReport) -> list[str]:
    """Every reason the two runs cannot be compared; empty when they can."""
    reasons: list[str] = []
    if not base.execution.ok:
        reasons.append("the base run is not valid (execution.ok is false)")
    if not head.execution.ok:
        reasons.append("the head run is not valid (execution.ok is false)")
    b, h = base.reproducibility, head.reproducibility

    def differs(label: str, before: object, after: object) -> None:
        if before != after:
            reasons.append(f"{label} differs: {before} vs {after}")

    differs("provider", b.provider, h.provider)
    differs("model", b.model, h.model)
    differs("endpoint", b.endpoint, h.endpoint)
    differs("requestFingerprint", b.request_fingerprint, h.request_fingerprint)
    for name in ("seed", "temperature_zero", "logprobs", "disable_thinking"):
        differs(
            f"providerCapabilities.{name}",
            getattr(b.provider_capabilities, name),
            getattr(h.provider_capabilities, name),
        )
    differs("temperature", b.temperature, h.temperature)
    differs("reasoningEffort", b.reasoning_effort, h.reasoning_effort)
    differs("seed", b.seed, h.seed)
    differs("repeat", b.repeat, h.repeat)
    differs("permuted", b.permuted, h.permuted)
    differs("taskSetVersion", b.task_set_version, h.task_set_version)

    def selection(report: RunReport) -> list[tuple[str, str, str | None]]:
        return sorted((t.id, t.prompt, t.expected) for t in report.tasks.list)

    if selection(base) != selection(head):
        reasons.append("the selected tasks differ (id, prompt or expected)")
    return reasons


def _index(trials: Iterable[ScoredTrial]) -> dict[TrialKey, ScoredTrial]:
    return {(t.task_id, t.trial_index): t for t in trials}


def _by_expected(trials: Iterable[ScoredTrial]) -> dict[str | None, list[ScoredTrial]]:
    """Trials grouped by expected tool, so per-tool and per-pair work stays linear."""
    groups: dict[str | None, list[ScoredTrial]] = defaultdict(list)
    for trial in trials:
        groups[trial.expected].append(trial)
    return groups


def paired_comparison(pairs: Iterable[Paired], passes: Passes) -> PairedComparison:
    """Sign-test the (base, head) pairs; an error or a missing head partner is excluded."""
    return _tallied_comparison(tally_pairs(pairs, passes))


def _tallied_comparison(flips: PairTally) -> PairedComparison:
    p_value = sign_test_p_value(flips.gained, flips.lost)
    return PairedComparison(
        matched=flips.matched,
        improved=flips.gained,
        regressed=flips.lost,
        excluded=flips.excluded,
        p_value=p_value,
        distinguishable=is_distinguishable(flips.gained, flips.lost, p_value),
    )


def _pairs_by_expected(
    base: Iterable[ScoredTrial], head_by_key: dict[TrialKey, ScoredTrial]
) -> dict[str | None, list[Paired]]:
    """Every base trial with its head partner (or None), by expected tool; one lookup each."""
    groups: dict[str | None, list[Paired]] = defaultdict(list)
    for before in base:
        after = head_by_key.get((before.task_id, before.trial_index))
        groups[before.expected].append((before, after))
    return groups


def _delta(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


def _metric(
    before: float | None, after: float | None, pairs: list[Paired], passes: Passes
) -> MetricDelta:
    tally = tally_pairs(pairs, passes)
    paired = _tallied_comparison(tally)
    return MetricDelta(
        before=before,
        after=after,
        delta=_delta(before, after),
        distinguishable=paired.distinguishable,
        paired=paired,
        by_task=tallied_task_paired(tally),
    )


def _is_confusion(trial: ScoredTrial, pair: tuple[str, str]) -> bool:
    if trial.verdict != "wrong-tool" or trial.expected is None or trial.pick is None:
        return False
    return tuple(sorted((trial.expected, trial.pick))) == pair


def _confusion_delta(
    pair: tuple[str, str],
    swaps: int,
    rate_denominator: int,
    head_by_expected: dict[str | None, list[ScoredTrial]],
    base_by_key: dict[TrialKey, ScoredTrial],
) -> ConfusionDelta:
    head = [*head_by_expected.get(pair[0], []), *head_by_expected.get(pair[1], [])]
    pairs: list[Paired] = [
        (base_by_key.get((after.task_id, after.trial_index)), after)
        for after in head
        if after.verdict != "error"
    ]
    flips = tally_pairs(pairs, lambda trial: _is_confusion(trial, pair))
    p_value = sign_test_p_value(flips.gained, flips.lost)
    return ConfusionDelta(
        tools=pair,
        swaps=swaps,
        denominator=min(rate_denominator, flips.matched),
        introduced=flips.gained,
        resolved=flips.lost,
        p_value=p_value,
        distinguishable=is_distinguishable(flips.gained, flips.lost, p_value),
        # Oriented like every task-level comparison: the confusion not happening is a pass.
        by_task=tallied_task_paired(flips.inverted()),
    )


def _pair_denominators(report: RunReport) -> dict[tuple[str, str], tuple[int, int]]:
    """(swaps, rate denominator) per confusion pair, as the report's rate proportion states."""
    return {
        (pair.tools[0], pair.tools[1]): (pair.swaps, pair.rate.denominator)
        for pair in report.metrics.confusion_pairs
    }


def _trials(count: int) -> str:
    return f"{count} paired trial" + ("" if count == 1 else "s")


def _tool_deltas(
    base: RunReport,
    head: RunReport,
    pairs_by_expected: dict[str | None, list[Paired]],
    unit: PairedUnit,
) -> tuple[list[ToolDelta], list[Diagnostic]]:
    before = {row.tool: row.accuracy.value for row in base.metrics.by_tool}
    after = {row.tool: row.accuracy.value for row in head.metrics.by_tool}
    notes: list[Diagnostic] = []
    deltas: list[ToolDelta] = []
    tools = sorted(set(before) | set(after))
    tallies = [tally_pairs(pairs_by_expected.get(tool, []), is_correct) for tool in tools]
    by_task = holm_family([tallied_task_paired(tally) for tally in tallies])
    for tool, task_level, tally in zip(tools, by_task, tallies, strict=True):
        if tool not in after:
            notes.append(
                Diagnostic(
                    code="diff/tool-removed",
                    severity="info",
                    tool=tool,
                    message=f"`{tool}` is no longer on the surface.",
                )
            )
        elif tool not in before:
            notes.append(
                Diagnostic(
                    code="diff/tool-added",
                    severity="info",
                    tool=tool,
                    message=f"`{tool}` is new on the surface.",
                )
            )
        paired = _tallied_comparison(tally)
        delta = ToolDelta(
            tool=tool,
            before=before.get(tool),
            after=after.get(tool),
            delta=_delta(before.get(tool), after.get(tool)),
            distinguishable=paired.distinguishable,
            paired=paired,
            by_task=task_level,
        )
        verdict = comparison_verdict(unit, paired, task_level)
        fell = delta.delta if unit == "trial" else task_level.mean_delta
        if verdict.distinguishable and fell is not None and fell < 0:
            per_task = "" if unit == "trial" else f" per task over {units(verdict.count, 'task')}"
            holm = (
                ""
                if unit == "trial"
                else f", Holm-adjusted over {sum(1 for c in by_task if c.tasks)} tools"
            )
            notes.append(
                Diagnostic(
                    code="diff/tool-regressed",
                    severity="warning",
                    tool=tool,
                    message=f"`{tool}` single-call accuracy fell by {points(fell)}{per_task} "
                    f"({verdict.label}: {verdict.p(spaced=True)}{holm}).",
                )
            )
        deltas.append(delta)
    deltas.sort(key=lambda d: (d.delta or 0.0, d.tool))
    return deltas, notes


def diff_runs(
    base: DiffInput,
    head: DiffInput,
    max_accuracy_drop: float | None = None,
    paired_unit: PairedUnit = "task",
) -> DiffReport:
    """Compare two strictly read runs; ``ok`` is false when the change must block a merge.

    ``paired_unit`` picks the test that gates: "task" (the sign-flip test over tasks, the
    default) or "trial" (upstream's sign test over trial pairs, reproduced exactly).
    """
    with gc_paused():  # indexes over 2 x 100,000 live trials: nothing here is garbage
        return _diff_runs(base, head, max_accuracy_drop, paired_unit)


def _gates(unit: PairedUnit, delta: MetricDelta) -> GateVerdict:
    """A headline comparison's verdict under the gating unit."""
    return comparison_verdict(unit, delta.paired, delta.by_task)


def _worse(unit: PairedUnit, delta: MetricDelta, rate_rises_when_worse: bool) -> bool:
    """Whether the change went the bad way, measured in the gating unit."""
    if unit == "trial":
        if delta.delta is None:
            return False
        return delta.delta > 0 if rate_rises_when_worse else delta.delta < 0
    return delta.by_task is not None and (delta.by_task.mean_delta or 0.0) < 0


def _diff_runs(
    base: DiffInput, head: DiffInput, max_accuracy_drop: float | None, unit: PairedUnit
) -> DiffReport:
    b, h = base.report, head.report
    reasons = incomparable_reasons(b, h)
    diagnostics: list[Diagnostic] = [
        Diagnostic(code="diff/incomparable", severity="error", message=reason) for reason in reasons
    ]
    if b.reproducibility.surface_hash == h.reproducibility.surface_hash:
        diagnostics.append(
            Diagnostic(
                code="diff/same-surface",
                severity="info",
                message="Both runs measured the same surface; differences are run-to-run noise "
                "or provider drift.",
            )
        )
    base_by_key = _index(b.trials)
    pairs_by_expected = _pairs_by_expected(b.trials, _index(h.trials))
    targeted = [
        pair for tool, group in pairs_by_expected.items() if tool is not None for pair in group
    ]
    accuracy = _metric(b.metrics.accuracy.value, h.metrics.accuracy.value, targeted, is_correct)
    over_trigger = _metric(
        b.metrics.over_trigger.value,
        h.metrics.over_trigger.value,
        pairs_by_expected.get(None, []),
        lambda t: t.verdict != "over-triggered",
    )
    multi_call = _metric(
        b.metrics.multi_call_rate.value,
        h.metrics.multi_call_rate.value,
        [pair for group in pairs_by_expected.values() for pair in group],
        lambda t: not t.unexpected_additional_calls,
    )
    by_tool, tool_notes = _tool_deltas(b, h, pairs_by_expected, unit)
    diagnostics += tool_notes
    base_pairs, head_pairs = _pair_denominators(b), _pair_denominators(h)
    head_by_expected = _by_expected(h.trials)
    new_confusions = [
        _confusion_delta(pair, *head_pairs[pair], head_by_expected, base_by_key)
        for pair in sorted(set(head_pairs) - set(base_pairs))
    ]
    resolved_confusions = [
        _confusion_delta(pair, *base_pairs[pair], head_by_expected, base_by_key)
        for pair in sorted(set(base_pairs) - set(head_pairs))
    ]
    blocking_confusions = 0
    for confusion in new_confusions:
        first, second = confusion.tools
        verdict = confusion_verdict(unit, confusion)
        trial_evidence = (
            f"introduced in {_trials(confusion.introduced)}, resolved in "
            f"{confusion.resolved} ({p_text(confusion.p_value, spaced=True)})"
        )
        if unit == "trial":
            evidence = trial_evidence
        else:
            evidence = (
                f"task-level {verdict.p(spaced=True)} over {units(verdict.count, 'task')}; "
                f"for reference, by trial pair: {trial_evidence}"
            )
        blocks = verdict.distinguishable
        blocking_confusions += blocks
        diagnostics.append(
            Diagnostic(
                code="diff/new-confusion",
                severity="error" if blocks else "warning",
                tools=[first, second],
                message=f"New confusion `{first}` <-> `{second}`: {evidence}"
                + ("" if blocks else "; inconclusive"),
            )
        )
    for confusion in resolved_confusions:
        first, second = confusion.tools
        diagnostics.append(
            Diagnostic(
                code="diff/resolved-confusion",
                severity="info",
                tools=[first, second],
                message=f"`{first}` and `{second}` are no longer confused "
                f"(resolved in {_trials(confusion.resolved)}).",
            )
        )
    multi = _gates(unit, multi_call)
    multi_regressed = multi.distinguishable and _worse(unit, multi_call, True)
    if multi_regressed:
        diagnostics.append(
            Diagnostic(
                code="diff/multi-call-regressed",
                severity="error",
                message=f"Multi-call rate rose by {points(_gated_change(unit, multi_call))}"
                f"{_per_task(unit)} ({multi.label}: {multi.p(spaced=True)}).",
            )
        )
    gate = _gates(unit, accuracy)
    if accuracy.delta and not gate.distinguishable:
        diagnostics.append(
            Diagnostic(
                code="diff/inconclusive",
                severity="info",
                message=f"Accuracy moved by {signed_points(accuracy.delta)}, but the change is "
                f"not distinguishable from noise ({gate.label}: {gate.p(spaced=True)}"
                f"{_over(gate)}).",
            )
        )
    drop = _accuracy_drop(unit, accuracy)
    drop_breached = drop_breaches(drop, max_accuracy_drop, gate.distinguishable)
    if drop_breached:
        per_task = "" if unit == "trial" else " (mean per-task drop, task-level test)"
        diagnostics.append(
            Diagnostic(
                code="threshold/maxAccuracyDrop",
                severity="error",
                message=f"maxAccuracyDrop: {drop or 0:.3f} against a limit of "
                f"{max_accuracy_drop:g}{per_task}",
            )
        )
    new_confusion_blocks = blocking_confusions > 0
    ok = not reasons and not drop_breached and not multi_regressed and not new_confusion_blocks
    return DiffReport(
        base=_run_ref(base),
        head=_run_ref(head),
        comparable=not reasons,
        incomparable=reasons,
        accuracy=accuracy,
        over_trigger=over_trigger,
        multi_call=multi_call,
        context_tokens=ContextTokensDelta(
            before=b.context_cost.total,
            after=h.context_cost.total,
            delta=h.context_cost.total - b.context_cost.total,
        ),
        by_tool=by_tool,
        new_confusions=new_confusions,
        resolved_confusions=resolved_confusions,
        diagnostics=[ReportDiagnostic.of(d) for d in sort_diagnostics(diagnostics)],
        ok=ok,
        paired_unit=unit,
    )


def _gated_change(unit: PairedUnit, delta: MetricDelta) -> float:
    """The change the gate measured: the pooled delta (trial) or the mean per-task change,
    oriented as the rate itself (the task-level change is oriented so positive passes)."""
    if unit == "trial":
        return delta.delta or 0.0
    return -(delta.by_task.mean_delta or 0.0) if delta.by_task is not None else 0.0


def _per_task(unit: PairedUnit) -> str:
    return "" if unit == "trial" else " per task"


def _over(verdict: GateVerdict) -> str:
    """`` over 10 tasks, 2 changed``-style context for a p-value (empty when there is none)."""
    if verdict.p_value is None:
        return ""
    return f" over {units(verdict.count, verdict.noun)}"


def drop_breaches(
    drop: float | None, max_accuracy_drop: float | None, distinguishable: bool
) -> bool:
    """--max-accuracy-drop fails the diff: the drop is above the limit and the gate's test
    finds the change (the power planner asks the very same question of simulated runs)."""
    return (
        max_accuracy_drop is not None
        and drop is not None
        and drop > max_accuracy_drop
        and distinguishable
    )


def _accuracy_drop(unit: PairedUnit, accuracy: MetricDelta) -> float | None:
    """How far accuracy fell: upstream's pooled delta, or the mean per-task change."""
    if unit == "trial":
        return None if accuracy.delta is None else -accuracy.delta
    if accuracy.by_task is None or accuracy.by_task.mean_delta is None:
        return None
    return -accuracy.by_task.mean_delta


def _run_ref(side: DiffInput) -> DiffRunRef:
    repro = side.report.reproducibility
    return DiffRunRef(
        source=side.source,
        provider=repro.provider,
        model=repro.model,
        surface_hash=repro.surface_hash,
        repeat=repro.repeat,
    )


def diff_exit_code(report: DiffReport) -> int:
    """2 when the runs cannot be compared, 1 when the diff is not ok, otherwise 0."""
    if not report.comparable:
        return 2
    return 0 if report.ok else 1
