"""The seeded tuning / held-out split of a task set.

The rewriter sees only tuning tasks; acceptance is measured only on held-out tasks. Tasks are
split within each expected tool (distractors are one group), so a tool with two or more tasks
has at least one on each side; the order inside a group comes from a hash of the seed and the
task id, so the split is the same on every machine and does not depend on file order.
Variants made by ``tasks mutate`` (``derivedFrom``) stay on their original's side: a typo of a
tuning prompt is not a held-out prompt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.plan import TaskSpec

DEFAULT_HOLDOUT_SHARE = 0.5


@dataclass(frozen=True)
class TaskSplit:
    """The tasks shown to the rewriter and the tasks kept back to measure with, in file order."""

    tuning: tuple[TaskSpec, ...]
    held_out: tuple[TaskSpec, ...]


def _draw(seed: int, task_id: str) -> float:
    digest = hashlib.sha256(f"whichtool-improve\0{seed}\0{task_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _held_out_count(size: int, share: float, draw: float) -> int:
    if size == 1:
        return 1 if draw < share else 0
    return min(size - 1, max(1, round(size * share)))


def split_tasks(
    tasks: Sequence[TaskSpec],
    seed: int,
    holdout_share: float,
    derived_from: Mapping[str, str] | None = None,
) -> TaskSplit:
    """Split per expected tool by seeded hash order, a task's variants with it; refuse a split
    that leaves a side empty. ``derived_from`` maps a variant's id to its original's."""
    roots = dict(derived_from or {})
    groups: dict[str | None, list[str]] = {}
    for task in tasks:
        root = roots.get(task.id, task.id)
        members = groups.setdefault(task.expected, [])
        if root not in members:
            members.append(root)
    held_roots: set[str] = set()
    for members in groups.values():
        ordered = sorted(members, key=lambda root: (_draw(seed, root), root))
        count = _held_out_count(len(ordered), holdout_share, _draw(seed, ordered[0]))
        held_roots.update(ordered[:count])
    held = {task.id for task in tasks if roots.get(task.id, task.id) in held_roots}
    split = TaskSplit(
        tuning=tuple(task for task in tasks if task.id not in held),
        held_out=tuple(task for task in tasks if task.id in held),
    )
    if not split.tuning or not split.held_out:
        raise WhichtoolError(
            "improve/split-empty",
            f"The split of {len(tasks)} task(s) leaves no "
            f"{'tuning' if not split.tuning else 'held-out'} task",
            "improve needs tasks on both sides: add tasks (two or more per tool split "
            "evenly), or change --holdout-share.",
        )
    return split


def tools_without_held_out(split: TaskSplit, tools: Sequence[str] | None = None) -> list[str]:
    """Tools with a tuning prompt but no held-out prompt (among ``tools`` when given), in
    tuning order: a rewrite of them cannot be measured on held-out tasks."""
    held = {task.expected for task in split.held_out}
    wanted = None if tools is None else set(tools)
    found: list[str] = []
    for task in split.tuning:
        name = task.expected
        if name is None or name in held or name in found:
            continue
        if wanted is None or name in wanted:
            found.append(name)
    return found


def no_held_out_note(missing: Sequence[str], among: int, failing: bool) -> str:
    """The sentence that says why those tools cannot be measured, with every name."""
    kind = "with failing tuning prompts" if failing else "with tuning prompts"
    return (
        f"{len(missing)} of the {among} tools {kind} have no held-out prompt, so a rewrite of "
        "them is measured only on a confused partner's held-out prompts, and skipped (nothing "
        f"spent) when it has none: {', '.join(missing)}. Add a second prompt per tool (tasks "
        "mutate or tasks generate) to measure them."
    )
