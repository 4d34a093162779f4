"""A big receipt's later wire events are checked for nesting as the Bout screen loads them:
the same refusal as an eager check, before any row of a too-deep event is shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.ui import UI_DATA, big_receipt, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.bounded_read import MAX_NESTING
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.ui.app import FIRST_ROWS, WhichtoolApp
from whichtool_tui.ui.bout_model import view_of_receipt

EVENTS = FIRST_ROWS * 3
pytestmark = pytest.mark.usefixtures("isolated_state")


def nested(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = {"deeper": value}
    return value


def receipt_with_deep_event(tmp_path: Path, at: int, levels: int) -> Path:
    """A grown lab receipt whose event ``at`` carries a result ``levels`` mappings deep
    (the event sits at depth 3: receipt, wire, event)."""
    path = tmp_path / "receipt.json"
    big_receipt(path, EVENTS)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["wire"][at]["message"]["result"] = nested(levels)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_deep_event_past_the_first_rows_is_refused_when_its_rows_load(tmp_path: Path) -> None:
    at = FIRST_ROWS + 700
    too_deep = MAX_NESTING - 4 + 1  # event 3 + message 1 + these levels: one past the limit
    path = receipt_with_deep_event(tmp_path, at, too_deep)
    with pytest.raises(WhichtoolError, match="nested too deeply") as eager:
        load_artefact(path)
    artefact = load_artefact(path, wire_checked_to=FIRST_ROWS)
    assert artefact.wire_checked_to == FIRST_ROWS
    bout = view_of_receipt(
        artefact.data,
        str(path),
        validate=False,
        first_rows=FIRST_ROWS,
        wire_checked_to=artefact.wire_checked_to,
    )
    assert len(bout.rows) == FIRST_ROWS
    loaded = 0
    while bout.load_more(500):
        loaded += 1
    assert bout.invalid == eager.value.message  # the same refusal, word for word
    assert len(bout.rows) <= at  # no row of the deep event (nor after it) was built
    bout.validate()
    assert bout.receipt is None and not bout.pending


def test_the_deepest_allowed_event_loads_and_validates(tmp_path: Path) -> None:
    path = receipt_with_deep_event(tmp_path, FIRST_ROWS + 700, MAX_NESTING - 4)
    load_artefact(path)  # the eager check accepts it
    artefact = load_artefact(path, wire_checked_to=FIRST_ROWS)
    bout = view_of_receipt(
        artefact.data, str(path), False, FIRST_ROWS, wire_checked_to=artefact.wire_checked_to
    )
    while bout.load_more(500):
        pass
    assert len(bout.rows) == EVENTS and bout.invalid is None


def test_a_deep_event_among_the_first_rows_is_refused_at_once(tmp_path: Path) -> None:
    path = receipt_with_deep_event(tmp_path, 10, MAX_NESTING)
    with pytest.raises(WhichtoolError, match="nested too deeply"):
        load_artefact(path, wire_checked_to=FIRST_ROWS)
    small = json.loads((UI_DATA / "lab-receipt.json").read_text(encoding="utf-8"))
    small["wire"][3]["message"]["result"] = nested(MAX_NESTING)
    short = tmp_path / "short.json"
    short.write_text(json.dumps(small), encoding="utf-8")  # a wire shorter than the first rows
    with pytest.raises(WhichtoolError, match="nested too deeply"):
        load_artefact(short, wire_checked_to=FIRST_ROWS)


async def test_the_bout_screen_says_so_and_shows_only_checked_rows(tmp_path: Path) -> None:
    at = FIRST_ROWS + 700
    path = receipt_with_deep_event(tmp_path, at, MAX_NESTING)
    app = WhichtoolApp(load_artefact(path, wire_checked_to=FIRST_ROWS))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session.bout is not None, "the receipt opened")
        bout = app.session.bout
        assert bout is not None
        # The rows past the first frame are read by a worker started after that frame.
        await wait_until(pilot, lambda: bout.invalid is not None, "the deep event refused")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert bout.invalid is not None
        assert "nested too deeply" in bout.invalid
        assert FIRST_ROWS <= len(bout.rows) <= at
        messages = [str(n.message) for n in app._notifications]
        assert any("nested too deeply" in message for message in messages), messages
