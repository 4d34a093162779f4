"""Inbound stdio lines with a length cap, so one giant message cannot exhaust the server's memory.

A line longer than 1,048,576 characters is read through without being kept and handed on as a
line that is not JSON, which the SDK drops like any other unparseable message.
"""

from __future__ import annotations

from typing import BinaryIO

import anyio

MAX_LINE_CHARS = 1_048_576
_CHUNK = 1 << 16
OVERSIZED_LINE = "(line over 1,048,576 characters dropped)\n"


class CappedLines:
    """An async iterator of decoded lines from a binary stream, oversized lines replaced."""

    def __init__(self, raw: BinaryIO, max_chars: int = MAX_LINE_CHARS) -> None:
        self._raw = raw
        self._max_chars = max_chars
        # UTF-8 takes at most four bytes per character: a longer read can only be too long.
        self._max_bytes = max_chars * 4

    def __aiter__(self) -> CappedLines:
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(self._read_line)
        if line is None:
            raise StopAsyncIteration
        return line

    def _skip_rest_of_line(self) -> None:
        while True:
            chunk = self._raw.readline(_CHUNK)
            if not chunk or chunk.endswith(b"\n"):
                return

    def _read_line(self) -> str | None:
        data = self._raw.readline(self._max_bytes + 1)
        if not data:
            return None
        if len(data) > self._max_bytes:
            if not data.endswith(b"\n"):
                self._skip_rest_of_line()
            return OVERSIZED_LINE
        text = data.decode("utf-8", errors="replace")
        if len(text.rstrip("\r\n")) > self._max_chars:
            return OVERSIZED_LINE
        return text
