"""Start an MCP server as a child process, and bridge its stdio to SDK message streams.

The launcher is separate from the transport so other transports (a recording or framing one) can
reuse it: it runs the command without a shell, with an allowlisted environment, in its own process
group, and keeps the last lines of stderr for error hints. Shutdown closes stdin, waits, then
terminates and finally kills the whole group, so no server outlives us.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter
from pydantic import ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_BYTES, byte_size
from whichtool_tui.mcp_client.children import open_child, stop_process
from whichtool_tui.mcp_client.command import child_environment
from whichtool_tui.mcp_client.faults import FaultBox
from whichtool_tui.text_safety import redact_message, sanitize_text

MAX_LINE_BYTES = MAX_INPUT_BYTES
STDERR_TAIL_LINES = 5
STDIN_CLOSE_GRACE = 2.0
TERMINATE_GRACE = 2.0
_STDERR_LINE_CHARS = 300


@dataclass
class StdioChild:
    """A running server process and the tail of what it wrote on stderr."""

    process: anyio.abc.Process
    argv: list[str]
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=STDERR_TAIL_LINES))

    @property
    def pid(self) -> int:
        """The child's process id (also its process group id)."""
        return self.process.pid

    def stderr_hint(self) -> str | None:
        """The last stderr lines, joined for an error hint, or None when it said nothing."""
        lines = [line for line in self.stderr_tail if line.strip()]
        if not lines:
            return None
        return "Server stderr (last lines): " + " | ".join(lines)


def _program_name(argv: Sequence[str]) -> str:
    return redact_message(Path(argv[0]).name or argv[0])


async def launch_stdio(
    argv: Sequence[str],
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> StdioChild:
    """Start ``argv`` with piped stdio in a new process group; errors are named, not raised raw."""
    if cwd is not None and not await anyio.Path(cwd).is_dir():
        raise WhichtoolError(
            "target/invalid-cwd",
            f"The stdio working directory does not exist: {redact_message(str(cwd))}",
            "Fix `target.cwd` in the config.",
        )
    try:
        process = await open_child(argv, child_environment(env), cwd)
    except FileNotFoundError:
        raise WhichtoolError(
            "stdio/command-not-found",
            f"Command not found: {_program_name(argv)}",
            "Check the spelling, or give the full path. PATH is passed to the server, "
            "other variables only through config `target.env`.",
        ) from None
    except PermissionError:
        raise WhichtoolError(
            "stdio/command-not-executable",
            f"Command is not executable: {_program_name(argv)}",
            "Check the file's permissions, or run it through its interpreter.",
        ) from None
    except (OSError, ValueError) as exc:
        raise WhichtoolError(
            "stdio/spawn-failed",
            f"Cannot start {_program_name(argv)}: {redact_message(str(exc))}",
            None,
        ) from None
    return StdioChild(process=process, argv=list(argv))


async def drain_stderr(child: StdioChild) -> None:
    """Read the child's stderr to the end, keeping its last lines; the pipe never fills up."""
    stream = child.process.stderr
    if stream is None:
        return
    pending = b""
    with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
        while True:
            chunk = await stream.receive()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                text = line.decode("utf-8", "replace").rstrip("\r")
                child.stderr_tail.append(sanitize_text(text[:_STDERR_LINE_CHARS]))
            if len(pending) > 64 * 1024:
                pending = pending[-_STDERR_LINE_CHARS:]
    if pending.strip():
        text = pending.decode("utf-8", "replace")
        child.stderr_tail.append(sanitize_text(text[:_STDERR_LINE_CHARS]))


async def stop_child(
    child: StdioChild,
    stdin_grace: float = STDIN_CLOSE_GRACE,
    terminate_grace: float = TERMINATE_GRACE,
) -> None:
    """Close stdin, wait, then SIGTERM and finally SIGKILL the child's group and its tree."""
    process = child.process
    await stop_process(
        process,
        ((None, stdin_grace), (signal.SIGTERM, terminate_grace), (signal.SIGKILL, terminate_grace)),
    )
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, anyio.BrokenResourceError):
                await stream.aclose()


def _parse_line(line: bytes, program: str) -> SessionMessage | WhichtoolError | None:
    text = line.rstrip(b"\r")
    if not text.strip():
        return None
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValidationError:
        pass
    shown = sanitize_text(text[:80].decode("utf-8", "replace"))
    try:
        json.loads(text)
    except ValueError:
        return WhichtoolError(
            "stdio/invalid-json",
            f"{program} wrote a line that is not JSON on stdout: {shown!r}",
            "An MCP stdio server must write only JSON-RPC messages on stdout; logs belong on "
            "stderr.",
        )
    return WhichtoolError(
        "mcp/invalid-message",
        f"{program} wrote JSON that is not a JSON-RPC message: {shown!r}",
        "Each stdout line must be one JSON-RPC 2.0 request, notification or response.",
    )


async def _pump_stdout(
    child: StdioChild,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    faults: FaultBox,
) -> None:
    stream = child.process.stdout
    assert stream is not None
    program = _program_name(child.argv)
    pending: list[bytes] = []
    pending_size = 0
    async with sink:
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
            while True:
                pieces = (await stream.receive()).split(b"\n")
                # Join only when a line ends: re-scanning a growing buffer is quadratic.
                pending.append(pieces[0])
                pending_size += len(pieces[0])
                lines: list[bytes] = []
                if len(pieces) > 1:
                    lines = [b"".join(pending), *pieces[1:-1]]
                    pending = [pieces[-1]]
                    pending_size = len(pieces[-1])
                if pending_size > MAX_LINE_BYTES or any(len(x) > MAX_LINE_BYTES for x in lines):
                    faults.record(
                        WhichtoolError(
                            "mcp/oversize",
                            f"{program} sent a message larger than {byte_size(MAX_LINE_BYTES)}",
                            "A tools/list response this large is not usable; check the server.",
                        )
                    )
                    break
                parsed_lines = [_parse_line(line, program) for line in lines]
                fault = next((p for p in parsed_lines if isinstance(p, WhichtoolError)), None)
                if fault is not None:
                    faults.record(fault)
                    break
                for parsed in parsed_lines:
                    if isinstance(parsed, SessionMessage):
                        await sink.send(parsed)
    # After a fault the session is told (the sink is closed); keep the pipe flowing so the
    # server is not stuck writing and can exit when its stdin closes.
    with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
        while True:
            await stream.receive()


async def _pump_stdin(
    child: StdioChild, source: MemoryObjectReceiveStream[SessionMessage], faults: FaultBox
) -> None:
    stream = child.process.stdin
    assert stream is not None
    async with source:
        try:
            async for message in source:
                payload = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await stream.send(payload.encode("utf-8") + b"\n")
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            return


@contextlib.asynccontextmanager
async def stdio_transport(
    child: StdioChild, faults: FaultBox
) -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    """Newline-delimited JSON-RPC over the child's pipes, as the stream pair the SDK expects.

    A bad line or an oversize message ends the stream and leaves its reason in ``faults``.
    The child is stopped when the context exits, whatever happened inside.
    """
    to_session, session_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    session_writes, from_session = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(drain_stderr, child)
        tasks.start_soon(_pump_stdout, child, to_session, faults)
        tasks.start_soon(_pump_stdin, child, from_session, faults)
        try:
            async with session_reads, session_writes:
                yield session_reads, session_writes
        finally:
            await stop_child(child)
            tasks.cancel_scope.cancel()
