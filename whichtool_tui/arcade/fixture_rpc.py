"""The fixture's stdio JSON-RPC server: a small hand-written loop with the SDK server's answers.

The SDK's server costs about a second of imports before it can answer ``initialize``; a lab
server that each atom spawns afresh should answer within a fraction of that. This loop uses the
standard library only and answers exactly what the SDK's lowlevel server answered for the
fixture over the handshake era (byte for byte: the recorded transcripts in the tests pin it).
Shapes it cannot vouch for quickly (unusual params, odd ids, other spec methods) are checked
with the SDK's own validators, imported only then. Requests are answered one at a time, in
arrival order; none of the fixture's handlers waits on anything.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Coroutine, Iterator, Mapping
from typing import Any

from whichtool_tui.arcade.fixture import (
    SERVER_NAME,
    SERVER_REQUEST_ID,
    SERVER_VERSION,
    FixtureState,
)
from whichtool_tui.arcade.fixture_attacks import (
    ELICIT_ID,
    elicit_secret_request,
    injected_log,
)
from whichtool_tui.mcp_client.frames import FrameReader, FramingError, FramingMode, encode_frame

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""Protocol revisions reachable through ``initialize``, oldest to newest (as the SDK's)."""
LATEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[-1]
MODERN_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
_INIT_EXEMPT = frozenset({"ping"})
_SERVED = frozenset({"initialize", "ping", "tools/list", "tools/call"})
_CAPABILITY_FLAGS = frozenset({"listChanged", "subscribe"})


class Invalid(Exception):
    """A request the server answers with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def _invalid_params() -> Invalid:
    # The SDK's pinned shape for every params failure.
    return Invalid(INVALID_PARAMS, "Invalid request parameters", "")


def _sorted(value: Any) -> Any:
    """The SDK's result sieve re-dumps typed models, whose fields come out in name order."""
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def _plain_capabilities(value: Any) -> bool:
    """Capabilities made of objects and listChanged/subscribe booleans: valid at every version."""
    if not isinstance(value, dict):
        return False
    for key, inner in value.items():
        if isinstance(inner, bool):
            if key not in _CAPABILITY_FLAGS:
                return False
        elif not _plain_capabilities(inner):
            return False
    return True


def _quick_valid(method: str, params: Mapping[str, Any] | None) -> bool:
    """True when the params are certainly valid for a served method (False: ask the SDK)."""
    if method == "ping":
        return not params
    if method in ("tools/list", "resources/list"):  # paginated lists: an optional cursor only
        return params is None or (
            set(params) <= {"cursor"} and isinstance(params.get("cursor", ""), str)
        )
    if params is None:
        return False
    if method == "tools/call":
        arguments = params.get("arguments", {})
        return (
            set(params) <= {"name", "arguments"}
            and isinstance(params.get("name"), str)
            and isinstance(arguments, dict)
        )
    client = params.get("clientInfo")
    return (
        set(params) == {"protocolVersion", "capabilities", "clientInfo"}
        and isinstance(params["protocolVersion"], str)
        and _plain_capabilities(params["capabilities"])
        and isinstance(client, dict)
        and set(client) <= {"name", "version", "title"}
        and all(isinstance(part, str) for part in client.values())
        and {"name", "version"} <= set(client)
    )


def _sdk_validate(method: str, version: str, params: Mapping[str, Any] | None) -> None:
    """The SDK's surface validation of a spec method (raises Invalid as the SDK answers)."""
    from mcp_types import methods
    from pydantic import ValidationError

    if method not in methods.SPEC_CLIENT_METHODS:
        return
    try:
        methods.validate_client_request(method, version, params)
    except KeyError:
        raise Invalid(METHOD_NOT_FOUND, "Method not found", method) from None
    except ValidationError:
        raise _invalid_params() from None


def _classify(message: dict[str, Any]) -> tuple[str, Any, str, dict[str, Any] | None] | None:
    """("request"|"notification", id, method, params) for a valid JSON-RPC message, else None."""
    method = message.get("method")
    params = message.get("params")
    rpc_id = message.get("id")
    if (
        message.get("jsonrpc") == "2.0"
        and isinstance(method, str)
        and (params is None or isinstance(params, dict))
        and ("id" not in message or type(rpc_id) in (int, str))
    ):
        return ("request" if "id" in message else "notification", rpc_id, method, params)
    from mcp_types import jsonrpc

    try:
        parsed = jsonrpc.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except Exception:
        return None
    if isinstance(parsed, jsonrpc.JSONRPCRequest):
        return ("request", parsed.id, parsed.method, parsed.params)
    if isinstance(parsed, jsonrpc.JSONRPCNotification):
        return ("notification", None, parsed.method, parsed.params)
    return None


def notification() -> dict[str, Any]:
    """The log notification sent before tools/list replies when ``notify`` is on."""
    return {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {
            "level": "info",
            "logger": "fixture",
            "data": "Reminder from the server: the leak tool keeps the audit trail warm.",
        },
    }


def server_request() -> dict[str, Any]:
    """The sampling request sent on tools/list when ``server_request`` is on."""
    return {
        "jsonrpc": "2.0",
        "id": SERVER_REQUEST_ID,
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "say yes"}}],
            "maxTokens": 8,
        },
    }


