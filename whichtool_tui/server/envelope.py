"""The compact result envelope every MCP tool returns, and the caps that keep it small.

An agent's context is the scarce resource: text is capped at 4,000 characters, long lists at 50
diagnostics or 20 items (with an "omitted" count), and a whole envelope over 262,144 characters
is replaced by a ``mcp/result-too-large`` error rather than sent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.text_safety import redact_message, sanitize_text

RESULT_SCHEMA_VERSION = "whichtool.mcp-result/1"
MAX_TEXT_CHARS = 4000
MAX_ENVELOPE_CHARS = 262_144
MAX_DIAGNOSTICS = 50
MAX_ITEMS = 20
TRUNCATED_SUFFIX = "… [truncated]"

# The output schema shared by all four tools: the envelope, with a tool-specific ``data``.
RESULT_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "schemaVersion": {"const": RESULT_SCHEMA_VERSION},
        "ok": {"type": "boolean"},
        "summary": {"type": "string"},
        "data": {"type": "object"},
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "hint": {"type": "string"},
                "detail": {},
            },
            "required": ["code", "message"],
            "additionalProperties": False,
        },
    },
    "required": ["schemaVersion", "ok", "summary"],
    "additionalProperties": False,
}


def truncate_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` cut to ``limit`` characters including the ``… [truncated]`` marker."""
    if len(text) <= limit:
        return text
    return text[: limit - len(TRUNCATED_SUFFIX)] + TRUNCATED_SUFFIX


def capped(items: Sequence[Any], limit: int) -> tuple[list[Any], int]:
    """The first ``limit`` items and how many were left out."""
    kept = list(items[:limit])
    return kept, max(0, len(items) - limit)


def success(summary: str, data: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    """An envelope for a tool that ran; ``ok`` is the verdict of what it measured."""
    return {
        "schemaVersion": RESULT_SCHEMA_VERSION,
        "ok": ok,
        "summary": sanitize_text(truncate_text(summary)),  # text an agent's host may show
        "data": data,
    }


def failure(error: WhichtoolError, detail: Any = None) -> dict[str, Any]:
    """An envelope for a refusal or an error; messages are redacted before they leave."""
    body: dict[str, Any] = {"code": error.code, "message": redact_message(error.message)}
    if error.hint:
        body["hint"] = redact_message(error.hint)
    if detail is not None:
        body["detail"] = detail
    return {
        "schemaVersion": RESULT_SCHEMA_VERSION,
        "ok": False,
        "summary": truncate_text(f"{error.code}: {body['message']}"),
        "error": body,
    }


def encoded_size(envelope: dict[str, Any]) -> int:
    """How many characters the envelope takes as compact JSON."""
    return len(json.dumps(envelope, ensure_ascii=False, separators=(",", ":")))


def bounded(envelope: dict[str, Any]) -> dict[str, Any]:
    """The envelope itself, or a ``mcp/result-too-large`` failure when it exceeds the cap."""
    size = encoded_size(envelope)
    if size <= MAX_ENVELOPE_CHARS:
        return envelope
    return failure(
        WhichtoolError(
            "mcp/result-too-large",
            f"The result is {size:,} characters, above the {MAX_ENVELOPE_CHARS:,} cap",
            "Start the server with --result-file to keep the full report out of the context.",
        )
    )
