"""Where a headless command's result goes: ``--out FILE`` (said on stderr) or stdout."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable


def deliver(render: Callable[[bool], str], out: str | None, noun: str, color: bool | None) -> None:
    """Write ``render(False)`` to ``out`` and say so, or print ``render(colour)`` to stdout.

    ``noun`` names what was written (``json report``, ``markdown diff``); files never get colour.
    """
    from whichtool_tui.files import write_atomic
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.reports.colour import use_colour

    if out:
        write_atomic(out, render(False))
        sys.stderr.write(f"Wrote {noun} to {redact_paths(out)}\n")
    else:
        text = render(use_colour(color, sys.stdout))
        if text[:1] in ("{", "["):  # a JSON document: every other format starts otherwise
            from whichtool_tui.text_safety import json_for_stream

            text = json_for_stream(text, sys.stdout)
        sys.stdout.write(text)
        sys.stdout.flush()


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
