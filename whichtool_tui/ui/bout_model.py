"""What the Bout screen shows: a score-free header and rows, plus the receipt kept aside.

The timeline is built from the allowlisted tape view (for receipts) or read from a tape file;
the receipt's verdicts live only in ``receipt`` and the screen reveals them after the guess.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.usecases.artefacts import read_tape_file, receipt_tape, wire_nesting_error

if TYPE_CHECKING:  # the receipt models load with the first validation, after the first frame
    from pydantic import TypeAdapter

    from whichtool_tui.usecases.api import (
        BoutReceipt,
        TapeHeader,
        TapeView,
        TimelineRow,
        WireEventModel,
    )

VALIDATE_CHUNK = 2_000
_wire_adapter: TypeAdapter[list[WireEventModel]] | None = None


def _wire_validator() -> TypeAdapter[list[WireEventModel]]:
    """One validator of wire-event lists, built on first use."""
    global _wire_adapter
    if _wire_adapter is None:
        from pydantic import TypeAdapter

        from whichtool_tui.usecases.api import WireEventModel

        _wire_adapter = TypeAdapter(list[WireEventModel])
    return _wire_adapter


@dataclass(repr=False)  # a repr would print every row of a 100,000-event receipt
class BoutView:
    """One bout as the screen needs it; ``guess`` is the operator's call, None until made.

    ``raw`` is the receipt JSON still to be validated (done off the UI thread, so a
    100,000-event receipt shows its timeline first); ``receipt`` is set once it validated.
    """

    source: str
    header: TapeHeader
    rows: list[TimelineRow]
    receipt: BoutReceipt | None
    wire: list[Any]
    guess: str | None = None
    raw: dict[str, Any] | None = None
    tape: TapeView | None = None
    pending_rows: Iterator[TimelineRow] | None = None
    tape_facts: list[dict[str, str]] | None = None
    invalid: str | None = None
    loading_started: bool = False
    output: str | None = None  # ``bout -o``: where the receipt went, the default for ``s``
    file: str | None = None  # the receipt or tape file this bout was opened from
    live_atoms: dict[str, str] | None = None  # atom -> waiting/running/done while it runs
    wire_checked_to: int | None = None  # wire events from here on: nesting not checked yet
    _haystacks: list[str] | None = None
    _task_tools: dict[str, str | None] | None = None
    _index_lock: threading.Lock = field(default_factory=threading.Lock)

    def search_texts(self) -> list[str]:
        """Per row, the lower-cased text a search looks in: method, note and the whole
        message body (built once; a 100,000-event receipt takes about a second)."""
        with self._index_lock:  # the loader thread may be building it at the same moment
            built = self._haystacks if self._haystacks is not None else []
            for index in range(len(built), len(self.rows)):
                row = self.rows[index]
                message = self.message(index)
                body = json.dumps(message, ensure_ascii=False) if message is not None else ""
                built.append(f"{row.method} {row.note} {body}".lower())
            self._haystacks = built
            return built

    def is_error(self, index: int) -> bool:
        """A JSON-RPC error answer, or a tool result flagged isError."""
        message = self.message(index)
        if not isinstance(message, dict):
            return "error" in self.rows[index].note.lower()
        result = message.get("result")
        return "error" in message or (isinstance(result, dict) and result.get("isError") is True)

    def is_unauthorized(self, index: int) -> bool:
        """A tools/call of something other than its atom's task tool (or a ghost probe)."""
        row = self.rows[index]
        if row.direction != "out" or row.method != "tools/call":
            return False
        if self._task_tools is None:
            self._task_tools = {atom.id: atom.task_tool for atom in self.header.atoms}
        allowed = self._task_tools.get(row.atom)
        name = row.note.removeprefix("tools/call ").split("  ", 1)[0]
        return "[ghost probe" in row.note or (allowed is not None and name != allowed)

    @property
    def total(self) -> int:
        """Wire events in the bout (rows may still be loading)."""
        return len(self.wire) if self.wire else len(self.rows)

    def load_more(self, count: int) -> bool:
        """Append up to ``count`` more rows; False once every row is loaded."""
        if self.pending_rows is None:
            return False
        before = len(self.rows)
        checked = self.wire_checked_to
        if checked is not None and before + count > checked:
            # Rows are shown (and their messages walked) only once their events are checked.
            problem = wire_nesting_error(self.wire, checked, before + count, self.source)
            if problem is not None:
                self.invalid = problem
                self.pending_rows = None
                return False
            self.wire_checked_to = before + count
        self.rows.extend(islice(self.pending_rows, count))
        if len(self.rows) - before < count:
            self.pending_rows = None
        return self.pending_rows is not None

    @property
    def pending(self) -> bool:
        """True while a receipt is still being validated."""
        return self.raw is not None and self.receipt is None and self.invalid is None

    def facts(self) -> list[dict[str, str]]:
        """What the wire alone says per atom (computed on first use: it scans the whole wire)."""
        if self.tape_facts is None:
            self.tape_facts = self.tape.facts() if self.tape is not None else []
        return self.tape_facts

    def validate(self) -> None:
        """Validate the raw receipt; call it from a thread for big ones.

        The wire is validated in chunks so the UI thread gets the GIL between them (one
        pydantic call over 100,000 events would freeze the screen for a second).
        """
        raw = self.raw
        if raw is None or self.invalid is not None:
            return
        from pydantic import ValidationError

        from whichtool_tui.usecases.api import validate_receipt

        validator = _wire_validator()
        try:
            wire = raw.get("wire")
            if not isinstance(wire, list):
                self.receipt = validate_receipt(raw, self.source)  # names the problem
                return
            receipt = validate_receipt({**raw, "wire": []}, self.source)
            events: list[WireEventModel] = []
            for start in range(0, len(wire), VALIDATE_CHUNK):
                try:
                    events.extend(validator.validate_python(wire[start : start + VALIDATE_CHUNK]))
                except ValidationError as exc:
                    first = exc.errors()[0]
                    where = ".".join(
                        str(part) for part in (start + int(first["loc"][0]), *first["loc"][1:])
                    )
                    raise WhichtoolError(
                        "receipt/invalid",
                        f"{self.source} is not a valid receipt: wire.{where}: {first['msg']}",
                    ) from None
            receipt.wire = events
            self.receipt = receipt
        except WhichtoolError as error:
            self.invalid = error.message

    def __repr__(self) -> str:
        return f"BoutView({self.source!r}, {self.total} events)"

    def message(self, index: int) -> Any:
        """The raw JSON-RPC message behind a row (receipts only; tapes carry none)."""
        if 0 <= index < len(self.wire):
            event = self.wire[index]
            return event.get("message") if isinstance(event, dict) else None
        return None


