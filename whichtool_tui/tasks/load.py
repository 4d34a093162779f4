"""Finding and reading task-set files, with refusals that name the file, the line and the rule.

JSON is recognised by shape (first non-space character ``{`` or ``[``), whatever the extension;
everything else goes through the strict YAML reader. The data is then validated by the pydantic
models in ``model.py``, and the first problem is reported at the line it sits on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from whichtool_tui.bounded_read import parse_json_text, read_input_text
from whichtool_tui.config import Settings
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.redact import redact_paths
from whichtool_tui.strict_yaml import StrictYamlError, parse_strict_yaml
from whichtool_tui.surface.load import snapshot_ref
from whichtool_tui.tasks.model import TASK_SET_VERSION, TaskSet
from whichtool_tui.text_safety import sanitize_text

DEFAULT_TASK_FILES = ("whichtool.tasks.yaml", "whichtool.tasks.yml", "whichtool.tasks.json")
MAX_TASK_FILE_BYTES = MAX_INPUT_BYTES
TASK_KEYS = ("id", "prompt", "expected", "tags", "derivedFrom")
TOP_KEYS = ("version", "surface", "tasks")
# Messages of strict_yaml refusals (as opposed to plain syntax errors).
_REFUSAL_PREFIXES = (
    "aliases",
    "anchors",
    "tags are",
    "merge keys",
    "duplicate key",
    "multiple documents",
    "mapping keys",
)
_EXPECTED_HINT = (
    "Write `expected: <tool name>` for a task that should call a tool, or `expected: null` for "
    "a distractor; leaving the key out is neither, so it is refused."
)

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class LoadedTaskSet:
    """A validated task set and where it came from (``source`` is cwd-relative for display)."""

    task_set: TaskSet
    source: str
    path: Path
    format: Literal["yaml", "json"]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def resolve_task_file(explicit: str | None, settings: Settings, cwd: Path | None = None) -> Path:
    """``--tasks``, else config ``tasks``, else the first default file present in ``cwd``."""
    folder = cwd or Path.cwd()
    candidate = explicit if explicit is not None else settings.tasks
    if candidate is not None:
        path = Path(candidate).expanduser()
        path = path if path.is_absolute() else folder / path
        if not path.exists():  # a folder, FIFO or device: the bounded reader says which
            raise WhichtoolError(
                "tasks/not-found",
                f"No task set at {redact_paths(candidate)}",
                "Check the path given to --tasks (or `tasks` in the config).",
            )
        return path
    for name in DEFAULT_TASK_FILES:
        if (folder / name).is_file():
            return folder / name
    raise WhichtoolError(
        "tasks/not-found",
        "No task set given and none found in the working directory",
        "Pass --tasks, set `tasks` in the config, or create one of: "
        f"{', '.join(DEFAULT_TASK_FILES)}.",
    )


def _invalid(message: str, hint: str | None = None, code: str = "tasks/invalid") -> WhichtoolError:
    return WhichtoolError(code, sanitize_text(message), hint)


def _read_text(path: Path, source: str) -> str:
    return read_input_text(
        path,
        prefix="tasks",
        what="task set",
        code="tasks/invalid",
        max_bytes=MAX_TASK_FILE_BYTES,
        shown=source,
    )


def _parse_json(text: str, source: str) -> Any:
    return parse_json_text(text, source, prefix="tasks", code="tasks/invalid")


def _parse_yaml(text: str, source: str) -> Any:
    try:
        return parse_strict_yaml(text)
    except StrictYamlError as exc:
        where = source if exc.line is None else f"{source}:{exc.line}"
        refused = str(exc).startswith(_REFUSAL_PREFIXES)
        raise _invalid(
            f"{where}: {exc}",
            "Task sets are plain YAML data: no anchors, aliases, tags, merge keys, duplicate "
            "keys or extra documents.",
            code="yaml/unsupported" if refused else "tasks/invalid",
        ) from None


def _yaml_lines(text: str) -> dict[Path_, int]:
    """Map each key and list item of an (already strictly parsed) document to its 1-based line."""
    lines: dict[Path_, int] = {}
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return lines

    def walk(node: yaml.Node, path: Path_) -> None:
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key_path = (*path, str(key_node.value))
                lines[key_path] = key_node.start_mark.line + 1
                walk(value_node, key_path)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                walk(item, (*path, index))

    if root is not None:
        walk(root, ())
    return lines


def _field_path(loc: tuple[str | int, ...]) -> Path_:
    """Cut pydantic's union/validator markers off a location, keeping file keys and indexes."""
    if not loc or loc[0] != "tasks" or len(loc) < 2 or not isinstance(loc[1], int):
        return tuple(loc[:1])
    if len(loc) > 3 and loc[2] in ("tags", "derivedFrom"):
        return tuple(loc[:4])
    return tuple(loc[:3])


