"""Saving a task set over the file it came from as that file was written: an unedited save is
the same bytes, and an edit rewrites only the blocks of the tasks it changed (the user's
quoting, comments and layout everywhere else stay). The strict loader checks the result; when
it does not read back as exactly the set being saved, the caller writes the canonical layout.
"""

from __future__ import annotations

import yaml

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.tasks.load import parse_task_text
from whichtool_tui.tasks.model import Task, TaskSet
from whichtool_tui.tasks.writer import task_set_to_yaml

CANONICAL_INDENT = 2  # where task_set_to_yaml puts a task's "-"


def _reads_as(text: str, task_set: TaskSet) -> bool:
    try:
        parsed, _form = parse_task_text(text, "the saved text")
    except WhichtoolError:
        return False
    return parsed == task_set


def _task_spans(source: str) -> list[tuple[int, int]] | None:
    """Line spans ``[start, end)`` of each task's block in a block-style ``tasks:`` list."""
    try:
        root = yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    items = next((value for key, value in root.value if key.value == "tasks"), None)
    if not isinstance(items, yaml.SequenceNode) or items.flow_style or not items.value:
        return None
    lines = source.splitlines()
    starts = [item.start_mark.line for item in items.value]
    for index in range(1, len(starts)):  # comments and blank lines just above go with a task
        while starts[index] - 1 > starts[index - 1] and _is_aside(lines[starts[index] - 1]):
            starts[index] -= 1
    last = items.value[-1].end_mark
    end = last.line + (1 if last.column > 0 else 0)
    return list(zip(starts, [*starts[1:], end], strict=True))


def _is_aside(line: str) -> bool:
    """A blank or comment-only line."""
    return not line.strip() or line.lstrip().startswith("#")


def _fresh_block(task: Task, task_set: TaskSet, dash_column: int) -> list[str]:
    """One task in the canonical layout, shifted to the file's own list indent."""
    alone = task_set.model_copy(update={"tasks": [task]})
    lines = task_set_to_yaml(alone).splitlines(keepends=True)
    block = lines[next(i for i, line in enumerate(lines) if line.startswith("tasks:")) + 1 :]
    shift = dash_column - CANONICAL_INDENT
    if shift >= 0:
        return [" " * shift + line for line in block]
    return [line[-shift:] for line in block]


def kept_as_written(task_set: TaskSet, source: str) -> str | None:
    """``source`` itself when it already says ``task_set``; else ``source`` with only the
    changed tasks' blocks rewritten; None when neither reads back as ``task_set``."""
    try:
        before, form = parse_task_text(source, "the file it came from")
    except WhichtoolError:
        return None
    if before == task_set:
        return source
    same_header = (before.version, before.surface) == (task_set.version, task_set.surface)
    spans = _task_spans(source) if form == "yaml" and same_header else None
    if not spans or len(spans) != len(before.tasks):
        return None
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    blocks = [lines[start:end] for start, end in spans]
    first = lines[spans[0][0]]
    dash_column = len(first) - len(first.lstrip(" "))
    unused = list(range(len(before.tasks)))
    body: list[str] = []
    for task in task_set.tasks:
        kept = next((index for index in unused if before.tasks[index] == task), None)
        if kept is not None:
            unused.remove(kept)
            body.extend(blocks[kept])
            continue
        edited = next((index for index in unused if before.tasks[index].id == task.id), None)
        if edited is not None:  # the same task edited: the comments above it stay
            unused.remove(edited)
            block = blocks[edited]
            body.extend(block[: next(i for i, line in enumerate(block) if not _is_aside(line))])
        body.extend(_fresh_block(task, task_set, dash_column))
    text = "".join(lines[: spans[0][0]] + body + lines[spans[-1][1] :])
    return text if _reads_as(text, task_set) else None
