"""A warm parent for the bundled fixture: import it once, fork one fresh server per atom.

Each atom of a bout starts its own fixture; forking a warm parent saves each of them the
interpreter start and the imports. The
zygote (``python -m whichtool_tui.arcade.fixture --zygote-fd N``) imports everything once, then
for each request received over a Unix socket (arguments, environment, and three pipe ends passed
as file descriptors) forks a child that becomes a brand-new fixture process on those pipes, in
its own session. Each atom still gets its own process and its own state; only the imports are
shared. POSIX only; the bout falls back to plain spawning elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from typing import Any

MAX_REQUEST_BYTES = 1 << 20
_PID_BYTES = 8


def available() -> bool:
    """Fork and fd passing exist here."""
    return hasattr(os, "fork") and hasattr(socket, "send_fds")


def warm_imports() -> None:
    """Import what a fixture child needs, so forked children start with it loaded."""
    import argparse  # noqa: F401

    from whichtool_tui.arcade import fixture, fixture_rpc  # noqa: F401


def _std_streams() -> None:
    """Fresh sys.stdin/stdout/stderr over fds 0-2 (a forking host may have replaced them)."""
    import io

    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)))
    sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)))


def serve(control_fd: int) -> int:
    """The zygote loop: one fork per request until the control socket closes."""
    from whichtool_tui.arcade import fixture
    from whichtool_tui.gc_phases import collect_in_child, warm_fork_parent

    warm_fork_parent(warm_imports)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(control, MAX_REQUEST_BYTES, 3)
        except OSError:
            data, fds = b"", []
        if not data or len(fds) != 3:
            # The bout is done with us: skip interpreter teardown, there is nothing to flush.
            os._exit(0)
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                control.close()
                collect_in_child()
                os.setsid()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for target, fd in zip((0, 1, 2), fds, strict=True):
                    os.dup2(fd, target)
                for fd in fds:
                    os.close(fd)
                _std_streams()
                os.environ.clear()
                os.environ.update(request["env"])
                code = fixture.main(request["args"])
            finally:
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                os._exit(code)
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            control.sendall(pid.to_bytes(_PID_BYTES, "big"))


class _PipeEnd:
    """One non-blocking end of a pipe, closed once."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd: int | None = fd

    async def aclose(self) -> None:
        """Close the fd once (for a write end, the child then sees EOF on stdin)."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)


class PipeReader(_PipeEnd):
    """An async byte stream over a non-blocking pipe read end."""

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """The next chunk; EndOfStream at EOF."""
        import anyio

        while True:
            if self.fd is None:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self.fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self.fd)
                continue
            if not data:
                raise anyio.EndOfStream
            return data


class _PipeWriter(_PipeEnd):
    """An async byte sink over a non-blocking pipe write end."""

    async def send(self, data: bytes) -> None:
        """Write everything, waiting when the pipe is full."""
        import anyio

        view = memoryview(data)
        while view:
            if self.fd is None:
                raise anyio.ClosedResourceError
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                await anyio.wait_writable(self.fd)
                continue
            except BrokenPipeError:
                raise anyio.BrokenResourceError from None
            view = view[written:]


class ForkedProcess:
    """The parts of an anyio Process that StdioChannel uses, for a zygote's child."""

    def __init__(self, zygote: Zygote, index: int, stdin: int, stdout: int, stderr: int) -> None:
        self._zygote = zygote
        self._index = index
        self.stdin = _PipeWriter(stdin)
        self.stdout = PipeReader(stdout)
        self.stderr = PipeReader(stderr)
        self._returncode: int | None = None

    @property
    def returncode(self) -> int | None:
        """0 once the child is gone, else None: read afresh, as the kill sequence polls it.

        The zygote (its parent) reaps it, so the exit status itself is not ours to read.
        """
        if self._returncode is None and not self._alive():
            self._returncode = 0
        return self._returncode

    @returncode.setter
    def returncode(self, value: int | None) -> None:
        self._returncode = value

    @property
    def pid(self) -> int:
        """The child's pid (read from the zygote on first use)."""
        return self._zygote.pid_of(self._index)

    @property
    def startup_pid(self) -> int:
        """Whose process tree shows the start-up: the zygote's (the child is forked from it,
        already warm). Known at once, where ``pid`` blocks until the zygote has forked."""
        return self._zygote.process_pid

    def _alive(self) -> bool:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except (PermissionError, OSError):
            return True
        return True

    async def wait(self) -> int:
        """Until the child is gone (the zygote, its parent, reaps it): a pidfd, else polling."""
        import anyio

        if self.returncode is None:
            try:
                pidfd = os.pidfd_open(self.pid)
            except (AttributeError, OSError):
                pidfd = None
            if pidfd is not None:
                try:
                    await anyio.wait_readable(pidfd)  # readable once the process has exited
                finally:
                    os.close(pidfd)
                self.returncode = 0
        while self.returncode is None:
            if not self._alive():
                self.returncode = 0
                break
            await anyio.sleep(0.02)
        return self.returncode

    async def aclose(self) -> None:
        """Close our pipe ends."""
        for stream in (self.stdin, self.stdout, self.stderr):
            await stream.aclose()


