"""The open use case: recognise a saved file (report, receipt, tape, task set, snapshot) so a
face can show it on the right screen, or describe it in a few lines without a terminal UI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from whichtool_tui.artefacts import Artefact


def open_artefact(path: str | Path, wire_checked_to: int | None = None) -> Artefact:
    """Read, parse and classify one file; every failure is a one-line WhichtoolError.

    ``wire_checked_to``: a receipt's wire events from there on are checked later, by the
    screen that loads them (see ``artefacts.load_artefact``).
    """
    from whichtool_tui.artefacts import load_artefact

    return load_artefact(path, wire_checked_to)


def wire_nesting_error(wire: list[Any], start: int, end: int, shown: str) -> str | None:
    """The refusal, as text, when a receipt's wire events ``wire[start:end]`` nest too deeply
    (for a screen that loads a big receipt's rows after its first frame)."""
    from whichtool_tui.artefacts import wire_nesting_error as check

    return check(wire, start, end, shown)


def receipt_artefact(path: str | None, data: dict[str, Any]) -> Artefact:
    """A receipt already read (or a bout not saved yet) as the artefact the Bout screen opens."""
    from whichtool_tui.artefacts import Artefact

    return Artefact(
        path=path or "(unsaved bout)", kind="receipt", schema=data.get("schema_id"), data=data
    )


def summarize_artefact(artefact: Artefact) -> list[tuple[str, str]]:
    """A handful of (label, value) facts about the file, safe to show."""
    from whichtool_tui.artefacts import summarize

    return summarize(artefact)


def describe_artefact(artefact: Artefact) -> str:
    """What the file is and its headline figures, as plain lines (``open --no-ui``)."""
    from whichtool_tui.artefacts import describe

    return describe(artefact)
