"""Our own MCP server on 127.0.0.1 for client tests: Streamable HTTP, legacy SSE, and bad answers.

One uvicorn server in a thread serves a single ASGI app that routes by path:

- ``/mcp``: a low-level SDK ``Server`` whose ``tools/list`` is paginated (``PAGE_SIZE`` tools
  per page over ``TOOL_COUNT`` tools), Streamable HTTP;
- ``/auth/mcp``: the same, but only with ``Authorization: Bearer <TOKEN>`` (else 401), and
  ``/forbidden/mcp`` which always answers 403;
- ``/sse`` and ``/messages/``: an ``MCPServer`` over the legacy HTTP+SSE transport;
- ``/redirect/mcp`` (307 to ``/mcp``), ``/huge/mcp`` (a 17 MiB chunked JSON body),
  ``/missing/mcp`` (a plain-text 404), ``/slow/mcp`` (answers only after SLOW_SECONDS),
  ``/html/mcp`` (a web page).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer

from tests.support.net import RunningServer, serve_asgi

TOKEN = "Bearer test-token-for-loopback"
TOOL_COUNT = 7
PAGE_SIZE = 3
HUGE_BYTES = 17 * 1024 * 1024
SLOW_SECONDS = 1.5


def paged_tools_server() -> Server[Any]:
    """A low-level server whose tools/list hands out TOOL_COUNT tools PAGE_SIZE at a time."""
    tools = [
        types.Tool(
            name=f"tool_{index:02d}",
            description=f"Tool number {index} of the paged test server",
            input_schema={"type": "object", "properties": {"n": {"type": "integer"}}},
        )
        for index in range(TOOL_COUNT)
    ]

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + PAGE_SIZE
        next_cursor = str(end) if end < len(tools) else None
        return types.ListToolsResult(tools=tools[start:end], next_cursor=next_cursor)

    return Server("paged-test-server", version="1.0.0", on_list_tools=list_tools)


def sse_server() -> MCPServer:
    """An MCPServer with two tools, for the legacy SSE transport."""
    server = MCPServer("sse-test-server")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def shout(text: str) -> str:
        """Return the text in capitals."""
        return text.upper()

    return server


async def _plain(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _drain(receive: Any) -> None:
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)


def build_app() -> Any:
    """The routing ASGI app described in the module docstring."""
    mcp_app = paged_tools_server().streamable_http_app()
    legacy_app = sse_server().sse_app()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await mcp_app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(("/sse", "/messages")):
            await legacy_app(scope, receive, send)
            return
        if path == "/redirect/mcp":
            await _drain(receive)
            await _plain(send, 307, b"", [(b"location", b"/mcp")])
            return
        if path == "/slow/mcp":
            await _drain(receive)
            await asyncio.sleep(SLOW_SECONDS)
            await _plain(send, 503, b"too late", [(b"content-type", b"text/plain")])
            return
        if path == "/html/mcp":
            await _drain(receive)
            await _plain(send, 200, b"<html>hello</html>", [(b"content-type", b"text/html")])
            return
        if path == "/missing/mcp":
            await _drain(receive)
            await _plain(send, 404, b"Not Found", [(b"content-type", b"text/plain")])
            return
        if path == "/forbidden/mcp":
            await _drain(receive)
            await _plain(send, 403, b"Forbidden", [(b"content-type", b"text/plain")])
            return
        if path == "/huge/mcp":
            await _drain(receive)
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            chunk = b"x" * (1024 * 1024)
            await send({"type": "http.response.body", "body": b'{"pad":"', "more_body": True})
            for _ in range(HUGE_BYTES // len(chunk)):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b'"}'})
            return
        if path == "/auth/mcp":
            headers = dict(scope["headers"])
            if headers.get(b"authorization", b"").decode() != TOKEN:
                await _drain(receive)
                await _plain(send, 401, b"Unauthorized", [(b"www-authenticate", b"Bearer")])
                return
            scope = dict(scope, path="/mcp", raw_path=b"/mcp")
        await mcp_app(scope, receive, send)

    return app


@contextmanager
def serve() -> Iterator[RunningServer]:
    """Run the app under uvicorn in a thread until the block ends."""
    with serve_asgi(build_app()) as running:
        yield running
