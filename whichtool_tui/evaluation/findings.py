"""Run findings derived from the metrics and the run's settings (all non-gating warnings/info)."""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.evaluation.metrics import MIN_TRIALS_PER_TOOL
from whichtool_tui.evaluation.report_model import (
    Capabilities,
    Metrics,
    RunStatistics,
    ScoredTrial,
)
from whichtool_tui.evaluation.wording import p_text, points, signed_points

POSITION_SPREAD_WARNING = 0.2
TOP_CONFUSION_PAIRS = 5
# Reported prompt tokens below this share of the surface estimate: the tools were not sent.
TOOLS_UNSEEN_RATIO = 0.5
TOOLS_UNSEEN_MIN_SURFACE = 100  # estimates below this are too small to compare


def tools_unseen_finding(trials: Sequence[ScoredTrial], surface_tokens: int) -> Diagnostic | None:
    """A warning when the provider's prompt-token counts show the tool list never reached the
    model (a chat template that drops ``tools`` makes every trial an abstention)."""
    reported = sorted(
        t.usage.prompt_tokens
        for t in trials
        if t.usage is not None and t.usage.prompt_tokens is not None
    )
    if not reported or surface_tokens < TOOLS_UNSEEN_MIN_SURFACE:
        return None
    median = reported[len(reported) // 2]
    if median >= surface_tokens * TOOLS_UNSEEN_RATIO:
        return None
    return Diagnostic(
        code="run/tools-not-seen",
        severity="warning",
        message=f"The provider reported {median:,} prompt tokens per trial (median of "
        f"{len(reported)}), far below the surface's own estimate of {surface_tokens:,}: the "
        "tools probably never reached the model.",
        hint="Check that the server passes `tools` to the model (a llama.cpp chat template "
        "without tool support drops them; start it with --jinja), then run again.",
    )


def run_findings(
    metrics: Metrics,
    statistics: RunStatistics,
    trials: Sequence[ScoredTrial],
    capabilities: Capabilities,
    temperature: float,
    permuted: bool,
    cache_hits: int,
    unsupported_settings: Sequence[str] = (),
    surface_tokens: int = 0,
) -> list[Diagnostic]:
    """Confusable pairs, position sensitivity, thin data, capability notes, cache hits and
    tools that never reached the model."""
    found: list[Diagnostic] = []
    unseen = tools_unseen_finding(trials, surface_tokens)
    if unseen is not None:
        found.append(unseen)
    for pair in metrics.confusion_pairs[:TOP_CONFUSION_PAIRS]:
        first, second = pair.tools
        share = pair.rate.value or 0.0
        found.append(
            Diagnostic(
                code="run/confusion-pair",
                severity="warning",
                message=f"{first} and {second} were confused (swaps: {pair.swaps}, "
                f"{share:.0%} of their trials): {first} chosen when {second} was expected: "
                f"{pair.a_chosen_when_b_expected}; {second} chosen when {first} was expected: "
                f"{pair.b_chosen_when_a_expected}.",
                tools=[first, second],
            )
        )
    spread = metrics.position.spread
    if spread is not None and spread >= POSITION_SPREAD_WARNING:
        found.append(
            Diagnostic(
                code="run/position-sensitive",
                severity="warning",
                message=f"Accuracy moves by {points(spread)} on average with where the expected "
                f"tool appears in the list ({metrics.position.comparable_tasks} tasks compared).",
            )
        )
    position = statistics.position
    if position.significant and position.advantage is not None:
        low, high = position.ci95 or (position.advantage, position.advantage)
        side = "first" if position.advantage > 0 else "later"
        p_value = "" if position.p_value is None else f"{p_text(position.p_value, True)}, "
        found.append(
            Diagnostic(
                code="run/position-bias",
                severity="warning",
                message=f"Listing the expected tool first changes its success by "
                f"{signed_points(position.advantage)} (95% interval {signed_points(low)} to "
                f"{signed_points(high)}, {p_value}{position.tasks} tasks): the model favours "
                f"tools listed {side}.",
            )
        )
    for tool in metrics.by_tool:
        if 0 < tool.accuracy.denominator < MIN_TRIALS_PER_TOOL:
            found.append(
                Diagnostic(
                    code="run/thin-measurement",
                    severity="warning",
                    message=f"{tool.tool} was measured on too few scored trials "
                    f"({tool.accuracy.denominator} of the {MIN_TRIALS_PER_TOOL} wanted): its rate "
                    "is a rough guess.",
                    tool=tool.tool,
                )
            )
    if not any(t.expected is None for t in trials):
        found.append(
            Diagnostic(
                code="run/no-distractor-trials",
                severity="warning",
                message="No distractor trials: over-trigger (calling a tool when none fits) "
                "was not measured.",
            )
        )
    if temperature == 0 and not capabilities.temperature_zero:
        found.append(
            Diagnostic(
                code="run/temperature-not-honoured",
                severity="warning",
                message="Temperature 0 was recorded but this provider does not honour it; "
                "repeated trials may vary.",
            )
        )
    if not capabilities.seed:
        found.append(
            Diagnostic(
                code="run/no-seed-support",
                severity="info",
                message="This provider does not accept a seed; trial seeds only fix tool orders.",
            )
        )
    # Seed and a temperature of 0 already have their own notes above.
    noted = {"seed", "temperature"} if temperature == 0 else {"seed"}
    not_sent = [name for name in unsupported_settings if name not in noted]
    if not_sent:
        found.append(
            Diagnostic(
                code="run/settings-not-sent",
                severity="info",
                message="Recorded but not sent to the model (this provider has no such field): "
                + ", ".join(not_sent)
                + ".",
                detail={"settings": not_sent},
            )
        )
    multi = [t for t in trials if t.verdict != "error" and t.call_count > 1]
    if multi:
        expected_first = sum(1 for t in multi if t.expected is not None and t.pick == t.expected)
        found.append(
            Diagnostic(
                code="run/unexpected-additional-calls",
                severity="warning",
                message=f"Trials that proposed more than one call: {len(multi)}; with the "
                f"expected tool first: {expected_first}.",
            )
        )
    if not permuted:
        found.append(
            Diagnostic(
                code="run/not-permuted",
                severity="warning",
                message="Tool order was not permuted (--no-permute): position effects are "
                "mixed into every rate.",
            )
        )
    if cache_hits:
        found.append(
            Diagnostic(
                code="run/cache-hits",
                severity="info",
                message=f"Answered from the trial cache (latency 0): {cache_hits} of "
                f"{len(trials)} trials.",
            )
        )
    return found
