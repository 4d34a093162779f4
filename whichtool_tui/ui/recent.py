"""Recently opened files, kept as a small JSON list under the user's state folder."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import write_atomic

STATE_DIR_ENV = "WHICHTOOL_TUI_STATE_DIR"
MAX_RECENT = 20


class RecentEntry(BaseModel):
    """One opened file: where it is, what it was, and a one-line summary."""

    model_config = ConfigDict(extra="forbid")

    path: str
    kind: str
    opened_at: str
    summary: str = ""


class RecentFile(BaseModel):
    """The on-disk list, newest first."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    entries: list[RecentEntry] = []


def state_dir() -> Path:
    """``$WHICHTOOL_TUI_STATE_DIR``, else ``$XDG_STATE_HOME/whichtool-tui``, else ~/.local/state."""
    explicit = os.environ.get(STATE_DIR_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "whichtool-tui"


def recent_path() -> Path:
    """Where the recent list lives."""
    return state_dir() / "recent.json"


def load_recent() -> list[RecentEntry]:
    """The saved list; a missing or damaged file is an empty list, never an error."""
    try:
        text = recent_path().read_text(encoding="utf-8")
        return RecentFile.model_validate_json(text).entries
    except (OSError, ValidationError, ValueError):
        return []


def remember(path: str, kind: str, summary: str = "") -> list[RecentEntry]:
    """Put ``path`` first in the list (dropping its older entry) and save; returns the list."""
    absolute = str(Path(path).resolve())
    entries = [entry for entry in load_recent() if entry.path != absolute]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    entries.insert(0, RecentEntry(path=absolute, kind=kind, opened_at=stamp, summary=summary))
    entries = entries[:MAX_RECENT]
    # A read-only home must not stop the app: the list is a convenience.
    with contextlib.suppress(WhichtoolError):
        write_atomic(recent_path(), RecentFile(entries=entries).model_dump_json(indent=2) + "\n")
    return entries
