"""A recording client session: every JSON-RPC message of a bout, in order, as it crossed.

The session writes its few requests itself and reads every answer raw from the recorder; a pump
on the real channel (a child process over framed stdio, or the SDK's Streamable HTTP streams)
records each inbound message with its sequence number, direction, method, id and monotonic time
before waking the request it answers. Server-originated requests never reach the session: the
pump records them, answers -32601 and lists them, because the arcade serves no sampling,
elicitation or roots.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import anyio
import anyio.abc

from whichtool_tui.limits import DEFAULT_START_TIMEOUT
from whichtool_tui.mcp_client.framing import FramingError, FramingMode
from whichtool_tui.mcp_client.framing import StdioChannel as StdioChannel
from whichtool_tui.mcp_client.framing import WireError as WireError
from whichtool_tui.mcp_client.framing import resolve_command as resolve_command
from whichtool_tui.mcp_client.startup import wait_until_up

HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
# How a request's wait ended: answered or the wire ended, its timeout, or the server never got
# past its start-up within the start-up deadline.
WaitOutcome = Literal["ended", "timed-out", "still-starting"]
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
    """The arcade's view of one MCP session: raw results read back from the recorded wire.

    The client side is written here rather than borrowed from the SDK's ClientSession: a bout
    sends four kinds of message (initialize, the initialized notification, tools/list,
    tools/call) and reads every answer raw from the recorder, so the SDK's typed session added
    nothing but over a second of import time to every bout.
    """

    def __init__(
        self,
        recorder: Recorder,
        channel: Channel,
        timeout: float,
        client_info: tuple[str, str],
        start_timeout: float = DEFAULT_START_TIMEOUT,
    ) -> None:
        self.recorder = recorder
        self.channel = channel
        self.timeout = timeout
        # Never shorter than a request's own budget: raising --timeout raises both.
        self.start_timeout = max(start_timeout, timeout)
        self.client_info = client_info
        self.client_capabilities: dict[str, Any] = {}
        """What ``initialize`` declares (empty: the house enables no server-initiated request)."""
        self.server_requests: list[ServerRequestSeen] = []
        self.failure: WireError | None = None
        self.facts = SessionFacts()
        self._next_id = 1
        self._waiting: dict[str, anyio.Event] = {}

    async def _send(self, message: dict[str, Any]) -> None:
        """Record and write one outbound message; a failed write ends the session."""
        self.recorder.record("out", message)
        try:
            await self.channel.send(message)
        except Exception as exc:
            if self.failure is None:
                self.failure = WireError("closed", f"cannot write to server: {exc}")
            self.wake_all()

    async def _request(
        self, method: str, params: dict[str, Any] | None, *, first: bool = False
    ) -> WaitOutcome:
        """Send one request and wait for its answer.

        The ``first`` request's clock starts once a stdio server is up (see ``startup``):
        its start-up has the separate start-up deadline, never the request's timeout.
        """
        rpc_id = self._next_id
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
        if params is not None:
            message["params"] = params
        answered = anyio.Event()
        self._waiting[str(rpc_id)] = answered
        try:
            await self._send(message)
            if self.failure is not None:
                return "ended"
            if first and not await wait_until_up(self._server_pid(), answered, self.start_timeout):
                return "still-starting"
            with anyio.move_on_after(self.timeout) as scope:
                await answered.wait()
            return "timed-out" if scope.cancelled_caught else "ended"
        finally:
            self._waiting.pop(str(rpc_id), None)

    def _server_pid(self) -> int | None:
        """Whose process tree shows the server's start-up: the stdio child, or for a fixture
        forked by the zygote the zygote itself (asked without blocking); None over HTTP."""
        process = getattr(self.channel, "process", None)
        pid = getattr(process, "startup_pid", None) or getattr(process, "pid", None)
        return pid if isinstance(pid, int) else None

    def answered(self, rpc_id: object) -> None:
        """A reply arrived: wake the request waiting for that id, if any."""
        if isinstance(rpc_id, int | str) and not isinstance(rpc_id, bool):
            waiting = self._waiting.get(str(rpc_id))
            if waiting is not None:
                waiting.set()

    def wake_all(self) -> None:
        """The wire is gone: nothing more will be answered."""
        for waiting in self._waiting.values():
            waiting.set()

    async def _roundtrip(
        self, method: str, params: dict[str, Any] | None, *, first: bool = False
    ) -> dict[str, Any]:
        outcome = await self._request(method, params, first=first)
        rpc_id = self.recorder.last_request_id(method)
        raw = self.recorder.response_for(rpc_id)
        if raw is not None:
            return raw
        if self.failure is not None:
            raise self.failure
        if outcome == "still-starting":
            raise WireError(
                "start-timeout",
                f"the server was still starting after {self.start_timeout:g}s (its {method} "
                f"(id {rpc_id}) was never answered); --start-timeout gives a slow server longer",
            )
        if outcome == "timed-out":
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
        name, client_version = self.client_info
        params = {
            "protocolVersion": HANDSHAKE_VERSIONS[0],
            "capabilities": dict(self.client_capabilities),
            "clientInfo": {"name": name, "version": client_version},
        }
        self.facts.protocol_version_sent = HANDSHAKE_VERSIONS[0]
        raw = await self._roundtrip("initialize", params, first=True)
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
        if well_formed_initialize_result(result):
            # As a typed client does: a result it cannot read is not acknowledged.
            await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self.facts

    async def list_tools(self, max_pages: int = 100) -> list[dict[str, Any]]:
        """Every listed tool as raw JSON, following ``nextCursor`` pagination."""
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(max_pages):
            raw = await self._roundtrip("tools/list", {"cursor": cursor} if cursor else None)
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

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request of any method; the raw reply (result or error) as recorded."""
        return await self._roundtrip(method, params)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> CallOutcome:
        """One tools/call; a JSON-RPC error is an outcome, not an exception."""
        raw = await self._roundtrip("tools/call", {"name": name, "arguments": arguments})
        if "error" in raw:
            error = raw.get("error")
            error = error if isinstance(error, dict) else {}
            return CallOutcome(True, f"jsonrpc error {error.get('code')}: {error.get('message')}")
        result = raw.get("result")
        if not isinstance(result, dict):
            return CallOutcome(True, "")
        return CallOutcome(bool(result.get("isError")), _result_text(result))


