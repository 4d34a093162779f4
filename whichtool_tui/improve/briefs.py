"""What a rewriter may see about each tool: siblings, findings and failing *tuning* prompts.

A tool is involved when a description-level inspect finding names it, or when the base surface
got a tuning task wrong because of it (its own prompt missed or routed elsewhere, a sibling's
prompt routed to it, a distractor drawing it). Only tuning trials are read here, so nothing about
the held-out tasks can reach a rewriter, rule-based or model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.improve.model import Addressed, Target, TuningFailure
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.overlap import dice, normalize_for_overlap
from whichtool_tui.surface.overlap_findings import NOTABLE_OVERLAP

PAIR_CODES = frozenset(
    [
        "overlap/high",
        "overlap/notable",
        "descriptions/overlap-without-preference",
        "descriptions/identical",
    ]
)
"""Findings about tools a model may mix up: every member is a sibling of the others."""
TOOL_CODES = frozenset(
    [
        "names/subject-not-in-description",
        "descriptions/restates-name",
        "descriptions/very-short",
        "descriptions/placeholder",
        "descriptions/oversized",
    ]
)
"""Findings about one tool's description that a rewrite of that description can address."""
MAX_SIBLINGS = 5
MAX_PROMPTS = 5
# A docstring section header (``Args:``, ``Returns:``, ``Raises:`` ...): from there on the text
# is boilerplate every generated tool shares, not what tells two tools apart.
_DOCSTRING_SECTION = re.compile(
    r"^\s*(?:args|arguments|parameters|params|kwargs|keyword args|returns?|raises|yields|"
    r"examples?|notes?|see also)\s*:\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def without_boilerplate(description: str) -> str:
    """The description before its first docstring section header (all of it when none)."""
    match = _DOCSTRING_SECTION.search(description)
    return description if match is None else description[: match.start()]


def confusable(left: Tool, right: Tool) -> bool:
    """Whether two tools still overlap once docstring boilerplate is set aside (same trigram
    Dice as inspect's overlap, at its notable threshold)."""

    def text(tool: Tool) -> str:
        spoken = " ".join(name_tokens(tool.name)) + " " + without_boilerplate(tool.description_text)
        return normalize_for_overlap(spoken)

    return dice(text(left), text(right)) >= NOTABLE_OVERLAP


@dataclass
class ToolBrief:
    """One involved tool: its siblings, what was found, the tuning prompts it failed."""

    tool: Tool
    siblings: list[Tool] = field(default_factory=list)
    addressed: list[Addressed] = field(default_factory=list)
    missed: list[TuningFailure] = field(default_factory=list)
    drawn_from: list[TuningFailure] = field(default_factory=list)
    distractors: list[TuningFailure] = field(default_factory=list)
    confused_with: list[str] = field(default_factory=list)

    @property
    def target(self) -> Target:
        """What a rewrite of this tool must improve on held-out tasks."""
        name = self.tool.name
        if self.confused_with or (self.siblings and (self.missed or self.drawn_from)):
            partners = self.confused_with or [tool.name for tool in self.siblings]
            return Target(kind="confusion", tools=[name, *partners])
        if self.missed:
            return Target(kind="missed", tools=[name])
        if self.distractors:
            return Target(kind="over-trigger", tools=[name])
        if self.siblings:
            return Target(kind="confusion", tools=[name, *(t.name for t in self.siblings)])
        return Target(kind="static", tools=[name])


def tuning_failures(
    trials: Iterable[ScoredTrial], tasks: Mapping[str, TaskSpec]
) -> list[TuningFailure]:
    """Tuning tasks with at least one scored trial that was not right, in task-set order."""
    picks: dict[str, list[str | None]] = {}
    wrong: set[str] = set()
    for trial in trials:
        if trial.task_id not in tasks or trial.verdict == "error":
            continue
        picks.setdefault(trial.task_id, []).append(trial.pick)
        if trial.verdict not in ("correct", "correct-abstention"):
            wrong.add(trial.task_id)
    return [
        TuningFailure(
            task_id=task.id,
            prompt=task.prompt,
            expected=task.expected,
            picked=picks[task.id],
        )
        for task in tasks.values()
        if task.id in wrong
    ]


def _add_unique(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def gather_briefs(
    surface: NormalizedSurface,
    findings: Sequence[Diagnostic],
    failures: Sequence[TuningFailure],
) -> list[ToolBrief]:
    """One brief per involved tool, in served order."""
    by_name = {tool.name: tool for tool in surface.tools}
    briefs: dict[str, ToolBrief] = {}

    def brief(name: str) -> ToolBrief | None:
        if name not in by_name:
            return None
        return briefs.setdefault(name, ToolBrief(tool=by_name[name]))

    for finding in findings:
        members = [name for name in finding.tools or [finding.tool or ""] if name in by_name]
        if finding.code in PAIR_CODES and len(members) >= 2:
            for name in members:
                # Pairs that overlap only through shared docstring boilerplate are no family.
                partners = [
                    other
                    for other in members
                    if other != name and confusable(by_name[name], by_name[other])
                ]
                if not partners:
                    continue
                found = brief(name)
                assert found is not None
                found.addressed.append(Addressed(code=finding.code, message=finding.message))
                for member in partners:
                    if by_name[member] not in found.siblings:
                        found.siblings.append(by_name[member])
        elif finding.code in TOOL_CODES and finding.tool in by_name:
            found = brief(finding.tool)
            assert found is not None
            found.addressed.append(Addressed(code=finding.code, message=finding.message))
    for failure in failures:
        picked = {name for name in failure.picked if name is not None}
        if failure.expected is None:
            for name in sorted(picked):
                drawn = brief(name)
                if drawn is not None:
                    drawn.distractors.append(failure)
                    drawn.addressed.append(_failure_note(failure))
            continue
        own = brief(failure.expected)
        if own is None:
            continue
        own.missed.append(failure)
        own.addressed.append(_failure_note(failure))
        for name in sorted(picked - {failure.expected}):
            other = brief(name)
            if other is None:
                continue
            _add_unique(own.confused_with, name)
            _add_unique(other.confused_with, failure.expected)
            other.drawn_from.append(failure)
            for left, right in ((own, other), (other, own)):
                if right.tool not in left.siblings:
                    left.siblings.append(right.tool)
    ordered = sorted(briefs.values(), key=lambda item: item.tool.served_index)
    for item in ordered:
        item.siblings = item.siblings[:MAX_SIBLINGS]
    return ordered


def picks_text(
    picked: Sequence[str | None], name_shown: Callable[[str], str] = lambda name: f"`{name}`"
) -> str:
    """What a task's trials picked, grouped: "no call x3, `list_orders` x2"."""
    counts: dict[str | None, int] = {}
    for name in picked:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(
        ("no call" if name is None else name_shown(name)) + (f" x{count}" if count > 1 else "")
        for name, count in counts.items()
    )


def _failure_note(failure: TuningFailure) -> Addressed:
    shown = picks_text(failure.picked)
    expected = "no call" if failure.expected is None else f"`{failure.expected}`"
    return Addressed(
        code="tuning/failed",
        message=f"tuning task {failure.task_id} expects {expected}; the base surface got {shown}",
    )
