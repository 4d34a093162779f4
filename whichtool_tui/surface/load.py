"""Snapshot files: read a saved ``tools/list`` in any of its three shapes, and write one back.

Accepted shapes are ``{"tools": [...]}`` ("result"), a JSON-RPC envelope
``{"result": {"tools": [...]}}`` ("jsonrpc") and a bare array ("array", noted as info). Entries are
kept exactly as served so that normalisation can report malformed ones itself.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Literal

from whichtool_tui.bounded_read import parse_json_text, read_input_text
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import write_atomic
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.text_safety import sanitize_text

MAX_SNAPSHOT_BYTES = MAX_INPUT_BYTES
SnapshotShape = Literal["result", "jsonrpc", "array"]
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")

_SHAPE_HINT = (
    'Expected {"tools": [...]}, a JSON-RPC tools/list response {"result": {"tools": [...]}}, '
    "or a bare array of tools."
)


def snapshot_ref(path: str | os.PathLike[str], cwd: Path | None = None) -> str:
    """The path as reports show it: relative to cwd, or only its basename when outside cwd.

    Reports never reveal where a file outside the project lives on the user's machine.
    """
    folder = (cwd or Path.cwd()).resolve()
    resolved = Path(path).expanduser().resolve()
    try:
        return resolved.relative_to(folder).as_posix()
    except ValueError:
        return resolved.name


def _read_text(path: Path, shown: str) -> str:
    return read_input_text(
        path,
        prefix="snapshot",
        what="snapshot",
        hint="Check the path; a snapshot is a JSON file saved with --save-snapshot.",
        max_bytes=MAX_SNAPSHOT_BYTES,
        shown=shown,
        missing_code="snapshot/unreadable",
    )


def parse_snapshot_text(text: str, shown: str) -> Any:
    """Parse JSON strictly (bounded_read's rules), naming line and column on failure."""
    return parse_json_text(
        text,
        f"Snapshot {shown}",
        prefix="snapshot",
        hint="Fix the JSON, or capture the surface again with --save-snapshot.",
    )


def _jsonrpc_error_text(error: Any) -> str:
    if isinstance(error, dict):
        code = error.get("code")
        message = error.get("message")
        parts = []
        if isinstance(code, int) and not isinstance(code, bool):
            parts.append(str(code))
        if isinstance(message, str) and message:
            parts.append(sanitize_text(message[:200]))
        if parts:
            return " ".join(parts)
    return "no usable error detail"


def extract_tools(document: Any, shown: str) -> tuple[list[Any], SnapshotShape]:
    """Find the tool list inside a parsed snapshot and say which shape held it."""
    if isinstance(document, list):
        return document, "array"
    if isinstance(document, dict):
        tools = document.get("tools")
        if isinstance(tools, list):
            return tools, "result"
        result = document.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            return list(result["tools"]), "jsonrpc"
        if "error" in document and "tools" not in document and "result" not in document:
            raise WhichtoolError(
                "snapshot/jsonrpc-error",
                f"Snapshot {shown} holds a JSON-RPC error, not a tool list: "
                f"{_jsonrpc_error_text(document['error'])}",
                "The server refused tools/list when this was captured; capture it again.",
            )
    raise WhichtoolError(
        "snapshot/unrecognised-shape",
        f"Snapshot {shown} has no tool list in a recognised shape",
        _SHAPE_HINT,
    )


def load_snapshot(path: str | os.PathLike[str], cwd: Path | None = None) -> ServedListing:
    """Read a snapshot file into a ServedListing without touching the network."""
    return load_snapshot_document(path, cwd)[0]


def load_snapshot_document(
    path: str | os.PathLike[str], cwd: Path | None = None
) -> tuple[ServedListing, Any, SnapshotShape]:
    """The listing, the parsed file as it was saved, and which shape held the tools."""
    ref = snapshot_ref(path, cwd)
    text = _read_text(Path(path).expanduser(), ref)
    document = parse_snapshot_text(text, ref)
    listing, shape = listing_from_document(document, ref)
    return listing, document, shape


def listing_from_document(document: Any, ref: str) -> tuple[ServedListing, SnapshotShape]:
    """The listing a parsed snapshot holds (``ref``: its path as reports show it), and which
    shape held the tools."""
    tools, shape = extract_tools(document, ref)
    diagnostics: list[Diagnostic] = []
    if shape == "array":
        diagnostics.append(
            Diagnostic(
                code="snapshot/bare-array",
                severity="info",
                message=f"Snapshot {ref} is a bare array of tools",
                hint='Save snapshots as {"tools": [...]} (what --save-snapshot writes).',
            )
        )
    listing = ServedListing(transport="snapshot", ref=ref, raw_tools=tools, diagnostics=diagnostics)
    return listing, shape


def snapshot_text(raw_tools: list[Any]) -> str:
    """The canonical snapshot file body: ``{"tools": [...]}`` as served, indent 2, newline.

    A server may serve a lone surrogate escape (``"\\ud800"``); it stays an escape, so the file
    is valid UTF-8 and reads back to the same value.
    """
    text = json.dumps({"tools": raw_tools}, indent=2, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text) + "\n"


def save_snapshot(raw_tools: list[Any], path: str | os.PathLike[str]) -> Path:
    """Write the served tool list atomically, so a failed save never leaves half a file."""
    return write_atomic(path, snapshot_text(raw_tools))
