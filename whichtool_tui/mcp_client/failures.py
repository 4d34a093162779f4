"""Turn whatever the SDK or a transport raised into one named, one-line WhichtoolError.

The SDK reports most failures as a JSON-RPC error or a closed connection; the cause (a non-JSON
line, a 401, a dead child) is in what the transports observed, so that is consulted first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_SIZE
from whichtool_tui.mcp_client.auth import AUTH_ENV, ORIGIN_ENV
from whichtool_tui.mcp_client.faults import FaultBox
from whichtool_tui.mcp_client.http import HttpObserver, ResponseNote, ResponseTooLargeError
from whichtool_tui.mcp_client.stdio import StdioChild
from whichtool_tui.redact import redact_url
from whichtool_tui.text_safety import redact_message, sanitize_text

_MODERN_ERRORS = {
    -32022: ("mcp/unsupported-protocol-version", "does not support this protocol version"),
    -32020: ("mcp/header-mismatch", "rejected the request headers as not matching the body"),
    -32021: ("mcp/missing-client-capability", "requires a client capability we do not declare"),
    -32601: ("mcp/method-not-found", "does not implement the method"),
}
_LEGACY_SUSPECT_STATUSES = (400, 404, 405)


@dataclass
class FailureContext:
    """What the session knows when something fails: who, which step, and what was observed."""

    label: str
    transport: str
    method: str
    timeout: float
    faults: FaultBox
    observer: HttpObserver | None = None
    child: StdioChild | None = None


def leaf_exceptions(error: BaseException) -> list[BaseException]:
    """Flatten nested exception groups (anyio task groups wrap transport failures in them)."""
    if isinstance(error, BaseExceptionGroup):
        found: list[BaseException] = []
        for inner in error.exceptions:
            found.extend(leaf_exceptions(inner))
        return found
    return [error]


def _with_stderr(error: WhichtoolError, context: FailureContext) -> WhichtoolError:
    stderr = context.child.stderr_hint() if context.child is not None else None
    if stderr is None:
        return error
    hint = f"{error.hint} {stderr}" if error.hint else stderr
    return WhichtoolError(error.code, error.message, hint, error.exit_code)


def _body_is_jsonrpc_error(note: ResponseNote) -> bool:
    try:
        body = json.loads(note.body_head)
    except ValueError:
        return False
    return isinstance(body, dict) and isinstance(body.get("error"), dict)


def _unexpected_content(observer: HttpObserver) -> str | None:
    for note in reversed(observer.responses):
        if note.status in (200, 201):
            kind = note.content_type.split(";", 1)[0].strip().lower()
            if kind not in ("application/json", "text/event-stream"):
                return sanitize_text(kind[:60]) or "(none)"
            return None
    return None


def _http_failure(note: ResponseNote, context: FailureContext) -> WhichtoolError:
    where = redact_url(context.label)
    if 300 <= note.status < 400:
        location = urljoin(context.label, note.location) if note.location else None
        target = f" to {redact_url(location)}" if location else ""
        return WhichtoolError(
            "http/redirect",
            f"{where} answered {note.status} redirecting{target}; redirects are not followed",
            "Use the final URL as the target.",
        )
    if note.status in (401, 403):
        return WhichtoolError(
            "http/status",
            f"{where} answered HTTP {note.status} "
            f"({'unauthorized' if note.status == 401 else 'forbidden'})",
            f"Set {AUTH_ENV} to the Authorization value (e.g. 'Bearer …') and {ORIGIN_ENV} to "
            "the target's exact origin; it is sent only there, over HTTPS or loopback.",
        )
    if note.status in _LEGACY_SUSPECT_STATUSES and context.transport == "legacy-sse":
        return WhichtoolError(
            "http/status",
            f"{where} answered HTTP {note.status} to a legacy SSE client",
            "Legacy HTTP+SSE servers usually listen on /sse; for a Streamable HTTP endpoint "
            "use --transport http.",
        )
    if note.status in _LEGACY_SUSPECT_STATUSES and not _body_is_jsonrpc_error(note):
        return WhichtoolError(
            "http/legacy-server-suspected",
            f"{where} answered HTTP {note.status} to an MCP request",
            "Check the endpoint path (often /mcp). A server speaking the older HTTP+SSE "
            "transport works with --transport legacy-sse.",
        )
    return WhichtoolError(
        "http/status",
        f"{where} answered HTTP {note.status}",
        "Check that the URL is the server's MCP endpoint and that the server is healthy.",
    )


def _mcp_failure(error: MCPError, context: FailureContext) -> WhichtoolError:
    where = redact_message(context.label)
    if error.code == REQUEST_TIMEOUT:
        return _with_stderr(
            WhichtoolError(
                "mcp/timeout",
                f"{where} did not answer {context.method} within {context.timeout:g} s",
                "The server may be hung or slow to start; check that it speaks MCP.",
            ),
            context,
        )
    if error.code == CONNECTION_CLOSED and context.child is not None:
        exit_code = context.child.process.returncode
        status = f" (exit code {exit_code})" if exit_code is not None else ""
        return _with_stderr(
            WhichtoolError(
                "stdio/exited-early",
                f"{where} closed its stdout before answering {context.method}{status}",
                "The server stopped before speaking MCP; run the command by hand to see why.",
            ),
            context,
        )
    if error.code == CONNECTION_CLOSED:
        return WhichtoolError(
            "mcp/connection-closed",
            f"{where} closed the connection before answering {context.method}",
            None,
        )
    detail = redact_message(error.message[:200])
    if error.code in _MODERN_ERRORS:
        named, what = _MODERN_ERRORS[error.code]
        return WhichtoolError(
            named, f"{where} {what} ({context.method}: {error.code} {detail})", None
        )
    return _with_stderr(
        WhichtoolError(
            "mcp/server-error",
            f"{where} answered {context.method} with error {error.code}: {detail}",
            None,
        ),
        context,
    )


def _transport_failure(error: BaseException, context: FailureContext) -> WhichtoolError | None:
    where = redact_message(context.label)
    if isinstance(error, ResponseTooLargeError):
        return WhichtoolError(
            "mcp/oversize",
            f"{where} sent a response larger than {MAX_INPUT_SIZE}",
            "A tools/list response this large is not usable; check the server.",
        )
    if isinstance(error, httpx2.TimeoutException):
        return WhichtoolError(
            "mcp/timeout",
            f"{where} did not answer {context.method} within {context.timeout:g} s",
            None,
        )
    if isinstance(error, httpx2.ConnectError):
        return WhichtoolError(
            "http/unreachable",
            f"Cannot connect to {where}",
            "Check that the server is running and the host and port are right.",
        )
    if isinstance(error, httpx2.HTTPError):
        return WhichtoolError(
            "http/request-failed",
            f"HTTP request to {where} failed: {type(error).__name__}",
            None,
        )
    return None


def translate_failure(error: BaseException, context: FailureContext) -> WhichtoolError:
    """The named error for ``error``, preferring what the transports saw over the SDK's summary."""
    if isinstance(error, WhichtoolError):
        return error
    if context.faults.fault is not None:
        return _with_stderr(context.faults.fault, context)
    leaves = leaf_exceptions(error)
    for leaf in leaves:
        if isinstance(leaf, WhichtoolError):
            return leaf
    observer = context.observer
    if observer is not None and observer.oversize:
        return _transport_failure(ResponseTooLargeError(), context) or WhichtoolError(
            "mcp/oversize", "response too large", None
        )
    if observer is not None and (note := observer.last_failure()) is not None:
        return _http_failure(note, context)
    if observer is not None and (odd := _unexpected_content(observer)) is not None:
        return WhichtoolError(
            "http/unexpected-content-type",
            f"{redact_url(context.label)} answered {context.method} with content type "
            f"{odd!r}, not JSON or an event stream",
            "Check that the URL is the server's MCP endpoint, not a web page.",
        )
    for leaf in leaves:
        named = _transport_failure(leaf, context)
        if named is not None:
            return named
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            return _mcp_failure(leaf, context)
        if isinstance(leaf, ValidationError):
            return WhichtoolError(
                "mcp/invalid-result",
                f"{redact_message(context.label)} answered {context.method} with a result that "
                "does not match the MCP schema",
                None,
            )
        if isinstance(leaf, RuntimeError) and "protocol version" in str(leaf):
            return WhichtoolError(
                "mcp/unsupported-protocol-version",
                f"{redact_message(context.label)} chose a protocol version we do not speak",
                None,
            )
    name = type(leaves[0] if leaves else error).__name__
    return _with_stderr(
        WhichtoolError(
            "mcp/client-failed",
            f"Talking to {redact_message(context.label)} failed during {context.method} ({name})",
            "Run with --debug for details.",
        ),
        context,
    )
