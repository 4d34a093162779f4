"""A relay between a transport and the SDK session that keeps raw ``tools/list`` results.

The SDK validates results into models, which rejects (or reshapes) malformed tool entries; the
inspect review must see exactly what the server served. The relay forwards every message
unchanged and copies the raw ``result`` object of each ``tools/list`` response it passes.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCRequest, JSONRPCResponse

from whichtool_tui.mcp_client.http import ReadStream, WriteStream


@dataclass
class RawResults:
    """Raw results of the ``tools/list`` requests in flight or answered, by request id."""

    pending: set[Any] = field(default_factory=set)
    answered: dict[Any, dict[str, Any]] = field(default_factory=dict)

    def take(self) -> dict[str, Any] | None:
        """Remove and return the single answered result, if there is one."""
        if not self.answered:
            return None
        key = next(iter(self.answered))
        return self.answered.pop(key)


@contextlib.asynccontextmanager
async def tap_tools_list(
    read_stream: ReadStream, write_stream: WriteStream, raw: RawResults
) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """Wrap a transport's stream pair; ``raw`` fills with each ``tools/list`` result as served."""
    to_session, session_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    session_writes, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def downstream() -> None:
        async with to_session:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for item in read_stream:
                    if isinstance(item, SessionMessage):
                        message = item.message
                        if isinstance(message, JSONRPCResponse) and message.id in raw.pending:
                            raw.pending.discard(message.id)
                            raw.answered[message.id] = message.result
                    await to_session.send(item)

    async def upstream() -> None:
        async with from_session:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for item in from_session:
                    message = item.message
                    if isinstance(message, JSONRPCRequest) and message.method == "tools/list":
                        raw.pending.add(message.id)
                    await write_stream.send(item)
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                await write_stream.aclose()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(downstream)
        tasks.start_soon(upstream)
        try:
            async with session_reads, session_writes:
                yield session_reads, session_writes
        finally:
            tasks.cancel_scope.cancel()
