"""A recording transport under the SDK's ClientSession: every JSON-RPC message, in order.

The SDK session talks to a pair of anyio memory streams; a pump between those streams and the
real channel (a child process over framed stdio, or the SDK's Streamable HTTP streams) records
each message with its sequence number, direction, method, id and monotonic time before passing
it on. Server-originated requests never reach the session: the pump records them, answers
-32601 and lists them, because the arcade serves no sampling, elicitation or roots.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from whichtool_tui.mcp_client.framing import FramingError, FramingMode
from whichtool_tui.mcp_client.framing import StdioChannel as StdioChannel
from whichtool_tui.mcp_client.framing import WireError as WireError
from whichtool_tui.mcp_client.framing import resolve_command as resolve_command

HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
SERVER_REQUEST_ERROR = -32601
Direction = Literal["out", "in"]


@dataclass(frozen=True)
class WireRecord:
    """One JSON-RPC message as it crossed the wire; ``t`` is monotonic seconds."""

    seq: int
    direction: Direction
    method: str | None
    rpc_id: int | str | None
    message: dict[str, Any]
    t: float


@dataclass(frozen=True)
class ServerRequestSeen:
    """A request the server sent us; always answered with an error, so ``rejected`` is true."""

    method: str
    rpc_id: int | str | None
    rejected: bool = True


class Recorder:
    """Numbers messages from 1 and remembers which requests were answered, for lookups by id."""

    def __init__(self, sink: Callable[[WireRecord], None] | None = None) -> None:
        self.records: list[WireRecord] = []
        self._sink = sink
        self._responses: dict[str, dict[str, Any]] = {}
        self._last_request: dict[str, int | str] = {}

    def record(self, direction: Direction, message: dict[str, Any]) -> WireRecord:
        """Append one message and pass it to the sink."""
        method = message.get("method")
        raw_id = message.get("id")
        rpc_id = raw_id if isinstance(raw_id, int | str) and not isinstance(raw_id, bool) else None
        entry = WireRecord(
            seq=len(self.records) + 1,
            direction=direction,
            method=method if isinstance(method, str) else None,
            rpc_id=rpc_id,
            message=message,
            t=time.monotonic(),
        )
        self.records.append(entry)
        if entry.method is None and rpc_id is not None and direction == "in":
            self._responses[str(rpc_id)] = message
        elif entry.method is not None and rpc_id is not None and direction == "out":
            self._last_request[entry.method] = rpc_id
        if self._sink is not None:
            self._sink(entry)
        return entry

    def response_for(self, rpc_id: int | str | None) -> dict[str, Any] | None:
        """The raw response to a request id (a string of digits matches the integer)."""
        return None if rpc_id is None else self._responses.get(str(rpc_id))

    def last_request_id(self, method: str) -> int | str | None:
        """The id of the latest outbound request of ``method``."""
        return self._last_request.get(method)


class Channel(Protocol):
    """A bidirectional JSON-RPC message channel below the recorder."""

    framing: str
    framing_source: str | None

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message."""
        ...

    async def receive(self) -> dict[str, Any] | None:
        """The next message, None when closed; raises FramingError on a broken frame."""
        ...

    def stderr_tail(self) -> str:
        """The last few KiB the server wrote to stderr, if any."""
        ...


@dataclass
class SessionFacts:
    """What the handshake told us, as the receipt records it."""

    protocol_version_sent: str | None = None
    protocol_version: str | None = None
    server_info: dict[str, Any] = field(default_factory=dict)
    server_capabilities: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CallOutcome:
    """A tools/call as the arcade scores it: error flag and the joined text content."""

    is_error: bool
    result_text: str


def _result_text(result: Any) -> str:
    content = result.get("content") if isinstance(result, dict) else None
    if not isinstance(content, list):
        return ""
    texts = [
        str(item.get("text", ""))
        for item in content
        if isinstance(item, dict) and item.get("type") == "text"
    ]
    return "\n".join(texts)


