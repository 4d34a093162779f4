"""A deadline around opening every transport (issue 12, item 6): a legacy SSE server that never
sends its `endpoint` event, or names another origin, ends in a named error instead of hanging."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anyio
import pytest

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.sessions import McpSession
from whichtool_tui.targets import resolve_target

ENDPOINTS = {
    "silent": b": connected\n\n",  # a comment only: the endpoint event never comes
    "cross-origin": b"event: endpoint\ndata: http://evil.example.com/messages\n\n",
}


@contextmanager
def stalling_sse_server(first: bytes) -> Iterator[str]:
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            self.wfile.write(first)
            self.wfile.flush()
            while not stop.wait(0.2):
                pass

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sse"
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(ENDPOINTS))
async def test_legacy_sse_that_never_opens_ends_in_a_named_error(kind: str) -> None:
    with stalling_sse_server(ENDPOINTS[kind]) as url:
        spec = resolve_target(url, "legacy-sse", None)
        # The guard only turns a hang into a failure; nothing is asserted about duration.
        with anyio.fail_after(120), pytest.raises(WhichtoolError) as caught:
            async with McpSession(spec, timeout=1.0) as session:
                await session.list_tools_page(None)
    assert caught.value.code == "mcp/open-timeout"
    assert "did not finish connecting within 2 s" in caught.value.message
