"""Writing task sets so they read back to exactly the same tasks.

YAML is emitted by hand in one fixed, reviewable layout: a header comment, ``version``,
``surface``, then one block per task with every string double-quoted. Double-quoted YAML accepts
JSON string escapes, so strings are JSON-quoted, plus escapes for the few characters YAML would
otherwise read as line breaks or refuse as unprintable.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import check_output_path, write_atomic
from whichtool_tui.redact import redact_paths
from whichtool_tui.tasks.model import TaskSet

HEADER = "# whichtool.tasks.yaml"
SURFACE_COMMENT = "# the surface these tasks were written for; a change is a warning, not an error"
DISTRACTOR_COMMENT = "# distractor: the right answer is to call no tool"

# Characters PyYAML refuses as unprintable, reads as line breaks (NEL, LS, PS) or as a BOM.
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def quote(text: str) -> str:
    """A double-quoted YAML scalar that PyYAML reads back as exactly ``text``."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda match: f"\\u{ord(match.group(0)):04x}", quoted)


def task_set_to_yaml(task_set: TaskSet) -> str:
    """The YAML form: block mappings only, every string double-quoted."""
    lines = [HEADER, f"version: {task_set.version}"]
    if task_set.surface is None:
        lines.append("surface: null")
    else:
        lines.append(f"surface: {quote(task_set.surface)}  {SURFACE_COMMENT}")
    lines.append("tasks:" if task_set.tasks else "tasks: []")
    for task in task_set.tasks:
        lines.append(f"  - id: {quote(task.id)}")
        lines.append(f"    prompt: {quote(task.prompt)}")
        if task.expected is None:
            lines.append(f"    expected: null  {DISTRACTOR_COMMENT}")
        else:
            lines.append(f"    expected: {quote(task.expected)}")
        lines.append(f"    tags: [{', '.join(quote(tag) for tag in task.tags)}]")
        if task.derived_from is not None:
            lines.append("    derivedFrom:")
            lines.append(f"      taskId: {quote(task.derived_from.task_id)}")
            lines.append(f"      mutation: {quote(task.derived_from.mutation)}")
    return "\n".join(lines) + "\n"


def task_set_to_json(task_set: TaskSet) -> str:
    """The JSON form: indented 2 spaces with a trailing newline."""
    return json.dumps(task_set.to_json(), indent=2, ensure_ascii=False) + "\n"


def serialize_task_set(task_set: TaskSet, path: str | os.PathLike[str]) -> str:
    """JSON when the path ends in ``.json``, YAML otherwise."""
    if str(path).lower().endswith(".json"):
        return task_set_to_json(task_set)
    return task_set_to_yaml(task_set)


def guard_overwrite(path: str | os.PathLike[str], force: bool) -> None:
    """Refuse to replace an existing file without ``--force`` (task sets are hand-edited work),
    and any path that could not be written, before a model is asked for anything."""
    check_output_path(path)
    if not force and Path(path).exists() and Path(path).is_file():
        raise WhichtoolError(
            "tasks/would-overwrite",
            f"{redact_paths(str(path))} already exists",
            "Task sets are reviewed and edited by hand; pass --force to replace it, or choose "
            "another --out.",
        )


def leading_comments(text: str) -> list[str]:
    """The comment block a YAML file opens with, minus this writer's own header line.

    A save from the TUI rewrites the file in the fixed layout above; keeping the author's
    opening notes (what the set is for, why a task is hard) is what makes that safe.
    """
    kept: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if stripped != HEADER:
                kept.append(line.rstrip())
        elif stripped:
            break
    return kept


def write_task_set(
    task_set: TaskSet,
    path: str | os.PathLike[str],
    comments_from: str | os.PathLike[str] | None = None,
) -> Path:
    """Serialise by extension and write atomically.

    ``comments_from`` names the file the set was read from: saved in the same format, it is
    kept as written (the same bytes when unedited, only the changed tasks' blocks rewritten
    otherwise, see ``round_trip``); else its opening comment block is carried into the new
    YAML (a JSON file has no comments to keep).
    """
    text = serialize_task_set(task_set, path)
    if comments_from is not None:
        from whichtool_tui.bounded_read import InputFileError, read_input_text
        from whichtool_tui.tasks.round_trip import kept_as_written

        try:
            source = read_input_text(comments_from, prefix="tasks", what="task file")
        except InputFileError:
            source = ""
        same_form = source.lstrip().startswith(("{", "[")) == str(path).lower().endswith(".json")
        kept = kept_as_written(task_set, source) if source and same_form else None
        if kept is not None:
            return write_atomic(path, kept)
    if comments_from is not None and not str(path).lower().endswith(".json"):
        comments = leading_comments(source)
        if comments:
            first, rest = text.split("\n", 1)
            text = "\n".join([first, *comments, rest])
    return write_atomic(path, text)