class WireSession:
    """The arcade's view of one MCP session: raw results read back from the recorded wire."""

    def __init__(self, session: Any, recorder: Recorder, channel: Channel, timeout: float) -> None:
        self._session = session
        self.recorder = recorder
        self.channel = channel
        self.timeout = timeout
        self.server_requests: list[ServerRequestSeen] = []
        self.failure: WireError | None = None
        self.facts = SessionFacts()

    async def _roundtrip(self, method: str, send: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
        from mcp.shared.exceptions import MCPError
        from mcp_types.jsonrpc import REQUEST_TIMEOUT

        timed_out = False
        try:
            await send()
        except MCPError as exc:
            timed_out = exc.code == REQUEST_TIMEOUT
        except Exception:
            pass
        rpc_id = self.recorder.last_request_id(method)
        raw = self.recorder.response_for(rpc_id)
        if raw is not None:
            return raw
        if self.failure is not None:
            raise self.failure
        if timed_out:
            message = f"{method} (id {rpc_id}) got no response in {self.timeout:g}s"
            if method == "initialize" and self.channel.framing == "auto":
                message += (
                    "; nothing came back to NDJSON: if the server speaks Content-Length, "
                    "rerun with --framing content-length"
                )
            raise WireError("timeout", message)
        raise WireError("closed", f"{method} (id {rpc_id}) got no response")

    async def initialize(self) -> SessionFacts:
        """Run the legacy handshake and check the version the server chose."""
        try:
            raw = await self._roundtrip("initialize", self._session.initialize)
        finally:
            sent = next((r.message for r in self.recorder.records if r.method == "initialize"), {})
            self.facts.protocol_version_sent = (sent.get("params") or {}).get("protocolVersion")
        if "error" in raw:
            error = raw.get("error") or {}
            raise WireError(
                "handshake",
                f"initialize refused: jsonrpc error {error.get('code')}: {error.get('message')}",
            )
        result = raw.get("result")
        result = result if isinstance(result, dict) else {}
        version = result.get("protocolVersion")
        self.facts.protocol_version = version if isinstance(version, str) else None
        info = result.get("serverInfo")
        self.facts.server_info = info if isinstance(info, dict) else {}
        caps = result.get("capabilities")
        self.facts.server_capabilities = caps if isinstance(caps, dict) else {}
        if version not in HANDSHAKE_VERSIONS:
            raise WireError("handshake", f"unsupported protocol version from server: {version!r}")
        return self.facts

    async def list_tools(self, max_pages: int = 100) -> list[dict[str, Any]]:
        """Every listed tool as raw JSON, following ``nextCursor`` pagination."""
        import mcp_types as types

        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(max_pages):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            request = types.ListToolsRequest(params=params)

            async def send(request: Any = request) -> Any:
                return await self._session.send_request(request, types.ListToolsResult)

            raw = await self._roundtrip("tools/list", send)
            result = raw.get("result")
            if not isinstance(result, dict):
                error = raw.get("error") or {}
                raise WireError(
                    "protocol",
                    f"tools/list failed: jsonrpc error {error.get('code')}: {error.get('message')}",
                )
            page = result.get("tools")
            tools.extend(t for t in (page if isinstance(page, list) else []) if isinstance(t, dict))
            next_cursor = result.get("nextCursor")
            if not isinstance(next_cursor, str) or not next_cursor:
                break
            cursor = next_cursor
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> CallOutcome:
        """One tools/call; a JSON-RPC error is an outcome, not an exception."""
        import mcp_types as types

        request = types.CallToolRequest(
            params=types.CallToolRequestParams(name=name, arguments=arguments)
        )

        async def send() -> Any:
            return await self._session.send_request(request, types.CallToolResult)

        raw = await self._roundtrip("tools/call", send)
        if "error" in raw:
            error = raw.get("error")
            error = error if isinstance(error, dict) else {}
            return CallOutcome(True, f"jsonrpc error {error.get('code')}: {error.get('message')}")
        result = raw.get("result")
        if not isinstance(result, dict):
            return CallOutcome(True, "")
        return CallOutcome(bool(result.get("isError")), _result_text(result))


class _Pump:
    """Moves messages between the SDK session's memory streams and the channel, recording both."""

    def __init__(self, channel: Channel, recorder: Recorder, wire: WireSession) -> None:
        self.channel = channel
        self.recorder = recorder
        self.wire = wire

    async def inbound(self, to_session: MemoryObjectSendStream[Any]) -> None:
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        async with to_session:
            while True:
                try:
                    message = await self.channel.receive()
                except FramingError as exc:
                    self.wire.failure = WireError(f"framing/{exc.name}", str(exc))
                    return
                if message is None:
                    tail = self.channel.stderr_tail()
                    suffix = f"; stderr: {tail[-300:]}" if tail else ""
                    self.wire.failure = WireError("closed", f"server closed stdout{suffix}")
                    return
                self.recorder.record("in", message)
                if isinstance(message.get("method"), str) and "id" in message:
                    await self._refuse(message)
                    continue
                try:
                    parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
                except Exception:
                    # A notification the SDK cannot type is recorded and dropped, never fatal.
                    if "method" in message:
                        continue
                    self.wire.failure = WireError(
                        "protocol", "unclassifiable message from server (neither reply nor request)"
                    )
                    return
                await to_session.send(SessionMessage(parsed))

    async def _refuse(self, message: dict[str, Any]) -> None:
        method = str(message["method"])
        raw_id = message.get("id")
        rpc_id = raw_id if isinstance(raw_id, int | str) else None
        self.wire.server_requests.append(ServerRequestSeen(method, rpc_id))
        reply = {
            "jsonrpc": "2.0",
            "id": raw_id,
            "error": {
                "code": SERVER_REQUEST_ERROR,
                "message": f"whichtool-tui does not serve server-originated requests ({method})",
            },
        }
        self.recorder.record("out", reply)
        with contextlib.suppress(Exception):
            await self.channel.send(reply)

    async def outbound(self, from_session: MemoryObjectReceiveStream[Any]) -> None:
        async with from_session:
            async for session_message in from_session:
                message = session_message.message.model_dump(
                    by_alias=True, mode="json", exclude_unset=True
                )
                self.recorder.record("out", message)
                try:
                    await self.channel.send(message)
                except Exception as exc:
                    if self.wire.failure is None:
                        self.wire.failure = WireError("closed", f"cannot write to server: {exc}")


@contextlib.asynccontextmanager
async def recording_session(
    channel: Channel,
    recorder: Recorder,
    request_timeout: float,
    background: Sequence[Callable[[], Coroutine[Any, Any, None]]] = (),
    client_info: tuple[str, str] | None = None,
) -> AsyncIterator[WireSession]:
    """A ClientSession over ``channel`` with every message recorded; enter and exit in one task.

    ``client_info`` (name, version) replaces our own clientInfo, for the bait-switch atom.
    """
    import mcp_types as types
    from mcp.client.session import ClientSession

    from whichtool_tui import __version__

    to_session, session_reads = anyio.create_memory_object_stream[Any](64)
    session_writes, from_session = anyio.create_memory_object_stream[Any](64)
    async with anyio.create_task_group() as group:
        for task in background:
            group.start_soon(task)
        session = ClientSession(
            session_reads,
            session_writes,
            read_timeout_seconds=request_timeout,
            client_info=types.Implementation(
                name=client_info[0] if client_info else "whichtool-tui",
                version=client_info[1] if client_info else __version__,
            ),
        )
        wire = WireSession(session, recorder, channel, request_timeout)
        pump = _Pump(channel, recorder, wire)
        group.start_soon(pump.inbound, to_session)
        group.start_soon(pump.outbound, from_session)
        try:
            async with session:
                yield wire
        finally:
            group.cancel_scope.cancel()


@contextlib.asynccontextmanager
async def recorded_stdio(
    argv: Sequence[str],
    env: Mapping[str, str],
    recorder: Recorder,
    *,
    framing: FramingMode = "auto",
    request_timeout: float = 30.0,
    cwd: str | None = None,
) -> AsyncIterator[WireSession]:
    """Start a stdio server and yield a recorded session over it; the child is always reaped."""
    channel = await StdioChannel.start(argv, env, cwd, framing)
    async with recorded_channel(channel, recorder, request_timeout) as wire:
        yield wire


@contextlib.asynccontextmanager
async def recorded_channel(
    channel: StdioChannel,
    recorder: Recorder,
    request_timeout: float,
    client_info: tuple[str, str] | None = None,
) -> AsyncIterator[WireSession]:
    """A recorded session over an already started stdio channel, which is always closed after.

    Errors come out as the first real exception rather than an exception group.
    """
    urgent = False
    try:
        try:
            async with recording_session(
                channel,
                recorder,
                request_timeout,
                background=(channel.drain_stderr,),
                client_info=client_info,
            ) as wire:
                yield wire
        except BaseExceptionGroup as group:
            raise first_leaf(group) from None
    except BaseException as exc:
        urgent = is_cancellation(exc)
        raise
    finally:
        await channel.aclose(urgent=urgent)


def is_cancellation(error: BaseException) -> bool:
    """Ctrl+C or a cancelled scope, alone or inside a group: the server gets no grace then."""
    kinds = (KeyboardInterrupt, anyio.get_cancelled_exc_class())
    if isinstance(error, BaseExceptionGroup):
        return error.subgroup(lambda item: isinstance(item, kinds)) is not None
    return isinstance(error, kinds)


def first_leaf(error: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) exception groups."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


class StreamChannel:
    """The SDK's own transport streams (Streamable HTTP) seen as a message channel."""

    framing = "http"
    framing_source: str | None = None

    def __init__(self, read_stream: Any, write_stream: Any) -> None:
        self._read = read_stream
        self._write = write_stream

    async def send(self, message: dict[str, Any]) -> None:
        """Hand one message to the SDK transport."""
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        await self._write.send(SessionMessage(parsed))

    async def receive(self) -> dict[str, Any] | None:
        """Next message from the transport; a transport exception is a named failure."""
        try:
            item = await self._read.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return None
        if isinstance(item, Exception):
            raise FramingError("transport", f"HTTP transport error: {item}")
        message: dict[str, Any] = item.message.model_dump(
            by_alias=True, mode="json", exclude_unset=True
        )
        return message

    def stderr_tail(self) -> str:
        """HTTP servers have no stderr we can see."""
        return ""


@contextlib.asynccontextmanager
async def recorded_http(
    url: str,
    recorder: Recorder,
    *,
    request_timeout: float = 30.0,
    client_info: tuple[str, str] | None = None,
) -> AsyncIterator[WireSession]:
    """A recorded session over Streamable HTTP (the SDK's client transport underneath)."""
    from mcp.client.streamable_http import streamable_http_client

    from whichtool_tui.mcp_client.http import HttpObserver, make_http_client

    try:
        # The same capped, redirect-free client the inspect path uses: a server that answers
        # with gigabytes is cut off at the 16 MiB cap instead of filling memory.
        async with (
            make_http_client(url, {}, request_timeout, HttpObserver()) as client,
            streamable_http_client(url, http_client=client) as (read_stream, write_stream),
        ):
            channel = StreamChannel(read_stream, write_stream)
            async with recording_session(
                channel, recorder, request_timeout, client_info=client_info
            ) as wire:
                yield wire
    except BaseExceptionGroup as group:
        raise first_leaf(group) from None
