"""The one writer for files, and the check run on an output path before any paid work.

Regular files are written beside their target and renamed over it, so readers see either the
old file or the whole new one. A symlink is followed: the file it points to is replaced in its
own folder and the link stays. Terminals, ``/dev/null``, FIFOs and the process's own streams
(``/dev/stdout``, ``/dev/fd/N``) are written through, never replaced.

The output rule (``check_output_path``), run before anything is sent anywhere, refuses:
an output that is one of the command's inputs (the same file: a symlink or a hard link to it
counts), a directory, block devices and sockets, anything else under ``/proc``, ``/sys`` or
``/dev``, and, for a path a config file chose, a path outside the working folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once at import (single-threaded): os.umask can only be read by setting it.
_UMASK = _read_umask()
# Paths naming an open stream of this process: their symlinks lead to pipes and terminals,
# which must be written to, not resolved and replaced.
_STREAM_PREFIXES = ("/dev/", "/proc/")
# Kernel and device trees: nothing we write belongs there but the few names below.
_SYSTEM_TREES = ("/proc/", "/sys/", "/dev/")
# The process's own standard streams, however they are spelt.
_OWN_STREAMS = re.compile(r"/dev/(stdout|stderr|fd/[12])|/proc/(self|\d+)/fd/[12]")
# Linux character-device majors of terminals: tty/console (4, 5) and pseudo-terminals (136-143).
_TERMINAL_MAJORS = frozenset({4, 5, *range(136, 144)})


@dataclass(frozen=True)
class OutputPlan:
    """How a path will be written: replaced atomically at ``path``, or written through."""

    path: Path
    mode: Literal["replace", "through"]
    existing_mode: int | None = None


def _unwritable(shown: str, reason: str, hint: str | None = None) -> WhichtoolError:
    return WhichtoolError(
        "output/unwritable",
        f"Cannot write {shown}: {reason}",
        hint or "Check that the folder exists and is writable.",
    )


def plan_output(path: str | os.PathLike[str]) -> OutputPlan:
    """Decide how ``path`` is written, refusing directories, block devices and sockets."""
    given = Path(path)
    shown = redact_paths(str(given))
    try:
        info = os.stat(given)  # follows symlinks
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _unwritable(shown, exc.strerror or str(exc)) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise WhichtoolError(
            "output/is-directory",
            f"Cannot write {shown}: it is a directory",
            "Name a file inside it, for example " + redact_paths(str(given / "report.json")),
        )
    if info is not None and (stat.S_ISBLK(info.st_mode) or stat.S_ISSOCK(info.st_mode)):
        raise _unwritable(shown, "it is a block device or a socket", "Name a regular file.")
    if info is not None and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
        return OutputPlan(given, "through")
    if str(given).startswith(_STREAM_PREFIXES) and info is not None:
        return OutputPlan(given, "through")  # e.g. /dev/stdout redirected into a regular file
    resolved = Path(os.path.realpath(given))
    existing = stat.S_IMODE(info.st_mode) if info is not None else None
    return OutputPlan(resolved, "replace", existing)


def check_output_path(
    path: str | os.PathLike[str],
    *,
    create_folders: bool = True,
    inputs: Iterable[str | os.PathLike[str]] = (),
    from_config: bool = False,
) -> OutputPlan:
    """Fail now, before any paid work, if ``path`` breaks the output rule (module docstring)
    or could not be written later. ``inputs`` are the files the command reads; ``from_config``
    says a config file, not the person, chose ``path``."""
    refuse_unsafe_output(path, inputs=inputs, from_config=from_config)
    shown = redact_paths(str(path))
    plan = plan_output(path)
    if plan.mode == "through":
        if not os.access(plan.path, os.W_OK):
            raise _unwritable(shown, "permission denied")
        return plan
    folder = plan.path.parent
    probe = folder
    while not probe.exists():
        if not create_folders:
            raise _unwritable(
                shown,
                f"the folder {redact_paths(str(folder))} does not exist",
                "Create the folder first, or choose a path in an existing one.",
            )
        probe = probe.parent
    if not probe.is_dir():
        raise _unwritable(shown, f"{redact_paths(str(probe))} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise _unwritable(shown, f"the folder {redact_paths(str(probe))} is not writable")
    _probe_new_entry(probe, shown, make_folder=probe != folder)
    return plan


def refuse_unsafe_output(
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    from_config: bool = False,
) -> None:
    """The output rule alone (no writability probe): for an output folder, and as the first
    step of ``check_output_path``."""
    shown = redact_paths(str(path))
    _refuse_system_path(path, shown)
    _refuse_an_input(path, shown, inputs)
    if from_config:
        _refuse_outside_working_folder(path, shown)


def _refuse_system_path(path: str | os.PathLike[str], shown: str) -> None:
    """Under /proc, /sys or /dev only a terminal, /dev/null and our own streams are outputs."""
    given = os.path.abspath(os.fspath(path))
    if not given.startswith(_SYSTEM_TREES) and not os.path.realpath(given).startswith(
        _SYSTEM_TREES
    ):
        return
    if given == os.devnull or _OWN_STREAMS.fullmatch(given):
        return
    with contextlib.suppress(OSError):
        info = os.stat(given)
        if stat.S_ISCHR(info.st_mode) and os.major(info.st_rdev) in _TERMINAL_MAJORS:
            return
    raise WhichtoolError(
        "output/system-path",
        f"Cannot write {shown}: it is under /proc, /sys or /dev and is not a terminal or /dev/null",
        "Name a regular file in a folder of yours.",
    )


def _same_file(first: os.stat_result, second: os.stat_result) -> bool:
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _refuse_an_input(
    path: str | os.PathLike[str], shown: str, inputs: Iterable[str | os.PathLike[str]]
) -> None:
    """The output must not be one of the inputs: same device and inode, so a symlink or a hard
    link to an input is the input."""
    try:
        target = os.stat(path)
    except OSError:
        return  # nothing there yet: it cannot be an input
    if not stat.S_ISREG(target.st_mode):
        return
    for source in inputs:
        try:
            if _same_file(target, os.stat(os.path.expanduser(os.fspath(source)))):
                raise WhichtoolError(
                    "output/is-input",
                    f"Cannot write {shown}: it is the input {redact_paths(os.fspath(source))}"
                    " (the same file), which the output would overwrite",
                    "Write the output to another path.",
                )
        except OSError:
            continue


def _refuse_outside_working_folder(path: str | os.PathLike[str], shown: str) -> None:
    """A config file may only choose outputs inside the folder the command runs in."""
    folder = os.path.realpath(os.getcwd())
    resolved = os.path.realpath(os.path.abspath(os.fspath(path)))
    if os.path.commonpath([folder, resolved]) != folder:
        raise WhichtoolError(
            "output/outside-working-folder",
            f"Cannot write {shown}: the config chose a path outside the working folder",
            "Give that path on the command line (--out) if you mean it, or choose one inside "
            "this folder in the config.",
        )


def _probe_new_entry(folder: Path, shown: str, *, make_folder: bool) -> None:
    """Create and remove a scratch entry in ``folder``: the permission bits say yes to root on
    ``/proc`` or on a read-only mount, and only the file system itself knows it will say no."""
    try:
        if make_folder:  # the output's folders will be made here
            os.rmdir(tempfile.mkdtemp(prefix=".whichtool-probe-", dir=folder))
        else:
            handle, name = tempfile.mkstemp(prefix=".whichtool-probe-", dir=folder)
            os.close(handle)
            os.unlink(name)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise _unwritable(
            shown, f"the folder {redact_paths(str(folder))} takes no new files ({reason})"
        ) from None


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes | list[bytes | memoryview],
    *,
    create_folders: bool = True,
) -> Path:
    """Write ``data`` to ``path`` (see the module docstring for links, devices and folders).

    Text is UTF-8; a lone surrogate (a server may send one in a name) cannot be, and is written
    as its ``\\udXXX`` escape, the spelling the JSON writer gives it too. A list of byte pieces
    is written piece by piece (a large report is never joined into one more copy)."""
    if isinstance(data, list):
        pieces = data
    else:
        pieces = [data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data]
    plan = plan_output(path)
    shown = redact_paths(str(path))
    if plan.mode == "through":
        try:
            with open(plan.path, "wb") as stream:
                stream.writelines(pieces)
        except OSError as exc:
            raise _unwritable(shown, exc.strerror or str(exc)) from None
        return Path(path)
    target = plan.path
    folder = target.parent
    try:
        if create_folders:
            folder.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _unwritable(shown, exc.strerror or str(exc)) from None
    with track_temp_file(temp_name):
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.writelines(pieces)
            # mkstemp creates 0600: keep the replaced file's mode, else what open() would give.
            mode = plan.existing_mode if plan.existing_mode is not None else 0o666 & ~_UMASK
            os.chmod(temp_name, mode)
            os.replace(temp_name, target)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
            if isinstance(exc, OSError):
                raise _unwritable(shown, exc.strerror or str(exc)) from None
            raise
    return Path(path)


# Temp files being written right now: a signal handler removes them before the process exits.
_LIVE_TEMP_FILES: set[str] = set()


@contextlib.contextmanager
def track_temp_file(name: str) -> Iterator[None]:
    """Register ``name`` as in progress for the duration of the block."""
    _LIVE_TEMP_FILES.add(name)
    try:
        yield
    finally:
        _LIVE_TEMP_FILES.discard(name)


def remove_live_temp_files() -> None:
    """Delete every temp file still being written (called on SIGTERM/SIGHUP/SIGINT exit)."""
    for name in list(_LIVE_TEMP_FILES):
        with contextlib.suppress(OSError):
            os.unlink(name)
        _LIVE_TEMP_FILES.discard(name)
