"""Loopback ports and ASGI apps served under uvicorn in a thread, for tests and benchmarks."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def free_port() -> int:
    """A port nothing listens on right now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RunningServer:
    """Where a served app listens, and the thread serving it (gone once the block ends)."""

    port: int
    thread: threading.Thread

    def url(self, path: str = "/mcp") -> str:
        """The full loopback URL of ``path``."""
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def serve_asgi(app: Any, start_within: float = 10.0) -> Iterator[RunningServer]:
    """Serve ``app`` on a free loopback port until the block ends (uvicorn imported lazily)."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_within
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield RunningServer(port=port, thread=thread)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def serve_handler(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """A threaded HTTP server on a free loopback port for ``handler``; yields the port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
