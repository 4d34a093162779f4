"""HTTP plumbing under the SDK's Streamable HTTP and legacy SSE transports.

The SDK folds HTTP failures into generic JSON-RPC errors; to name them (401, a redirect, an
oversize body) we hand it an ``httpx2`` client whose transport remembers what each response was
and caps how much of a body it will read. Redirects are never followed.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._stream_protocols import ReadStream as _ReadStream
from mcp.shared._stream_protocols import WriteStream as _WriteStream
from mcp.shared.message import SessionMessage

from whichtool_tui.limits import MAX_INPUT_BYTES, byte_size
from whichtool_tui.mcp_client.auth import is_loopback_host

MAX_RESPONSE_BYTES = MAX_INPUT_BYTES
_TOO_LARGE = f"response body larger than {byte_size(MAX_RESPONSE_BYTES)}"
_ERROR_BODY_BYTES = 64 * 1024

ReadStream = _ReadStream[SessionMessage | Exception]
WriteStream = _WriteStream[SessionMessage]


class ResponseTooLargeError(Exception):
    """A response body grew past the cap; raised from inside the body stream."""


@dataclass
class ResponseNote:
    """What we remember about one HTTP response: enough to name a failure, never a secret."""

    status: int
    content_type: str
    location: str | None
    body_head: bytes = b""


@dataclass
class HttpObserver:
    """Every response the target sent, in order, and whether a body hit the size cap."""

    responses: list[ResponseNote] = field(default_factory=list)
    oversize: bool = False

    def last_failure(self) -> ResponseNote | None:
        """The most recent redirect or error response, if any."""
        for note in reversed(self.responses):
            if note.status >= 300:
                return note
        return None


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(
        self, inner: httpx2.AsyncByteStream, observer: HttpObserver, note: ResponseNote
    ) -> None:
        self._inner = inner
        self._observer = observer
        self._note = note

    async def __aiter__(self) -> AsyncIterator[bytes]:
        received = 0
        async for chunk in self._inner:
            received += len(chunk)
            if received > MAX_RESPONSE_BYTES:
                self._observer.oversize = True
                raise ResponseTooLargeError(_TOO_LARGE)
            if self._note.status >= 300 and len(self._note.body_head) < _ERROR_BODY_BYTES:
                self._note.body_head += chunk[: _ERROR_BODY_BYTES - len(self._note.body_head)]
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class _ObservingTransport(httpx2.AsyncBaseTransport):
    def __init__(self, inner: httpx2.AsyncBaseTransport, observer: HttpObserver) -> None:
        self._inner = inner
        self._observer = observer

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
            self._observer.oversize = True
            await response.aclose()
            raise ResponseTooLargeError(_TOO_LARGE)
        note = ResponseNote(
            status=response.status_code,
            content_type=response.headers.get("content-type", ""),
            location=response.headers.get("location"),
        )
        self._observer.responses.append(note)
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_CappedStream(response.stream, self._observer, note),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def make_http_client(
    url: str,
    headers: dict[str, str],
    timeout: float | httpx2.Timeout,
    observer: HttpObserver,
) -> httpx2.AsyncClient:
    """An httpx2 client that records responses, caps bodies and follows no redirect at all."""
    # Loopback traffic must not be routed through a proxy from the environment.
    trust_env = not is_loopback_host(urlsplit(url).hostname)
    return httpx2.AsyncClient(
        headers=headers,
        timeout=timeout if isinstance(timeout, httpx2.Timeout) else httpx2.Timeout(timeout),
        follow_redirects=False,
        max_redirects=0,
        trust_env=trust_env,
        transport=_ObservingTransport(httpx2.AsyncHTTPTransport(trust_env=trust_env), observer),
    )


@contextlib.asynccontextmanager
async def streamable_http_transport(
    url: str, headers: dict[str, str], seconds: float, observer: HttpObserver
) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """The SDK's Streamable HTTP transport over our observing client."""
    async with (
        make_http_client(url, headers, seconds, observer) as client,
        streamable_http_client(url, http_client=client) as (read_stream, write_stream),
    ):
        yield read_stream, write_stream


@contextlib.asynccontextmanager
async def legacy_sse_transport(
    url: str, headers: dict[str, str], seconds: float, observer: HttpObserver
) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """The SDK's legacy HTTP+SSE transport (protocol 2024-11-05) over our observing client."""

    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        return make_http_client(url, dict(headers or {}), timeout or seconds, observer)

    stream_timeout: Any = seconds
    async with sse_client(
        url,
        headers=headers,
        timeout=stream_timeout,
        sse_read_timeout=stream_timeout,
        httpx_client_factory=factory,
    ) as (read_stream, write_stream):
        yield read_stream, write_stream