def view_of_receipt(
    data: dict[str, Any],
    source: str,
    validate: bool = True,
    first_rows: int | None = None,
    wire_checked_to: int | None = None,
) -> BoutView:
    """The score-free tape view of a receipt.

    With ``validate=False`` the receipt is checked later via ``validate()``; with ``first_rows``
    only that many rows are built now and ``load_more`` builds the rest, so a huge receipt's
    first screen does not wait for its last row.
    """
    tape = receipt_tape(data)
    wire = data.get("wire") if isinstance(data.get("wire"), list) else []
    rows_iterator = tape.rows()
    view = BoutView(
        source=source,
        header=tape.header,
        rows=list(islice(rows_iterator, first_rows) if first_rows else rows_iterator),
        receipt=None,
        wire=wire or [],
        raw=data,
        tape=tape,
        pending_rows=rows_iterator if first_rows else None,
        wire_checked_to=wire_checked_to,
    )
    if validate:
        view.validate()
        if view.invalid is not None:
            raise WhichtoolError("receipt/invalid", view.invalid)
    return view


def view_of_tape(data: dict[str, Any], source: str) -> BoutView:
    """Read a tape file (already score-free) into the same view."""
    header, rows, facts = read_tape_file(data)
    return BoutView(source, header, rows, None, [], tape_facts=facts)