def well_formed_initialize_result(result: dict[str, Any]) -> bool:
    """Whether an initialize result carries what the protocol requires of it."""
    info = result.get("serverInfo")
    return (
        isinstance(result.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    )


def _lax_int(value: object) -> bool:
    """An error code as a lenient JSON-RPC reader takes it: an integer, or one spelt as text."""
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, str) and value.strip().removeprefix("-").isdigit()


def is_reply(message: dict[str, Any]) -> bool:
    """A well-formed JSON-RPC response or error (a notification or request is not a reply)."""
    if message.get("jsonrpc") != "2.0":
        return False
    raw_id = message.get("id")
    has_id = isinstance(raw_id, int | str) and not isinstance(raw_id, bool)
    error = message.get("error")
    if (
        isinstance(error, dict)
        and (has_id or raw_id is None)
        and _lax_int(error.get("code"))
        and isinstance(error.get("message"), str)
    ):
        return True
    return has_id and isinstance(message.get("result"), dict)


class _Pump:
    """Reads the channel, recording every message, and hands replies to the waiting request."""

    def __init__(self, channel: Channel, recorder: Recorder, wire: WireSession) -> None:
        self.channel = channel
        self.recorder = recorder
        self.wire = wire

    async def inbound(self) -> None:
        try:
            await self._read()
        finally:
            self.wire.wake_all()

    async def _read(self) -> None:
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
            if "method" in message:
                continue  # a notification: recorded, and nothing a bout acts on
            if not is_reply(message):
                self.wire.failure = WireError(
                    "protocol", "unclassifiable message from server (neither reply nor request)"
                )
                return
            self.wire.answered(message.get("id"))

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


@contextlib.asynccontextmanager
async def recording_session(
    channel: Channel,
    recorder: Recorder,
    request_timeout: float,
    background: Sequence[Callable[[], Coroutine[Any, Any, None]]] = (),
    client_info: tuple[str, str] | None = None,
    start_timeout: float = DEFAULT_START_TIMEOUT,
) -> AsyncIterator[WireSession]:
    """A client session over ``channel`` with every message recorded; enter and exit in one task.

    ``client_info`` (name, version) replaces our own clientInfo, for the bait-switch atom;
    ``start_timeout`` bounds a stdio server's start-up before ``initialize``'s own clock runs.
    """
    from whichtool_tui import __version__

    async with anyio.create_task_group() as group:
        for task in background:
            group.start_soon(task)
        wire = WireSession(
            recorder,
            channel,
            request_timeout,
            client_info or ("whichtool-tui", __version__),
            start_timeout,
        )
        group.start_soon(_Pump(channel, recorder, wire).inbound)
        try:
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
    start_timeout: float = DEFAULT_START_TIMEOUT,
    cwd: str | None = None,
) -> AsyncIterator[WireSession]:
    """Start a stdio server and yield a recorded session over it; the child is always reaped."""
    channel = await StdioChannel.start(argv, env, cwd, framing)
    async with recorded_channel(
        channel, recorder, request_timeout, start_timeout=start_timeout
    ) as wire:
        yield wire


@contextlib.asynccontextmanager
async def recorded_channel(
    channel: StdioChannel,
    recorder: Recorder,
    request_timeout: float,
    client_info: tuple[str, str] | None = None,
    *,
    start_timeout: float = DEFAULT_START_TIMEOUT,
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
                start_timeout=start_timeout,
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
        try:
            message: dict[str, Any] = item.message.model_dump(
                by_alias=True, mode="json", exclude_unset=True
            )
        except (ValueError, RecursionError) as exc:  # the SDK's serialisation depth limit
            raise FramingError("too-deep", f"message the SDK cannot serialise: {exc}") from None
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
