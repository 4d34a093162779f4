"""The open use case: recognise a saved file (report, receipt, tape, task set, snapshot) so a
face can show it on the right screen, or describe it in a few lines without a terminal UI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from whichtool_tui.arcade.timeline import TapeHeader, TapeView, TimelineRow
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


def receipt_tape(data: dict[str, Any]) -> TapeView:
    """The allowlisted, score-free tape view of a receipt (its rows are built as read)."""
    from whichtool_tui.arcade.timeline import TapeView

    return TapeView(data)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def read_tape_file(
    data: dict[str, Any],
) -> tuple[TapeHeader, list[TimelineRow], list[dict[str, Any]]]:
    """A saved tape file (already score-free) as its header, its rows and its facts."""
    from whichtool_tui.arcade.timeline import TapeAtom, TapeHeader, TimelineRow

    atoms = tuple(
        TapeAtom(
            id=str(a.get("id")), task_tool=_text(a.get("task_tool")), holdout=bool(a.get("holdout"))
        )
        for a in data.get("atoms") or []
        if isinstance(a, dict)
    )
    header = TapeHeader(
        bout_id=str(data.get("bout_id", "")),
        target_kind=str(data.get("target_kind", "")),
        agent_policy=str(data.get("agent_policy", "")),
        framing=_text(data.get("framing")),
        protocol_version=_text(data.get("protocol_version")),
        server_name=_text(data.get("server_name")),
        container=data.get("container") if isinstance(data.get("container"), dict) else None,
        seat=data.get("seat") if isinstance(data.get("seat"), dict) else None,
        attribution_ok=bool(data.get("attribution_ok")),
        atoms=atoms,
    )
    rows: list[TimelineRow] = []
    for index, row in enumerate(data.get("rows") or []):
        if not isinstance(row, dict):
            continue
        rpc_id = row.get("rpc_id")
        rows.append(
            TimelineRow(
                seq=int(row.get("seq", index + 1)),
                direction=str(row.get("direction", "")),
                method=str(row.get("method", "")),
                rpc_id=rpc_id if isinstance(rpc_id, int | str) else None,
                atom=str(row.get("atom", "?")),
                holdout=bool(row.get("holdout")),
                note=str(row.get("note", "")),
            )
        )
    facts = [f for f in data.get("facts") or [] if isinstance(f, dict)]
    facts = [f for f in data.get("facts") or [] if isinstance(f, dict)]
    return header, rows, facts
