"""Which tools two surfaces disagree on, and which tasks those changes can move.

A pull request that edits tool descriptions changes routing only for the tasks that expect an
edited tool or one a model could confuse with it. This module finds both without a model: tool
changes field by field (renames matched by content, else by description similarity), the
confusable partners from the inspect overlap scores, and the tasks they reach.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.behaviour_diff_model import (
    AffectedTask,
    ChangedField,
    ConfusablePartner,
    ToolChange,
)
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.overlap import (
    analyze_overlap_families,
    dice,
    normalize_for_overlap,
    scored_description,
)
from whichtool_tui.surface.overlap_findings import NOTABLE_OVERLAP

RENAME_SIMILARITY = 0.8
"""Description trigram score from which a removed and an added tool count as one renamed tool."""
PARTNER_THRESHOLD = NOTABLE_OVERLAP
"""Overlap score from which two tools are confusable partners (inspect's overlap/notable)."""
MAX_PARTNER_PAIRS = 5_000
"""Overlap pairs read per surface: the highest-scored ones, far more than any finding lists."""


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def changed_fields(before: Tool, after: Tool) -> list[ChangedField]:
    """The fields a model reads that differ between two versions of one tool."""
    found: list[ChangedField] = []
    if before.description != after.description:
        found.append("description")
    if before.title != after.title:
        found.append("title")
    if _canonical(before.input_schema_resolved) != _canonical(after.input_schema_resolved):
        found.append("inputSchema")
    if _canonical(before.output_schema_resolved) != _canonical(after.output_schema_resolved):
        found.append("outputSchema")
    if _canonical(before.annotations) != _canonical(after.annotations):
        found.append("annotations")
    return found


def _content_key(tool: Tool) -> str:
    return _canonical([tool.description, tool.input_schema_resolved, tool.annotations])


def _description_similarity(left: Tool, right: Tool) -> float:
    return dice(
        normalize_for_overlap(scored_description(left)),
        normalize_for_overlap(scored_description(right)),
    )


def match_renames(
    removed: Sequence[Tool], added: Sequence[Tool]
) -> list[tuple[Tool, Tool, str, float | None]]:
    """Pair base-only with head-only tools: identical content first, then the most similar
    descriptions at or above ``RENAME_SIMILARITY``; each tool pairs at most once."""
    matches: list[tuple[Tool, Tool, str, float | None]] = []
    by_content: dict[str, list[Tool]] = {}
    for tool in added:
        by_content.setdefault(_content_key(tool), []).append(tool)
    paired: set[str] = set()
    for tool in removed:
        candidates = by_content.get(_content_key(tool))
        if candidates:
            partner = candidates.pop(0)
            matches.append((tool, partner, "content", None))
            paired.update((f"base:{tool.name}", f"head:{partner.name}"))
    scored = sorted(
        (
            (_description_similarity(left, right), left.name, right.name, left, right)
            for left in removed
            if f"base:{left.name}" not in paired and left.description_text
            for right in added
            if f"head:{right.name}" not in paired and right.description_text
        ),
        key=lambda entry: (-entry[0], entry[1], entry[2]),
    )
    for score, left_name, right_name, left, right in scored:
        if score < RENAME_SIMILARITY:
            break
        if f"base:{left_name}" in paired or f"head:{right_name}" in paired:
            continue
        matches.append((left, right, "similarity", round(score, 4)))
        paired.update((f"base:{left_name}", f"head:{right_name}"))
    return matches


def tool_changes(base: NormalizedSurface, head: NormalizedSurface) -> list[ToolChange]:
    """Every tool that differs: changed in place, renamed, added or removed (base order first)."""
    before = {tool.name: tool for tool in base.tools}
    after = {tool.name: tool for tool in head.tools}
    changes: list[ToolChange] = []
    for name, tool in before.items():
        if name in after:
            fields = changed_fields(tool, after[name])
            if fields:
                changes.append(_change("changed", tool, after[name], fields))
    removed = [tool for name, tool in before.items() if name not in after]
    added = [tool for name, tool in after.items() if name not in before]
    renamed = match_renames(removed, added)
    for old, new, match, score in renamed:
        change = _change("renamed", old, new, changed_fields(old, new))
        changes.append(change.model_copy(update={"rename_match": match, "similarity": score}))
    gone = {old.name for old, _, _, _ in renamed}
    came = {new.name for _, new, _, _ in renamed}
    changes.extend(_change("removed", tool, None, []) for tool in removed if tool.name not in gone)
    changes.extend(_change("added", None, tool, []) for tool in added if tool.name not in came)
    return changes


def _change(
    kind: str, before: Tool | None, after: Tool | None, fields: list[ChangedField]
) -> ToolChange:
    described = "description" in fields
    return ToolChange.model_validate(
        {
            "kind": kind,
            "base_name": before.name if before else None,
            "head_name": after.name if after else None,
            "fields": fields,
            "description_before": before.description if before and described else None,
            "description_after": after.description if after and described else None,
        }
    )


def confusable_partners(
    changes: Sequence[ToolChange], base: NormalizedSurface, head: NormalizedSurface
) -> list[ConfusablePartner]:
    """Tools overlapping a changed tool at ``PARTNER_THRESHOLD`` or more, on either surface."""
    found: dict[tuple[str, str, str], ConfusablePartner] = {}
    for side, surface, names in (
        ("base", base, {c.base_name for c in changes if c.base_name}),
        ("head", head, {c.head_name for c in changes if c.head_name}),
    ):
        if not names:
            continue
        section = analyze_overlap_families(surface.tools, MAX_PARTNER_PAIRS).section
        for pair in section.pairs:
            if pair.score < PARTNER_THRESHOLD:
                continue
            for changed, partner in (pair.tools, pair.tools[::-1]):
                if changed in names:
                    key = (changed, partner, side)
                    found[key] = ConfusablePartner(
                        changed=changed, partner=partner, score=round(pair.score, 4), side=side
                    )
    return sorted(found.values(), key=lambda p: (p.changed, p.partner, p.side))


@dataclass(frozen=True)
class TaskImpact:
    """The affected tasks, how many were not, and the base-to-head name of every renamed tool."""

    affected: list[AffectedTask]
    unaffected: int
    renames: Mapping[str, str]


def affected_tasks(
    tasks: Sequence[TaskSpec],
    changes: Sequence[ToolChange],
    partners: Sequence[ConfusablePartner],
) -> TaskImpact:
    """Tasks expecting a changed tool or a confusable partner of one, plus the distractors
    (expected: none) whenever any tool changed: an edited description can draw their call."""
    renames = {
        c.base_name: c.head_name
        for c in changes
        if c.kind == "renamed" and c.base_name and c.head_name
    }
    removed = {c.base_name for c in changes if c.kind == "removed"}
    added = {c.head_name for c in changes if c.kind == "added"}
    renamed_from = {new: old for old, new in renames.items()}
    direct: dict[str, str] = {}
    for change in changes:
        label = _change_label(change)
        for name in (change.base_name, change.head_name):
            if name:
                direct[name] = label
    affected: list[AffectedTask] = []
    for task in tasks:
        reasons = _reasons(task, direct, partners, bool(changes), renamed_from)
        if not reasons:
            continue
        expected = task.expected
        head_expected = renames.get(expected, expected) if expected else None
        blocked = None
        if expected in removed:
            blocked = f"expects `{expected}`, which the head surface no longer serves"
        elif expected in added:
            blocked = f"expects `{expected}`, which the base surface does not serve"
        affected.append(
            AffectedTask(
                task_id=task.id,
                expected=expected,
                head_expected=head_expected,
                reasons=reasons,
                runnable=blocked is None,
                not_runnable_reason=blocked,
            )
        )
    return TaskImpact(affected, len(tasks) - len(affected), renames)


def _change_label(change: ToolChange) -> str:
    if change.kind == "renamed":
        return f"renamed `{change.base_name}` -> `{change.head_name}`"
    if change.kind in ("added", "removed"):
        return change.kind
    return "changed " + ", ".join(change.fields)


def _reasons(
    task: TaskSpec,
    direct: Mapping[str, str],
    partners: Sequence[ConfusablePartner],
    anything_changed: bool,
    renamed_from: Mapping[str, str],
) -> list[str]:
    expected = task.expected
    if expected is None:
        return ["distractor: a changed surface can draw a call"] if anything_changed else []
    reasons = []
    if expected in direct:
        reasons.append(f"expects `{expected}` ({direct[expected]})")
    scores: dict[str, list[str]] = {}
    for link in partners:
        if link.partner == expected and link.changed != expected:
            # A renamed tool is one tool: its base name groups both surfaces' scores.
            changed = renamed_from.get(link.changed, link.changed)
            scores.setdefault(changed, []).append(f"{link.score:.2f} on {link.side}")
    reasons.extend(
        f"expects `{expected}`, confusable with changed `{changed}` ({', '.join(shown)})"
        for changed, shown in scores.items()
    )
    return reasons
