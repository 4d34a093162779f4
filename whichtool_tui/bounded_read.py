"""The one bounded reader for every file we are handed: configs, task sets, snapshots, run
reports, receipts, tapes and datasets.

One rule for all of them, so bad input is always one line and exit 2, never a traceback:

* only regular files are read: a folder, FIFO, socket or device (``/dev/zero``) is refused
  before it is opened for reading, so nothing blocks and nothing streams forever;
* at most ``max_bytes`` are read (16 MiB unless the kind allows more);
* the text must be UTF-8;
* JSON: no ``NaN``/``Infinity`` and no number that overflows to infinity, no integer over 4,300
  digits, nesting at most ``MAX_NESTING`` deep, and (``strict``) no duplicate keys.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable
from itertools import compress
from pathlib import Path
from typing import Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.redact import redact_paths

# Deeper than any file we write (a run report nests about 12 levels, a schema maybe 40), and
# far below the interpreter's recursion limit that every later recursive walk depends on.
MAX_NESTING = 256
# Python's own ceiling for int(str): json raises a bare ValueError past it.
MAX_INT_DIGITS = 4300


class InputFileError(WhichtoolError):
    """A file that could not be read; ``reason`` is a short tag (unreadable, too_large, json)."""

    def __init__(self, code: str, message: str, hint: str | None, reason: str) -> None:
        super().__init__(code, message, hint)
        self.reason = reason


def _code(prefix: str, kind: str, code: str | None) -> str:
    return code or f"{prefix}/{kind}"


def read_input_bytes(
    path: str | os.PathLike[str],
    *,
    prefix: str,
    what: str,
    hint: str | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
    code: str | None = None,
    shown: str | None = None,
    missing_code: str | None = None,
) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; anything else is a named refusal.

    ``prefix`` builds the error codes (``snapshot/too-large``) unless ``code`` fixes one.
    """
    target = Path(path).expanduser()
    label = shown if shown is not None else redact_paths(str(path))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it.
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(
            missing_code or _code(prefix, "not-found", code),
            f"Cannot read {what} {label}: no such file",
            hint or "Check the path.",
            "unreadable",
        ) from None
    except IsADirectoryError:
        raise _not_a_file(prefix, missing_code or code, what, label, "a folder", hint) from None
    except OSError as exc:
        raise _unreadable(prefix, code, what, label, exc) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _not_a_file(prefix, missing_code or code, what, label, "a folder", hint)
        raise _not_a_file(prefix, code, what, label, "a FIFO, socket or device", hint)
    with os.fdopen(fd, "rb") as stream:
        if info.st_size > max_bytes:
            raise _too_large(prefix, code, what, label, max_bytes, info.st_size)
        os.set_blocking(fd, True)
        try:
            data = stream.read(max_bytes + 1)
        except OSError as exc:
            raise _unreadable(prefix, code, what, label, exc) from None
    if len(data) > max_bytes:
        raise _too_large(prefix, code, what, label, max_bytes, len(data))
    return data


def _not_a_file(
    prefix: str, code: str | None, what: str, label: str, kind: str, hint: str | None
) -> InputFileError:
    return InputFileError(
        _code(prefix, "not-a-file", code),
        f"Cannot read {what} {label}: it is {kind}, which is not a regular file",
        hint or "Pass the path of a saved file.",
        "unreadable",
    )


def _too_large(
    prefix: str, code: str | None, what: str, label: str, limit: int, size: int
) -> InputFileError:
    return InputFileError(
        _code(prefix, "too-large", code),
        f"{what.capitalize()} {label} is {size:,} bytes, over the {limit:,}-byte limit "
        f"({_size(limit)})",
        f"A {what} this large is not one this version reads; check the path.",
        "too_large",
    )


def _unreadable(
    prefix: str, code: str | None, what: str, label: str, exc: OSError
) -> InputFileError:
    return InputFileError(
        _code(prefix, "unreadable", code),
        f"Cannot read {what} {label}: {exc.strerror or type(exc).__name__}",
        "Check the file's permissions.",
        "unreadable",
    )


def _size(limit: int) -> str:
    if limit % (1024 * 1024 * 1024) == 0:
        return f"{limit // (1024 * 1024 * 1024)} GiB"
    return f"{limit // (1024 * 1024)} MiB"


def decode_text(data: bytes, label: str, *, prefix: str, what: str, code: str | None = None) -> str:
    """UTF-8 (a leading BOM is dropped), naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            _code(prefix, "invalid-json", code),
            f"{what.capitalize()} {label} is not UTF-8 text (byte {exc.start})",
            "Save the file as UTF-8.",
            "json",
        ) from None


def read_input_text(path: str | os.PathLike[str], *, prefix: str, what: str, **kwargs: Any) -> str:
    """``read_input_bytes`` decoded as UTF-8."""
    code = kwargs.get("code")
    label = kwargs.get("shown") or redact_paths(str(path))
    data = read_input_bytes(path, prefix=prefix, what=what, **kwargs)
    return decode_text(data, label, prefix=prefix, what=what, code=code)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large to represent")
    return value


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


_CONTAINERS = frozenset((dict, list))
_is_container = _CONTAINERS.__contains__


def nesting_exceeds(value: Any, limit: int = MAX_NESTING) -> bool:
    """True when lists and mappings nest deeper than ``limit`` (walked level by level).

    Each level's children are picked out by C-level iterators (``compress`` over their
    types), not one Python step per child: a 100,000-event receipt has millions of values
    and the old one-tuple-per-child walk cost it a second before its first frame.
    Parsed JSON holds exact ``dict`` and ``list`` values, so their types are compared as is.
    """
    level: list[Any] = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        extend = below.extend
        for node in level:
            children = node.values() if type(node) is dict else node
            extend(compress(children, map(_is_container, map(type, children))))
        level = below
    return False


def parse_json_text(
    text: str | bytes,
    label: str,
    *,
    prefix: str,
    code: str | None = None,
    hint: str | None = None,
    strict: bool = True,
    loads: Callable[..., Any] = json.loads,
    check_nesting: bool = True,
) -> Any:
    """Parse JSON under the rules in the module docstring; every failure is one named line.

    ``check_nesting=False`` leaves the nesting rule to the caller, who must apply it
    (``too_deep``) to every part before anything walks it recursively.
    """
    error_code = _code(prefix, "invalid-json", code)
    try:
        value = loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            object_pairs_hook=_refuse_duplicate_keys if strict else None,
        )
    except json.JSONDecodeError as exc:
        raise InputFileError(
            error_code,
            f"{label} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            hint,
            "json",
        ) from None
    except RecursionError:
        raise _too_deep(error_code, label, hint) from None
    except ValueError as exc:
        reason = str(exc)
        if "digits" in reason:
            reason = f"a number has more than {MAX_INT_DIGITS:,} digits"
        raise InputFileError(
            error_code, f"{label} is not valid JSON: {reason}", hint, "json"
        ) from None
    if check_nesting and nesting_exceeds(value):
        raise _too_deep(error_code, label, hint)
    return value


def too_deep(label: str, *, prefix: str, hint: str | None = None) -> InputFileError:
    """The refusal of a file nested past ``MAX_NESTING``, for a nesting check done later."""
    return _too_deep(_code(prefix, "invalid-json", None), label, hint)


def _too_deep(code: str, label: str, hint: str | None) -> InputFileError:
    return InputFileError(
        code,
        f"{label} is nested too deeply (more than {MAX_NESTING} levels)",
        hint or "No file this tool writes nests that deeply; check the file.",
        "json",
    )
