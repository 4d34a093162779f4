"""Run one pure computation in a forked child on the second core while the caller goes on.

Inspect's all-pairs overlap is independent of the token, annotation, header and most lint
passes, so on a machine with two cores the whole-process wall time drops by about the overlap's
share. A helper may also start before its input exists (``Fed``): it imports what the work
needs (numpy) while we make the input, which we then send it through a pipe.

Only where it is safe: Linux, at least two usable cores, one thread in the process (a
fork of a threaded process may copy a held lock). The child resets every signal to its default,
is killed by the kernel if we die (``PR_SET_PDEATHSIG``), sends its result back pickled through
a pipe and leaves with ``os._exit`` (no atexit hooks, no flushed buffers); we always reap it,
and kill it first when we give up early. If anything goes wrong the result is computed here.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, Self, TypeVar

from whichtool_tui.shutdown import owns_process

T = TypeVar("T")
A = TypeVar("A")

_PR_SET_PDEATHSIG = 1
_CHILD_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE")
_ONE_CORE = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""A helper is the second core's only worker: a math library it loads must not start more."""
_INPUT_PIPE_BYTES = 1 << 20
"""Room asked for in a fed helper's input pipe, so sending never waits for its warm-up."""


def second_core_free() -> bool:
    """True where a forked helper can run beside us: our own process (the real entry point,
    never a test or an embedding program), Linux, two usable cores, one thread."""
    if not owns_process() or sys.platform != "linux" or not hasattr(os, "fork"):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except OSError:
        return False
    return cores >= 2 and threading.active_count() == 1


class Pending(Generic[T]):
    """A computation started in a child (or, where that is not possible, deferred to here)."""

    def __init__(
        self, compute: Callable[[], T], *, fork: bool, fallback: Callable[[], T] | None = None
    ) -> None:
        """``fallback`` is what ``result`` gives where no child ran or it failed (by default
        the computation itself, run here)."""
        self._compute = compute if fallback is None else fallback
        started = _start(compute) if fork else None
        self._child: tuple[int, int] | None = started[:2] if started is not None else None
        self._forked = self._child is not None
        self._done = False
        self._value: T | None = None

    @property
    def forked(self) -> bool:
        """Whether a child is (or was) computing the result."""
        return self._forked

    def result(self) -> T:
        """The child's result (waiting for it), or the computation run here."""
        if not self._done:
            value = self._collect() if self._child is not None else None
            self._value = self._compute() if value is None else value[0]
            self._done = True
        return self._value  # type: ignore[return-value]  # set above: T may include None

    def close(self) -> None:
        """Kill and reap a child whose result was never collected (an error or a cancel)."""
        if self._child is None:
            return
        pid, read_fd = self._child
        self._child = None
        with contextlib.suppress(OSError):
            os.close(read_fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _collect(self) -> tuple[T] | None:
        assert self._child is not None
        pid, read_fd = self._child
        self._child = None
        try:
            with os.fdopen(read_fd, "rb") as source:
                payload = source.read()
        except BaseException:  # interrupted while waiting: the child's result is not wanted
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            raise
        finally:
            _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0 or not payload:
            return None
        import pickle

        value: T = pickle.loads(payload)
        return (value,)


class Fed(Pending[T], Generic[A, T]):
    """A helper forked before its input exists: it runs ``warm`` (imports what the work needs)
    while the caller makes the input, then ``compute(input)`` once ``feed`` has sent it.

    Call ``feed`` before ``result``; where no child runs (or it fails) the input is computed
    here, as with ``Pending``.
    """

    def __init__(
        self, warm: Callable[[], object], compute: Callable[[A], T], *, fork: bool
    ) -> None:
        self._given: list[A] = []
        self._input_fd: int | None = None
        super().__init__(lambda: compute(self._given[0]), fork=False)
        started = _start(compute, warm, fed=True) if fork else None
        if started is not None:
            pid, read_fd, self._input_fd = started
            self._child = (pid, read_fd)
            self._forked = True

    def feed(self, value: A) -> None:
        """Send the input to the child (kept here too, should it have to be computed here)."""
        self._given.append(value)
        if self._input_fd is None:
            return
        fd, self._input_fd = self._input_fd, None
        import pickle

        payload = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        with contextlib.suppress(OSError), os.fdopen(fd, "wb") as sink:
            sink.write(payload)  # a child already gone fails its result, computed here then

    def close(self) -> None:
        """Close the input pipe (a child still waiting for it ends), then as ``Pending``."""
        if self._input_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._input_fd)
            self._input_fd = None
        super().close()


def _start(
    compute: Callable[..., T], warm: Callable[[], object] | None = None, fed: bool = False
) -> tuple[int, int, int | None] | None:
    """Fork the child: (its pid, the pipe its result comes back on, the pipe its input goes
    out on when ``fed``), or None when it could not be forked."""
    parent = os.getpid()
    read_fd, write_fd = os.pipe()
    input_read, input_write = os.pipe() if fed else (None, None)
    if input_write is not None:
        with contextlib.suppress(OSError, AttributeError):  # Linux only; a full pipe just waits
            fcntl.fcntl(input_write, fcntl.F_SETPIPE_SZ, _INPUT_PIPE_BYTES)
    try:
        pid = os.fork()
    except OSError:
        for fd in (read_fd, write_fd, input_read, input_write):
            if fd is not None:
                os.close(fd)
        return None
    if pid == 0:  # the child: compute, send, leave without running any of our exit code
        code = 1
        try:
            os.close(read_fd)
            if input_write is not None:
                os.close(input_write)
            _as_plain_child(parent)
            if warm is not None:
                warm()
            import pickle

            if input_read is None:
                value = compute()
            else:
                with os.fdopen(input_read, "rb") as source:
                    given = source.read()
                value = compute(pickle.loads(given))  # never fed: loads fails, exit 1
            payload = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as sink:
                sink.write(payload)
            code = 0
        except BaseException:
            pass  # any failure means no result: the parent computes it itself
        finally:
            os._exit(code)
    os.close(write_fd)
    if input_read is not None:
        os.close(input_read)
    return pid, read_fd, input_write


def _as_plain_child(parent: int) -> None:
    """Default signal handling, one thread per math library, and death with the parent
    (checked once more after asking)."""
    for name in _CHILD_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    for variable in _ONE_CORE:
        os.environ[variable] = "1"
    try:
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)
