"""Paths an agent chooses: confined to the working directory after resolving links, 16 MiB cap.

The operator started the server in a folder; an agent may read task sets, snapshots and run
files there, never ``/etc/passwd`` through ``../`` or a symlink pointing out of it.
"""

from __future__ import annotations

import os
from pathlib import Path

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_BYTES, MAX_INPUT_SIZE
from whichtool_tui.text_safety import redact_message

MAX_AGENT_FILE_BYTES = MAX_INPUT_BYTES


def workspace_path(raw: str, workspace: Path | None = None) -> Path:
    """The real path of ``raw`` (relative to the workspace), refused when it lies outside it."""
    root = (workspace or Path.cwd()).resolve()
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = Path(os.path.realpath(candidate))
    if resolved != root and root not in resolved.parents:
        raise WhichtoolError(
            "mcp/path-outside-workspace",
            f"{redact_message(raw)} is outside the working directory of this server",
            "Agents may only read files inside the folder the server was started in.",
        )
    return resolved


def agent_file(raw: str, workspace: Path | None = None) -> Path:
    """A confined path to an existing regular file of at most 16 MiB."""
    path = workspace_path(raw, workspace)
    try:
        size = path.stat().st_size
    except OSError:
        raise WhichtoolError(
            "mcp/file-not-found",
            f"No file at {redact_message(raw)}",
            "Paths are relative to the server's working directory.",
        ) from None
    if not path.is_file():
        raise WhichtoolError("mcp/file-not-found", f"{redact_message(raw)} is not a file")
    if size > MAX_AGENT_FILE_BYTES:
        raise WhichtoolError(
            "mcp/file-too-large",
            f"{redact_message(raw)} is {size:,} bytes, above the {MAX_INPUT_SIZE} limit",
            f"Agents may pass files of at most {MAX_INPUT_SIZE}.",
        )
    return path
