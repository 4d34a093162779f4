"""Where a headless command's result goes: ``--out FILE`` (said on stderr) or stdout."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TextIO


def deliver(
    render: Callable[[bool], str | list[bytes | memoryview]],
    out: str | None,
    noun: str,
    color: bool | None,
) -> None:
    """Write ``render(False)`` to ``out`` and say so, or print ``render(colour)`` to stdout.

    ``noun`` names what was written (``json report``, ``markdown diff``); files never get colour.
    A renderer may give a JSON document as UTF-8 pieces: they are written one after another.
    """
    from whichtool_tui.files import write_atomic
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.reports.colour import use_colour

    if out:
        write_atomic(out, render(False))
        sys.stderr.write(f"Wrote {noun} to {redact_paths(out)}\n")
    else:
        rendered = render(use_colour(color, sys.stdout))
        if isinstance(rendered, list) and _takes_utf8_bytes(sys.stdout):
            sys.stdout.flush()
            sys.stdout.buffer.writelines(rendered)
            sys.stdout.buffer.flush()
            return
        text = rendered if isinstance(rendered, str) else b"".join(rendered).decode("utf-8")
        if text[:1] in ("{", "["):  # a JSON document: every other format starts otherwise
            from whichtool_tui.text_safety import json_for_stream

            text = json_for_stream(text, sys.stdout)
        sys.stdout.write(text)
        sys.stdout.flush()


def _takes_utf8_bytes(stream: TextIO) -> bool:
    """Whether JSON bytes can go to ``stream``'s buffer as they are: a UTF-8 pipe or file (a
    terminal gets the display-safe text instead)."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    isatty = getattr(stream, "isatty", None)
    return (
        hasattr(stream, "buffer") and encoding == "utf8" and not (isatty is not None and isatty())
    )


def deliver_extra_formats(
    render: Callable[[str], str], base: str | None, formats: Iterable[str], noun: str
) -> None:
    """Config ``report.formats``: each format written to ``<base>.<extension>``, and said."""
    if base is None:
        return
    from whichtool_tui.files import write_atomic
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.reports.inspect_json import FORMAT_EXTENSIONS

    for extra in formats:
        path = f"{base}.{FORMAT_EXTENSIONS[extra]}"
        write_atomic(path, render(extra))
        sys.stderr.write(f"Wrote {extra} {noun} to {redact_paths(path)}\n")