class _ForkedParent:
    """The zygote forked from this process: the parts of Popen that Zygote uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def wait(self, timeout: float) -> int:
        """Reap the zygote, or raise TimeoutExpired after ``timeout`` seconds."""
        _await_exit(self.pid, timeout)
        done, status = os.waitpid(self.pid, os.WNOHANG)
        if done == 0:
            raise subprocess.TimeoutExpired(["zygote"], timeout)
        return os.waitstatus_to_exitcode(status)


def can_fork_here() -> bool:
    """This process may fork a zygote itself: POSIX, and no other thread that could hold a lock."""
    import threading

    return available() and threading.active_count() == 1


def _close_all_but(keep: int) -> None:
    """Close every fd above 2 except ``keep`` (listed from /proc where it exists)."""
    try:
        open_fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        os.closerange(3, keep)
        os.closerange(keep + 1, os.sysconf("SC_OPEN_MAX"))
        return
    for fd in open_fds:
        if fd > 2 and fd != keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _fork_zygote(ours: socket.socket, theirs: socket.socket) -> _ForkedParent:
    """Fork this process (its imports already done) into the zygote serving ``theirs``."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    pid = os.fork()
    if pid == 0:  # the zygote: never return into the caller's code
        try:
            os.setsid()
            ours.close()
            keep = theirs.fileno()
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            _close_all_but(keep)  # nothing of the host's (files, pipes, sockets) stays open
            serve(keep)
        finally:
            os._exit(1)
    return _ForkedParent(pid)


class Zygote:
    """The bout's handle on one warm fixture parent.

    By default a fresh interpreter that imports the SDK itself (started early, its imports
    overlap ours); with ``fork_here`` a fork of this process after its own SDK import, so the
    SDK is imported once per bout instead of twice.
    """

    def __init__(self, fork_here: bool = False) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        self._process: Any
        if fork_here:
            self._process = _fork_zygote(ours, theirs)
        else:
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "whichtool_tui.arcade.fixture",
                    "--zygote-fd",
                    str(theirs.fileno()),
                ],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        theirs.close()
        self._pids: list[int] = []
        self._requests = 0

    def spawn(self, args: list[str], env: dict[str, str]) -> ForkedProcess:
        """Ask for one fresh fixture on new pipes; does not wait for the zygote to be ready."""
        from whichtool_tui.mcp_client.recorder import WireError

        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        payload = json.dumps({"args": args, "env": env}).encode("utf-8")
        try:
            socket.send_fds(self._control, [payload], [stdin_r, stdout_w, stderr_w])
        except OSError as exc:
            for fd in (stdin_r, stdin_w, stdout_r, stdout_w, stderr_r, stderr_w):
                os.close(fd)
            raise WireError("spawn", f"the fixture zygote is gone: {exc}") from None
        for fd in (stdin_r, stdout_w, stderr_w):
            os.close(fd)
        index = self._requests
        self._requests += 1
        return ForkedProcess(self, index, stdin_w, stdout_r, stderr_r)

    @property
    def process_pid(self) -> int:
        """The zygote process's own pid."""
        return int(self._process.pid)

    def pid_of(self, index: int) -> int:
        """The pid of the index-th child, reading replies in order as needed."""
        from whichtool_tui.mcp_client.recorder import WireError

        while len(self._pids) <= index:
            reply = self._control.recv(_PID_BYTES)
            if len(reply) != _PID_BYTES:
                raise WireError("spawn", "the fixture zygote died before forking")
            self._pids.append(int.from_bytes(reply, "big"))
        return self._pids[index]

    def close(self) -> None:
        """Close the control socket (the zygote exits), then make sure it did."""
        with contextlib.suppress(OSError):
            self._control.close()
        _await_exit(self._process.pid, 3.0)  # Popen.wait(timeout) would poll in sleeps
        try:
            self._process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait(timeout=3)


def _await_exit(pid: int, timeout: float) -> None:
    """Block until ``pid`` exits or ``timeout`` passes, woken by a pidfd where there is one."""
    import select

    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)


def start_zygote(fork_here: bool = False) -> Zygote | None:
    """A warm fixture parent where fork and fd passing exist, else None (plain spawning)."""
    return Zygote(fork_here) if available() else None


def zygote_main(argv: list[str]) -> int | None:
    """Run the zygote when ``argv`` asks for it; None otherwise."""
    if len(argv) == 2 and argv[0] == "--zygote-fd" and argv[1].isdigit():
        return serve(int(argv[1]))
    return None


def channel_for(process: Any, mode: Any) -> Any:
    """A StdioChannel over a forked child."""
    from whichtool_tui.mcp_client.recorder import StdioChannel

    return StdioChannel(process, mode)
