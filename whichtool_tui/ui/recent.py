"""Recently opened files, kept as a small JSON list under the user's state folder.

Read and written with the standard library (no pydantic): the home screen lists them in its
first frame, and a file opened at launch is remembered before its first frame too.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from whichtool_tui.places import read_state_json, write_state_file

STATE_DIR_ENV = "WHICHTOOL_TUI_STATE_DIR"
MAX_RECENT = 20
FORMAT_VERSION = 1


@dataclass(frozen=True)
class RecentEntry:
    """One opened file: where it is, what it was, and a one-line summary."""

    path: str
    kind: str
    opened_at: str
    summary: str = ""


_ENTRY_KEYS = frozenset(field.name for field in fields(RecentEntry))
_FILE_KEYS = frozenset(("version", "entries"))


def _entry(value: Any) -> RecentEntry:
    """One saved entry, exactly as written; anything else makes the file damaged."""
    if (
        not isinstance(value, dict)
        or not _ENTRY_KEYS.issuperset(value)
        or not {"path", "kind", "opened_at"}.issubset(value)
        or not all(isinstance(item, str) for item in value.values())
    ):
        raise ValueError("not a recent-list entry")
    return RecentEntry(**value)


def parse_recent(data: object) -> list[RecentEntry]:
    """The entries of a saved list; ``ValueError`` when it is not one (unknown keys too)."""
    if not isinstance(data, dict) or not _FILE_KEYS.issuperset(data):
        raise ValueError("not a recent list")
    version = data.get("version", FORMAT_VERSION)
    entries = data.get("entries", [])
    if type(version) is not int or not isinstance(entries, list):
        raise ValueError("not a recent list")
    return [_entry(entry) for entry in entries]


def recent_json(entries: list[RecentEntry]) -> str:
    """The saved form of the list (the layout earlier versions wrote)."""
    document = {"version": FORMAT_VERSION, "entries": [asdict(entry) for entry in entries]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def state_dir() -> Path:
    """``$WHICHTOOL_TUI_STATE_DIR``, else the platform state folder (``$XDG_STATE_HOME``)."""
    explicit = os.environ.get(STATE_DIR_ENV)
    if explicit:
        return Path(explicit)
    from whichtool_tui.places import state_home

    return state_home()


def recent_path() -> Path:
    """Where the recent list lives."""
    return state_dir() / "recent.json"


def load_recent() -> list[RecentEntry]:
    """The saved list; a missing or damaged file is an empty list, never an error."""
    try:
        return parse_recent(read_state_json(recent_path()))
    except ValueError:
        return []


def key_metric(kind: str, data: object) -> str:
    """The one figure that tells saved files apart at a glance: a run's accuracy, a bout's NRP
    (only once its guess was recorded: the list must not give the verdict away), an inspect
    report's error count, a task set's size."""
    if not isinstance(data, dict):
        return ""
    if kind == "run-report":
        accuracy = (data.get("metrics") or {}).get("accuracy") or {}
        value = accuracy.get("value") if isinstance(accuracy, dict) else None
        return f"acc {value:.2f}" if isinstance(value, int | float) else "acc n/a"
    if kind == "receipt":
        call = data.get("operator_call") or {}
        nrp = (data.get("scores") or {}).get("nrp")
        if isinstance(call, dict) and call.get("recorded") and isinstance(nrp, int | float):
            return f"NRP {nrp:.2f}"
        return f"{len(data.get('wire') or [])} events, verdict hidden"
    if kind == "inspect-report":
        findings = [d for d in data.get("diagnostics") or [] if isinstance(d, dict)]
        errors = sum(1 for d in findings if d.get("severity") == "error")
        return f"{errors} error{'s' if errors != 1 else ''}"
    if kind == "task-set":
        return f"{len(data.get('tasks') or [])} tasks"
    if kind == "diff-report":
        return "ok" if data.get("ok") else "regressed"
    return ""


def shown_paths(paths: list[str]) -> list[str]:
    """Each path cut to its file name plus just enough parent folders to tell apart files
    that share a name (two ``demo-lab.json`` from different folders)."""
    parts = [Path(path).parts for path in paths]
    depth = [1] * len(paths)
    for _ in range(8):
        shown = ["/".join(p[-d:]) for p, d in zip(parts, depth, strict=True)]
        clashes = {name for name in shown if shown.count(name) > 1}
        if not clashes:
            break
        depth = [d + 1 if name in clashes else d for name, d in zip(shown, depth, strict=True)]
    return [
        ("…/" if d < len(p) else "") + "/".join(p[-d:]) if d > 1 else p[-1]
        for p, d in zip(parts, depth, strict=True)
    ]


def remember(path: str, kind: str, summary: str = "") -> list[RecentEntry]:
    """Put ``path`` first in the list (dropping its older entry) and save; returns the list."""
    absolute = str(Path(path).resolve())
    entries = [entry for entry in load_recent() if entry.path != absolute]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    entries.insert(0, RecentEntry(path=absolute, kind=kind, opened_at=stamp, summary=summary))
    entries = entries[:MAX_RECENT]
    write_state_file(recent_path(), recent_json(entries))  # a convenience: never stops the app
    return entries
