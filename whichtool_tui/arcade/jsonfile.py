"""Reading the arcade's JSON files (receipts, dataset inputs) with one-line errors for bad input.

Every failure is a WhichtoolError whose message names the file and the problem in plain words
(missing, a folder, too large, not UTF-8, not JSON at line N, nested too deeply) instead of
codec or parser internals, so `receipt`, `tape` and `dataset` all refuse garbage the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from whichtool_tui.bounded_read import (
    InputFileError,
    decode_text,
    parse_json_text,
    read_input_bytes,
)

# A 100,000-event receipt is about 30 MB; anything past this is not a receipt we wrote.
MAX_JSON_FILE_BYTES = 512 * 1024 * 1024


# A file this reader could not take; ``reason`` tags drop tallies (unreadable, too_large, json).
JsonFileError = InputFileError


def read_bytes(path: Path, prefix: str, hint: str) -> bytes:
    """The file's bytes, refusing a missing path, a folder, a FIFO or device, or an oversize one."""
    return read_input_bytes(
        path, prefix=prefix, what=prefix, hint=hint, max_bytes=MAX_JSON_FILE_BYTES, shown=str(path)
    )


def parse_json(raw: bytes, shown: str, prefix: str, hint: str) -> Any:
    """Decode UTF-8 and parse JSON under the bounded reader's rules (duplicate keys tolerated:
    receipts are large and read tolerantly)."""
    text = decode_text(raw, shown, prefix=prefix, what=prefix)
    return parse_json_text(text, shown, prefix=prefix, hint=hint, strict=False)


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
