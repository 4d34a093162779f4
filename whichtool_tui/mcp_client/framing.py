"""Stdio framing for the arcade: NDJSON or Content-Length, detected once and then locked.

Also the framed child process itself (``StdioChannel``): spawned in its own session, stderr
reduced to its tail, and shut down stdin-close, SIGTERM, SIGKILL so no child outlives a bout.

MCP stdio is NDJSON, but some servers speak LSP-style ``Content-Length`` frames. Under ``auto``
the first non-blank inbound line decides the dialect and every later frame must use it; a frame
in the other dialect is a named error, never skipped. Frames are capped at 16 MiB.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

import anyio
import anyio.abc

MAX_FRAME_BYTES = 16 * 1024 * 1024
# A line may carry a whole NDJSON frame, so the line limit is the frame cap plus header slack.
MAX_LINE_BYTES = MAX_FRAME_BYTES + 4096

Dialect = Literal["ndjson", "content-length"]
FramingMode = Literal["auto", "ndjson", "content-length"]
FRAMING_MODES: tuple[FramingMode, ...] = ("auto", "ndjson", "content-length")

_HEADER_NAME = re.compile(rb"^[A-Za-z0-9-]+$")
STDERR_TAIL_BYTES = 4096
# (signal to send first, or None for just the stdin close; seconds to wait for the exit)
CLOSE_STEPS: tuple[tuple[int | None, float], ...] = (
    (None, 1.5),
    (signal.SIGTERM, 3.0),
    (signal.SIGKILL, 5.0),
)
URGENT_CLOSE_STEPS: tuple[tuple[int | None, float], ...] = (
    (signal.SIGTERM, 0.5),
    (signal.SIGKILL, 1.0),
)


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


class WireError(Exception):
    """The conversation could not finish: timeout, closed stdout, broken framing, bad handshake."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def resolve_command(argv: Sequence[str]) -> list[str]:
    """Resolve argv[0] on PATH, or fail with a named error."""
    if not argv:
        raise WireError("spawn", "no command to start")
    found = shutil.which(argv[0])
    if found is None:
        raise WireError("spawn", f"command not found: {argv[0]}")
    return [found, *argv[1:]]


class StdioChannel:
    """A child process speaking framed JSON-RPC, in its own session so its group can be killed."""

    def __init__(self, process: anyio.abc.Process, mode: FramingMode) -> None:
        self.process = process
        assert process.stdout is not None and process.stdin is not None
        stdout = process.stdout

        async def read_chunk() -> bytes:
            try:
                return await stdout.receive(65536)
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                return b""

        self._reader = FrameReader(read_chunk, mode)
        self._stderr = bytearray()
        self.framing: str = mode
        self.framing_source: str | None = self._reader.source

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: str | None,
        mode: FramingMode,
    ) -> StdioChannel:
        """Spawn the server; a missing command is a WireError."""
        command = resolve_command(argv)
        try:
            process = await anyio.open_process(
                command, env=dict(env), cwd=cwd, start_new_session=True
            )
        except OSError as exc:
            raise WireError("spawn", f"cannot start {argv[0]}: {exc.strerror or exc}") from None
        return cls(process, mode)

    async def drain_stderr(self) -> None:
        """Keep only the stderr tail, however much the server writes."""
        stream = self.process.stderr
        if stream is None:
            return
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
            while True:
                chunk = await stream.receive(65536)
                self._stderr.extend(chunk)
                if len(self._stderr) > 2 * STDERR_TAIL_BYTES:
                    del self._stderr[: len(self._stderr) - STDERR_TAIL_BYTES]

    def stderr_tail(self) -> str:
        """Last 4 KiB of stderr, decoded with replacement and stripped."""
        return bytes(self._stderr[-STDERR_TAIL_BYTES:]).decode("utf-8", "replace").strip()

    async def send(self, message: dict[str, Any]) -> None:
        """Write in the locked dialect; NDJSON until the server has shown its own."""
        assert self.process.stdin is not None
        await self.process.stdin.send(encode_frame(message, self._reader.dialect or "ndjson"))

    async def receive(self) -> dict[str, Any] | None:
        """Next inbound frame (the framing lock happens inside the reader)."""
        message = await self._reader.read()
        if self._reader.dialect is not None:
            self.framing = self._reader.dialect
            self.framing_source = self._reader.source
        return message

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)

    async def aclose(self, urgent: bool = False) -> None:
        """Close stdin, wait 1.5 s, SIGTERM the group, wait 3 s, SIGKILL; never leaves a child.

        ``urgent`` (the bout was cancelled, or the server never got a request) skips the wait
        for a voluntary exit and allows SIGTERM only 0.5 s, so Ctrl+C returns promptly.
        """
        with anyio.CancelScope(shield=True):
            if self.process.stdin is not None:
                with contextlib.suppress(Exception):
                    await self.process.stdin.aclose()
            for signum, grace in URGENT_CLOSE_STEPS if urgent else CLOSE_STEPS:
                if signum is not None:
                    self._signal_group(signum)
                with anyio.move_on_after(grace):
                    await self.process.wait()
                if self.process.returncode is not None:
                    break
            # The leader may be gone while children it started linger in its group.
            self._signal_group(signal.SIGKILL)
            with anyio.move_on_after(2.0), contextlib.suppress(Exception):
                await self.process.aclose()
