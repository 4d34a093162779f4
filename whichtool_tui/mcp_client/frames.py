"""Stdio frame codec: NDJSON or Content-Length, detected once and then locked.

MCP stdio is NDJSON, but some servers speak LSP-style ``Content-Length`` frames. Under ``auto``
the first non-blank line decides the dialect and every later frame must use it; a frame in the
other dialect is a named error, never skipped. Frames are capped at the one input cap
(``limits.MAX_INPUT_BYTES``, 16 MiB). Standard library only (besides that constant), so the
bundled fixture can read frames without loading an async framework.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from whichtool_tui.limits import MAX_INPUT_BYTES

MAX_FRAME_BYTES = MAX_INPUT_BYTES
# A line may carry a whole NDJSON frame, so the line limit is the frame cap plus header slack.
MAX_LINE_BYTES = MAX_FRAME_BYTES + 4096

Dialect = Literal["ndjson", "content-length"]
FramingMode = Literal["auto", "ndjson", "content-length"]
FRAMING_MODES: tuple[FramingMode, ...] = ("auto", "ndjson", "content-length")

_HEADER_NAME = re.compile(rb"^[A-Za-z0-9-]+$")


class FramingError(Exception):
    """The server's stdout broke the framing contract; ``name`` is a stable short reason."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def encode_frame(message: dict[str, Any], dialect: Dialect) -> bytes:
    """Serialise one JSON-RPC message as a compact frame in ``dialect``."""
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if dialect == "ndjson":
        return body + b"\n"
    return b"Content-Length: " + str(len(body)).encode("ascii") + b"\r\n\r\n" + body


def _parse_object(body: bytes, what: str) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise FramingError("invalid-json", f"invalid JSON body ({what}): {exc}") from None
    except RecursionError:
        raise FramingError(
            "too-deep", f"JSON body nested deeper than the parser's recursion bound ({what})"
        ) from None
    if not isinstance(value, dict):
        raise FramingError("not-an-object", f"a JSON-RPC message must be an object ({what})")
    return value


class FrameReader:
    """Reads JSON-RPC objects from a byte source in a pinned or detected dialect.

    ``receive`` returns the next chunk of bytes, or ``b""`` at end of stream.
    """

    def __init__(self, receive: Callable[[], Awaitable[bytes]], mode: FramingMode = "auto") -> None:
        self._receive = receive
        self._buffer = bytearray()
        self._eof = False
        self.dialect: Dialect | None = None if mode == "auto" else mode
        self.source: Literal["flag", "detected"] | None = None if mode == "auto" else "flag"

    async def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = await self._receive()
        if not chunk:
            self._eof = True
            return False
        self._buffer.extend(chunk)
        return True

    async def _readline(self) -> bytes | None:
        """The next line without its terminator, or None at end of stream."""
        start = 0
        while True:
            index = self._buffer.find(b"\n", start)
            if index >= 0:
                line = bytes(self._buffer[:index])
                del self._buffer[: index + 1]
                return line.rstrip(b"\r")
            if len(self._buffer) > MAX_LINE_BYTES:
                raise FramingError(
                    "frame-too-large", f"a frame exceeds the {MAX_FRAME_BYTES} byte cap"
                )
            start = len(self._buffer)
            if not await self._fill():
                if not self._buffer:
                    return None
                line = bytes(self._buffer)
                self._buffer.clear()
                return line.rstrip(b"\r")

    async def _read_exactly(self, size: int) -> bytes:
        while len(self._buffer) < size:
            if not await self._fill():
                raise FramingError("truncated", "stdout closed in the middle of a frame")
        body = bytes(self._buffer[:size])
        del self._buffer[:size]
        return body

    def _detect(self, line: bytes) -> Dialect:
        if line.startswith(b"{"):
            return "ndjson"
        if b":" in line:
            return "content-length"
        raise FramingError("undetectable", f"cannot detect framing from first line: {line[:80]!r}")

    async def read(self) -> dict[str, Any] | None:
        """The next message, or None when the stream ended cleanly between frames."""
        while True:
            line = await self._readline()
            if line is None:
                return None
            stripped = line.strip()
            if not stripped:
                continue
            if self.dialect is None:
                self.dialect = self._detect(stripped)
                self.source = "detected"
            if self.dialect == "ndjson":
                return _parse_object(stripped, "ndjson lock")
            return await self._read_content_length(stripped)

    async def _read_content_length(self, first: bytes) -> dict[str, Any]:
        headers: dict[str, str] = {}
        line: bytes | None = first
        while line:
            name, sep, value = line.partition(b":")
            if not sep or not _HEADER_NAME.match(name.strip()):
                raise FramingError(
                    "malformed-header",
                    f"malformed header line under a Content-Length lock: {line[:80]!r}",
                )
            headers[name.strip().decode("ascii").lower()] = value.strip().decode("latin-1")
            line = await self._readline()
            if line is None:
                raise FramingError("truncated", "stdout closed inside Content-Length headers")
            line = line.strip()
        raw_length = headers.get("content-length")
        if raw_length is None or not raw_length.isdigit():
            raise FramingError("malformed-header", "Content-Length header missing or not a number")
        length = int(raw_length)
        if length > MAX_FRAME_BYTES:
            raise FramingError(
                "frame-too-large", f"Content-Length {length} exceeds the {MAX_FRAME_BYTES} cap"
            )
        return _parse_object(await self._read_exactly(length), "content-length body")
