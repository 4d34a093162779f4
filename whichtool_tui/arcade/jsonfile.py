"""Reading the arcade's JSON files (receipts, dataset inputs) with one-line errors for bad input.

Every failure is a WhichtoolError whose message names the file and the problem in plain words
(missing, a folder, too large, not UTF-8, not JSON at line N, nested too deeply) instead of
codec or parser internals, so `receipt`, `tape` and `dataset` all refuse garbage the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from whichtool_tui.errors import WhichtoolError

# A 100,000-event receipt is about 30 MB; anything past this is not a receipt we wrote.
MAX_JSON_FILE_BYTES = 512 * 1024 * 1024


class JsonFileError(WhichtoolError):
    """A file that could not be read as JSON; ``reason`` is a short tag for drop tallies."""

    def __init__(self, code: str, message: str, hint: str, reason: str) -> None:
        super().__init__(code, message, hint)
        self.reason = reason


def read_bytes(path: Path, prefix: str, hint: str) -> bytes:
    """The file's bytes, refusing a missing path, a folder, or a file over the size limit."""
    shown = str(path)
    try:
        size = path.stat().st_size
        is_file = path.is_file()
    except FileNotFoundError:
        raise JsonFileError(
            f"{prefix}/not-found", f"No such {prefix}: {shown}", "Check the path.", "unreadable"
        ) from None
    except OSError as exc:
        raise _unreadable(prefix, shown, exc) from None
    if not is_file:
        what = f"a folder, not a {prefix} file" if path.is_dir() else "not a regular file"
        raise JsonFileError(f"{prefix}/not-a-file", f"{shown} is {what}", hint, "unreadable")
    if size > MAX_JSON_FILE_BYTES:
        raise JsonFileError(
            f"{prefix}/too-large",
            f"{shown} is {size:,} bytes, over the {MAX_JSON_FILE_BYTES:,}-byte limit",
            hint,
            "too_large",
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise _unreadable(prefix, shown, exc) from None


def _unreadable(prefix: str, shown: str, exc: OSError) -> JsonFileError:
    return JsonFileError(
        f"{prefix}/unreadable",
        f"Cannot read {shown}: {exc.strerror or type(exc).__name__}",
        "Check the file's permissions.",
        "unreadable",
    )


def parse_json(raw: bytes, shown: str, prefix: str, hint: str) -> Any:
    """Decode UTF-8 and parse JSON, naming the line of the first syntax error."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise JsonFileError(
            f"{prefix}/invalid-json", f"{shown} is not UTF-8 text", hint, "json"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFileError(
            f"{prefix}/invalid-json",
            f"{shown} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            hint,
            "json",
        ) from None
    except RecursionError:
        raise JsonFileError(
            f"{prefix}/invalid-json", f"{shown} is not valid JSON (nested too deeply)", hint, "json"
        ) from None


def read_json_file(path: str | Path, prefix: str, hint: str) -> Any:
    """Read and parse one JSON file with the errors above."""
    target = Path(path)
    return parse_json(read_bytes(target, prefix, hint), str(target), prefix, hint)


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (raw receipts are read tolerantly)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """``value`` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def as_text(value: Any) -> str | None:
    """``value`` when it is a string, else None: a wrong type in a raw receipt reads as absent."""
    return value if isinstance(value, str) else None
