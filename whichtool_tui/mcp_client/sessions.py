"""One MCP client session per server, owned by one lifetime task and talked to through methods.

The SDK's transports and ``ClientSession`` use anyio cancel scopes that must be entered and left
in the same task. ``McpSession`` therefore runs them inside a single task that performs the
``initialize`` handshake and then executes queued jobs, so callers in any task can use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

import anyio
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import (
    REQUEST_TIMEOUT,
    Implementation,
    InitializeResult,
    ListToolsRequest,
    PaginatedRequestParams,
)
from pydantic import BaseModel, ConfigDict, ValidationError

from whichtool_tui import __version__
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import DEFAULT_START_TIMEOUT
from whichtool_tui.limits import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from whichtool_tui.mcp_client.auth import authorization_headers, check_http_url
from whichtool_tui.mcp_client.failures import FailureContext, translate_failure
from whichtool_tui.mcp_client.faults import FaultBox
from whichtool_tui.mcp_client.http import (
    HttpObserver,
    ReadStream,
    WriteStream,
    legacy_sse_transport,
    streamable_http_transport,
)
from whichtool_tui.mcp_client.startup import wait_until_up
from whichtool_tui.mcp_client.stdio import StdioChild, launch_stdio, stdio_transport
from whichtool_tui.mcp_client.tap import RawResults, tap_tools_list

if TYPE_CHECKING:
    from whichtool_tui.targets import TargetSpec

CLIENT_INFO = Implementation(name="whichtool-tui", version=__version__)

# The SDK logs tracebacks for failures we report ourselves as one line; keep them off stderr
# unless the application configures logging on purpose.
for _name in ("mcp", "httpx2", "httpcore2"):
    logging.getLogger(_name).addHandler(logging.NullHandler())

Job = Callable[[ClientSession], Awaitable[Any]]


class _AnyResult(BaseModel):
    """Accepts any result object: the raw copy from the tap is what callers use."""

    model_config = ConfigDict(extra="allow")


def _consume(future: asyncio.Future[Any]) -> None:
    # A caller cancelled mid-wait never reads its future; reading it here keeps asyncio from
    # printing "exception was never retrieved" on the way out.
    if not future.cancelled():
        future.exception()


OPEN_DEADLINE_FACTOR = 2.0


class McpSession:
    """A live connection to one MCP server; use ``async with`` and call its methods.

    ``timeout`` bounds each request and the handshake, counted once a stdio server is up (see
    ``startup``); its start-up has the separate ``start_timeout``, as a bout's has.
    """

    def __init__(
        self,
        spec: TargetSpec,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = DEFAULT_START_TIMEOUT,
    ) -> None:
        if spec.transport == "snapshot":
            raise ValueError("a snapshot target has no session")
        self.spec = spec
        self.timeout = timeout
        # Never shorter than a request's own budget: raising the timeout raises both.
        self.start_timeout = max(start_timeout, timeout)
        self.faults = FaultBox()
        self.observer: HttpObserver | None = None
        self.child: StdioChild | None = None
        self.raw = RawResults()
        self.server_name: str | None = None
        self.server_version: str | None = None
        self.protocol_version: str | None = None
        self._method = "initialize"
        self._jobs: asyncio.Queue[tuple[Job, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._ready: asyncio.Future[None] | None = None
        self._up = asyncio.Event()  # the server is up (or the lifetime ended): the clock runs
        self._current: asyncio.Future[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._scope = anyio.CancelScope()

    @property
    def pid(self) -> int | None:
        """The stdio child's process id, when there is one."""
        return self.child.pid if self.child is not None else None

    def _context(self) -> FailureContext:
        return FailureContext(
            label=self.spec.ref,
            transport=self.spec.transport,
            method=self._method,
            timeout=self.timeout,
            faults=self.faults,
            observer=self.observer,
            child=self.child,
        )

    @contextlib.asynccontextmanager
    async def _transport(self) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
        spec = self.spec
        if spec.transport == "stdio":
            self.child = await launch_stdio(spec.argv, spec.env, spec.cwd)
            async with stdio_transport(self.child, self.faults) as streams:
                yield streams  # the handshake is sent at once; its clock waits (``_handshake``)
            return
        self._up.set()
        assert spec.url is not None
        check_http_url(spec.url)
        headers = authorization_headers(spec.url, spec.headers, None if spec.env_credential else {})
        self.observer = HttpObserver()
        opener = (
            legacy_sse_transport if spec.transport == "legacy-sse" else streamable_http_transport
        )
        async with opener(spec.url, headers, self.timeout, self.observer) as streams:
            yield streams

    async def _handshake(self, session: ClientSession) -> InitializeResult:
        """Send ``initialize`` at once and start its clock only when a stdio server is up.

        The SDK fixes a request's timeout when it is sent, so the session has none and this
        method keeps the handshake's own clock, as the bout's wire client does: until the
        server waits for its first message only the start-up deadline applies, named apart.
        """
        answered = anyio.Event()
        results: list[InitializeResult] = []

        async def send() -> None:
            results.append(await session.initialize())
            answered.set()

        async with anyio.create_task_group() as group:
            group.start_soon(send)
            child = self.child
            if child is not None and not await wait_until_up(
                child.pid, answered, self.start_timeout
            ):
                raise WhichtoolError(
                    "mcp/start-timeout",
                    f"{self.spec.ref} was still starting after {self.start_timeout:g} s (busy, "
                    "before it waited for its first message)",
                    "A server that takes this long to start up is busy importing or building; "
                    "start it once by hand to see why.",
                )
            self._up.set()
            with anyio.move_on_after(self.timeout):
                await answered.wait()
            if not answered.is_set():
                raise MCPError(REQUEST_TIMEOUT, f"initialize got no answer in {self.timeout:g} s")
        return results[0]

    async def _lifetime(self) -> None:
        assert self._ready is not None
        try:
            with self._scope:
                await self._connect_and_serve()
        except BaseException as error:
            failure = translate_failure(error, self._context())
            for waiter in (self._ready, self._current):
                if waiter is not None and not waiter.done():
                    waiter.set_exception(failure)
            if not isinstance(error, Exception):
                raise
        finally:
            self._up.set()  # whatever ended it, ``start`` stops waiting for the start-up
        for waiter in (self._ready, self._current):
            if waiter is not None and not waiter.done():
                waiter.set_exception(
                    WhichtoolError("cli/cancelled", "The MCP session was closed", None)
                )

    async def _connect_and_serve(self) -> None:
        assert self._ready is not None
        async with AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(self._transport())
            read, write = await stack.enter_async_context(tap_tools_list(read, write, self.raw))
            # No session-wide read timeout: the SDK would start it when initialize is sent.
            # The handshake keeps its own clock; every job passes ``self.timeout`` itself.
            session = await stack.enter_async_context(
                ClientSession(read, write, client_info=CLIENT_INFO)
            )
            result = await self._handshake(session)
            self.server_name = result.server_info.name
            self.server_version = result.server_info.version
            self.protocol_version = result.protocol_version
            self._ready.set_result(None)
            await self._serve(session)

    async def _serve(self, session: ClientSession) -> None:
        while (item := await self._jobs.get()) is not None:
            job, future = item
            self._current = future
            try:
                outcome = await job(session)
            except Exception as error:
                if not future.done():
                    future.set_exception(translate_failure(error, self._context()))
            else:
                if not future.done():
                    future.set_result(outcome)
            finally:
                self._current = None

    async def start(self) -> None:
        """Connect and complete the ``initialize`` handshake, or raise a named error."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._ready.add_done_callback(_consume)
        self._task = asyncio.create_task(self._lifetime(), name=f"mcp-session {self.spec.ref}")
        # One deadline around opening any transport: a legacy SSE server that never sends its
        # endpoint (or names another origin) would otherwise wait forever. Twice the request
        # timeout, so a named initialize timeout still comes first when initialize was sent.
        # A stdio server's start-up comes before it, bounded by its own start-up deadline.
        deadline = OPEN_DEADLINE_FACTOR * self.timeout
        await self._up.wait()
        try:
            async with asyncio.timeout(deadline):
                await asyncio.shield(self._ready)
        except TimeoutError:
            await self.close()
            raise WhichtoolError(
                "mcp/open-timeout",
                f"{self.spec.ref} did not finish connecting within {deadline:g} s",
                "The server accepted the connection but never completed the MCP handshake "
                "(for legacy SSE: no `endpoint` event, or one on another origin).",
            ) from None

    async def run(self, method: str, job: Job) -> Any:
        """Run ``job`` against the SDK session inside the lifetime task; errors come back named.

        The session has no default read timeout: a job passes ``self.timeout`` to each request
        (``request_read_timeout_seconds``)."""
        if self._task is None or self._task.done():
            raise WhichtoolError("mcp/not-connected", "The MCP session is not running", None)
        self._method = method
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_consume)
        await self._jobs.put((job, future))
        return await asyncio.shield(future)

    async def list_tools_page(self, cursor: str | None) -> dict[str, Any]:
        """One ``tools/list`` page as the raw result object the server sent."""

        async def job(session: ClientSession) -> dict[str, Any]:
            params = PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            self.raw.answered.clear()  # a late answer to an abandoned request is not this page
            # Malformed tool entries fail SDK validation; the raw result is what we want anyway.
            with contextlib.suppress(ValidationError):
                await session.send_request(
                    ListToolsRequest(params=params),
                    _AnyResult,
                    request_read_timeout_seconds=self.timeout,
                )
            raw = self.raw.take()
            if raw is None:
                raise WhichtoolError(
                    "mcp/invalid-result", f"{self.spec.ref} sent no tools/list result", None
                )
            return raw

        result: dict[str, Any] = await self.run("tools/list", job)
        return result

    async def close(self) -> None:
        """End the session: the transport stops the server or closes the HTTP session."""
        task = self._task
        if task is None:
            return
        if not task.done():
            busy = self._current is not None or (self._ready is not None and not self._ready.done())
            if busy:
                # Still connecting or mid-request: the lifetime task is not reading its queue.
                self._scope.cancel()
            else:
                await self._jobs.put(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.shield(task)

    async def __aenter__(self) -> McpSession:
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