def _describe(error: ErrorDetails, path: Path_) -> tuple[str, str | None]:
    """The rule broken, in words, plus a hint where one helps."""
    kind = error["type"]
    if len(path) == 4 and path[2] == "derivedFrom":
        name = f"`derivedFrom.{path[3]}`"
    else:
        name = f"`{path[-1]}`" if path and isinstance(path[-1], str) else "this entry"
    if kind == "extra_forbidden":
        level = "task" if len(path) == 3 else "derivedFrom" if len(path) == 4 else "task-set"
        allowed = {
            "task": TASK_KEYS,
            "derivedFrom": ("taskId", "mutation"),
            "task-set": TOP_KEYS,
        }[level]
        return (
            f"{name} is not a {level} field",
            f"Allowed: {', '.join(allowed)}. Unknown keys are refused rather than ignored.",
        )
    if kind == "missing":
        if path and path[-1] == "expected":
            return "does not set `expected`", _EXPECTED_HINT
        return f"{name} is required", None
    if kind == "blank":
        return f"{name} must not be blank", None
    if kind in ("version_too_new", "version_unsupported"):
        return f"this file {error['msg']}", f"The current task-set version is {TASK_SET_VERSION}."
    if path == ("version",):
        return (
            "`version` must be an integer",
            f"The current task-set version is {TASK_SET_VERSION}.",
        )
    if path == ("tasks",):
        return "`tasks` must be a list of tasks", None
    if path == ("surface",):
        return "`surface` must be a surface hash string or null", None
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        if not path:
            return "does not contain a task-set mapping", "Expected keys: version, surface, tasks."
        return f"{name} must be a mapping", None
    if path and path[-1] == "expected":
        return "`expected` must be a tool name or null", _EXPECTED_HINT
    if (path and path[-1] == "tags") or (len(path) == 4 and path[2] == "tags"):
        return "`tags` must be a list of strings", None
    message = error["msg"]
    return f"{name}: {message[:1].lower()}{message[1:]}", None


def _where(source: str, path: Path_, raw: Any, lines: dict[Path_, int]) -> str:
    line = None
    for depth in range(len(path), -1, -1):
        line = lines.get(path[:depth])
        if line is not None:
            break
    location = source if line is None else f"{source}:{line}"
    if len(path) >= 2 and path[0] == "tasks" and isinstance(path[1], int):
        index = path[1]
        task_id = None
        tasks = raw.get("tasks") if isinstance(raw, dict) else None
        if isinstance(tasks, list) and index < len(tasks) and isinstance(tasks[index], dict):
            candidate = tasks[index].get("id")
            task_id = candidate if isinstance(candidate, str) and candidate.strip() else None
        label = f"task {index}" + (f" (`{task_id}`)" if task_id else "")
        return f"{location}: {label}"
    return location


def validate_task_data(raw: Any, source: str, yaml_text: str | None = None) -> TaskSet:
    """Validate parsed data as a task set, raising ``tasks/invalid`` for the first problem found.

    Given the YAML text, the earliest problem in the file is reported, with its line; the line
    map is only built when something is wrong, so valid files pay nothing for it.
    """
    try:
        return TaskSet.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors()
    known_lines = {} if yaml_text is None else _yaml_lines(yaml_text)
    located = [(_field_path(error["loc"]), error) for error in errors]

    def position(item: tuple[Path_, ErrorDetails]) -> int:
        path = item[0]
        for depth in range(len(path), -1, -1):
            if path[:depth] in known_lines:
                return known_lines[path[:depth]]
        return 0

    if known_lines:
        located.sort(key=position)
    path, error = located[0]
    rule, hint = _describe(error, path)
    where = _where(source, path, raw, known_lines)
    more = len({located_path for located_path, _ in located}) - 1  # a union fails twice
    suffix = f" (and {more} more problem{'s' if more != 1 else ''})" if more else ""
    raise _invalid(f"{where}: {rule}{suffix}", hint)


def parse_task_text(text: str, source: str) -> tuple[TaskSet, Literal["yaml", "json"]]:
    """Parse and validate task-set text; ``source`` is the name shown in errors."""
    if text.lstrip().startswith(("{", "[")):
        return validate_task_data(_parse_json(text, source), source), "json"
    raw = _parse_yaml(text, source)
    return validate_task_data(raw, source, text), "yaml"


def load_task_set(path: str | os.PathLike[str], cwd: Path | None = None) -> LoadedTaskSet:
    """Read, parse and validate a task-set file; every refusal is a one-line ``WhichtoolError``."""
    file_path = Path(path)
    source = snapshot_ref(file_path, cwd)
    text = _read_text(file_path, source)
    task_set, file_format = parse_task_text(text, source)
    return LoadedTaskSet(task_set=task_set, source=source, path=file_path, format=file_format)
