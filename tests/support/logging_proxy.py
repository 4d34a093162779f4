"""A loopback HTTP proxy that records what it is asked to forward and forwards nothing.

Pointing ``HTTP_PROXY``/``HTTPS_PROXY`` of a child process at it shows where a request for a
non-loopback host would have gone (``CONNECT api.openai.com:443``, or the absolute URL and headers
of a plain-HTTP request) while no byte leaves the machine: every request is answered 403.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from tests.support.net import serve_handler


@dataclass(frozen=True)
class ProxiedRequest:
    """One request the proxy refused to forward."""

    method: str
    target: str  # "host:port" for CONNECT, the absolute URL otherwise
    headers: dict[str, str]  # lowercased names


@dataclass
class LoggingProxy:
    """Where the proxy listens and what it has seen."""

    port: int
    requests: list[ProxiedRequest] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The proxy URL for HTTP_PROXY / HTTPS_PROXY."""
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """Proxy variables that send every non-loopback request here."""
        return {
            "HTTP_PROXY": self.url,
            "HTTPS_PROXY": self.url,
            "ALL_PROXY": self.url,
            "http_proxy": self.url,
            "https_proxy": self.url,
            "NO_PROXY": "",
            "no_proxy": "",
        }


@contextmanager
def logging_proxy() -> Iterator[LoggingProxy]:
    """Serve the refusing proxy on a free loopback port until the block ends."""
    seen: list[ProxiedRequest] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            record = ProxiedRequest(
                self.command, self.path, {k.lower(): v for k, v in self.headers.items()}
            )
            with lock:
                seen.append(record)
            self.send_response(403)
            self.send_header("content-length", "0")
            self.send_header("connection", "close")
            self.end_headers()

        do_CONNECT = do_GET = do_POST = _refuse

        def log_message(self, format: str, *args: object) -> None:
            return

    with serve_handler(Handler) as port:
        yield LoggingProxy(port=port, requests=seen)
