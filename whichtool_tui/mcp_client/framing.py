"""Stdio framing for the arcade: NDJSON or Content-Length, detected once and then locked.

Also the framed child process itself (``StdioChannel``): spawned in its own session, stderr
reduced to its tail, and shut down stdin-close, SIGTERM, SIGKILL so no child outlives a bout.

MCP stdio is NDJSON, but some servers speak LSP-style ``Content-Length`` frames. Under ``auto``
the first non-blank inbound line decides the dialect and every later frame must use it; a frame
in the other dialect is a named error, never skipped. Frames are capped at 16 MiB.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import anyio.abc

from whichtool_tui.mcp_client.children import open_child, stop_process
from whichtool_tui.mcp_client.frames import FRAMING_MODES as FRAMING_MODES
from whichtool_tui.mcp_client.frames import MAX_FRAME_BYTES as MAX_FRAME_BYTES
from whichtool_tui.mcp_client.frames import MAX_LINE_BYTES as MAX_LINE_BYTES
from whichtool_tui.mcp_client.frames import Dialect as Dialect
from whichtool_tui.mcp_client.frames import FrameReader as FrameReader
from whichtool_tui.mcp_client.frames import FramingError as FramingError
from whichtool_tui.mcp_client.frames import FramingMode as FramingMode
from whichtool_tui.mcp_client.frames import encode_frame as encode_frame

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
            process = await open_child(command, env, cwd)
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

    async def aclose(self, urgent: bool = False) -> None:
        """Close stdin, wait 1.5 s, SIGTERM the group, wait 3 s, SIGKILL; never leaves a child.

        ``urgent`` (the bout was cancelled, or the server never got a request) skips the wait
        for a voluntary exit and allows SIGTERM only 0.5 s, so Ctrl+C returns promptly.
        """
        await stop_process(self.process, URGENT_CLOSE_STEPS if urgent else CLOSE_STEPS)
        with anyio.CancelScope(shield=True):
            with anyio.move_on_after(2.0), contextlib.suppress(Exception):
                await self.process.aclose()