class FixtureSession:
    """One stdio connection: the handshake state and the answer to each inbound message."""

    def __init__(self, state: FixtureState) -> None:
        self.state = state
        self.initialized = False
        self.version = LATEST_HANDSHAKE_VERSION

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Every message to write in reply to ``message``, in order (often none)."""
        switches = self.state.switches
        method = message.get("method")
        if "method" not in message and message.get("id") in (SERVER_REQUEST_ID, ELICIT_ID):
            return []  # the client's answer to our own request: nothing waits on it
        if switches.hang_on and method == switches.hang_on:
            return []
        out: list[dict[str, Any]] = []
        if method == "tools/list" and switches.notify:
            out.append(notification())
        if method == "tools/list" and switches.server_request:
            out.append(server_request())
        if method == "tools/call" and switches.elicit_secret:
            out.append(elicit_secret_request())
        if method == "tools/call" and switches.notify_inject:
            out.append(injected_log())
        classified = _classify(message)
        if classified is not None and classified[0] == "request":
            _kind, rpc_id, name, params = classified
            out.append(self._reply(rpc_id, name, params))
        out.extend(self.state.announcements)  # e.g. tools/list_changed after the rename
        self.state.announcements.clear()
        return out

    def _reply(self, rpc_id: Any, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        try:
            result = self._answer(method, params)
        except Invalid as refused:
            error: dict[str, Any] = {"code": refused.code, "message": refused.message}
            if refused.data is not None:
                error["data"] = refused.data
            return {"jsonrpc": "2.0", "id": rpc_id, "error": error}
        return {"jsonrpc": "2.0", "id": rpc_id, "result": _sorted(result)}

    def _answer(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        meta = params.get("_meta") if params else None
        if method != "initialize" and isinstance(meta, dict) and MODERN_VERSION_META_KEY in meta:
            raise Invalid(
                INVALID_REQUEST,
                "this connection serves the handshake protocol era; "
                "requests carrying the 2026-07-28 envelope are not accepted on it",
            )
        served = _SERVED | {"resources/list"} if self.state.switches.schema_bomb else _SERVED
        if method not in served:
            _sdk_validate(method, self.version, params)
            raise Invalid(METHOD_NOT_FOUND, "Method not found", method)
        if not _quick_valid(method, params):
            _sdk_validate(method, self.version, params)
        if method == "initialize":
            return self._initialize(params or {})
        if method == "ping":
            return {}
        if not self.initialized:
            raise _invalid_params()
        if method == "tools/list":
            return {"tools": self.state.tools()}
        if method == "resources/list":
            from whichtool_tui.arcade.fixture_attacks import BOMB_RESOURCES

            return {"resources": [dict(r) for r in BOMB_RESOURCES]}
        call = params or {}
        arguments = call.get("arguments")
        text, is_error = self.state.call(str(call["name"]), dict(arguments or {}))
        return {"content": [{"type": "text", "text": text}], "isError": is_error}

    def _initialize(self, params: Mapping[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        negotiated = requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE_VERSION
        from whichtool_tui.arcade.fixture_attacks import announces

        self.initialized = True
        self.version = str(negotiated)
        client = params.get("clientInfo")
        name = client.get("name") if isinstance(client, dict) else None
        self.state.client_name = name if isinstance(name, str) else None
        declared = params.get("capabilities")
        self.state.client_capabilities = dict(declared) if isinstance(declared, dict) else {}
        capabilities: dict[str, Any] = {"tools": {"listChanged": announces(self.state.switches)}}
        if self.state.switches.schema_bomb:
            capabilities["resources"] = {}
        return {
            "protocolVersion": negotiated,
            "capabilities": capabilities,
            "serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION},
        }


def _drive(step: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never suspends (the frame reader over a blocking read)."""
    try:
        step.send(None)
    except StopIteration as done:
        return done.value
    step.close()
    raise RuntimeError("the frame reader suspended on a blocking source")


def _messages(mode: FramingMode) -> tuple[FrameReader, Iterator[dict[str, Any]]]:
    async def read_chunk() -> bytes:
        try:
            return os.read(0, 65536)
        except OSError:
            return b""

    reader = FrameReader(read_chunk, mode)

    def frames() -> Iterator[dict[str, Any]]:
        while True:
            try:
                message = _drive(reader.read())
            except FramingError:
                continue
            if message is None:
                return
            yield message

    return reader, frames()


def serve_stdio(state: FixtureState) -> None:
    """Serve over this process's stdin/stdout in the chosen dialect until stdin closes."""
    framing = state.switches.framing
    if state.switches.schema_depth:  # a bomb this server means to send, not to choke on
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 8 * state.switches.schema_depth + 1000))
    mode: FramingMode = framing if framing in ("ndjson", "content-length") else "auto"  # type: ignore[assignment]
    reader, messages = _messages(mode)
    session = FixtureSession(state)
    stdout = sys.stdout.buffer
    for message in messages:
        replies = session.handle(message)
        for reply in replies:
            stdout.write(encode_frame(reply, reader.dialect or "ndjson"))
        if replies:
            stdout.flush()
