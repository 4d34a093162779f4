"""What the Bout screen shows: a score-free header and rows, plus the receipt kept aside.

The timeline is built from the allowlisted tape view (for receipts) or read from a tape file;
the receipt's verdicts live only in ``receipt`` and the screen reveals them after the guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whichtool_tui.arcade.receipt import BoutReceipt, validate_receipt
from whichtool_tui.arcade.timeline import TapeAtom, TapeHeader, TapeView, TimelineRow


@dataclass
class BoutView:
    """One bout as the screen needs it; ``guess`` is the operator's call, None until made."""

    source: str
    header: TapeHeader
    rows: list[TimelineRow]
    facts: list[dict[str, str]]
    receipt: BoutReceipt | None
    wire: list[Any]
    guess: str | None = None

    def message(self, index: int) -> Any:
        """The raw JSON-RPC message behind a row (receipts only; tapes carry none)."""
        if 0 <= index < len(self.wire):
            event = self.wire[index]
            return event.get("message") if isinstance(event, dict) else None
        return None


def view_of_receipt(data: dict[str, Any], source: str) -> BoutView:
    """Validate a receipt, then build its score-free tape view."""
    receipt = validate_receipt(data, source)
    tape = TapeView(data)
    wire = data.get("wire") if isinstance(data.get("wire"), list) else []
    return BoutView(
        source=source,
        header=tape.header,
        rows=list(tape.rows()),
        facts=tape.facts(),
        receipt=receipt,
        wire=list(wire or []),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def view_of_tape(data: dict[str, Any], source: str) -> BoutView:
    """Read a tape file (already score-free) into the same view."""
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
    rows = []
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
    return BoutView(source, header, rows, facts, None, [])
