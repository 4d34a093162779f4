"""Pilot tests of the wire timeline as a forensic tool: body search, kinds, n/N, copy, seq width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from tests.support.ui import UI_DATA, big_receipt, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.widgets.timeline import RpcTimeline, format_row

LAB_RECEIPT = UI_DATA / "lab-receipt.json"
SIZE = (120, 40)
pytestmark = pytest.mark.usefixtures("isolated_state")


def body_only_word() -> str:
    """A word that appears in some message body but in no row's method or note."""
    wire = json.loads(LAB_RECEIPT.read_text(encoding="utf-8"))["wire"]
    for event in wire:
        if event.get("method") == "initialize":
            return str(event["message"]["params"]["protocolVersion"])
    raise AssertionError("the lab receipt has no initialize")


async def test_search_reads_bodies_and_kinds_filter_and_n_jumps() -> None:
    word = body_only_word()
    app = WhichtoolApp(load_artefact(LAB_RECEIPT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timeline = app.screen.query_one(RpcTimeline)
        bout = app.session.bout
        assert bout is not None
        assert not any(word in f"{r.method} {r.note}" for r in bout.rows)
        app.screen.query_one("#f-search", Input).value = word
        await pilot.pause()
        assert timeline.shown_rows  # found in the message bodies
        assert all(word in bout.search_texts()[i] for i in timeline.shown_rows)
        app.screen.query_one("#f-search", Input).value = ""
        app.screen.query_one("#f-kind", Select).value = "calls"
        await pilot.pause()
        assert timeline.shown_rows
        assert all(bout.rows[i].method == "tools/call" for i in timeline.shown_rows)
        app.screen.query_one("#f-kind", Select).value = "unauthorized"
        await pilot.pause()
        # Before the guess this filter would give the answer away: refused, back to every row.
        assert app.screen.query_one("#f-kind", Select).value == "all"
        assert len(timeline.shown_rows) == len(bout.rows)
        timeline.focus()
        await pilot.press("n")
        first_call = timeline.selected
        assert first_call is not None
        assert bout.rows[first_call].method == "tools/call" or bout.is_error(first_call)
        await pilot.press("n", "N")
        assert timeline.selected == first_call
        await pilot.press("y")
        assert any("Copied message" in n.message for n in app._notifications)
        assert app.clipboard == json.dumps(bout.message(first_call), indent=2, ensure_ascii=False)
        await pilot.press("h")  # the guess: now the unauthorized filter is allowed
        app.screen.query_one("#f-kind", Select).value = "unauthorized"
        await pilot.pause()
        assert app.screen.query_one("#f-kind", Select).value == "unauthorized"
        assert all(bout.is_unauthorized(i) for i in timeline.shown_rows)
        app.screen.query_one("#f-kind", Select).value = "unanswered"
        await pilot.pause()
        assert all("[no response]" in bout.rows[i].note for i in timeline.shown_rows)


async def test_seq_column_holds_six_digits_without_shifting(tmp_path: Path) -> None:
    receipt = tmp_path / "big.json"
    big_receipt(receipt, 100_050)
    app = WhichtoolApp(load_artefact(receipt))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session.bout is not None, "the receipt opened")
        bout = app.session.bout
        assert bout is not None
        # The rows past the first frame are read by a worker started after that frame.
        await wait_until(pilot, lambda: len(bout.rows) == 100_050, "every row read", 120)
        await app.workers.wait_for_complete()
        await pilot.pause()
        timeline = app.screen.query_one(RpcTimeline)
        early, late = bout.rows[99_998], bout.rows[100_010]
        # seq 99,999 and 100,011: the columns after seq start at the same place.
        layout = timeline.columns
        assert format_row(early, layout).index(early.direction) == format_row(late, layout).index(
            late.direction
        )
        app.screen.query_one("#f-search", Input).value = "leak"
        await pilot.pause()
        narrowed = list(timeline.shown_rows)
        assert narrowed
        app.screen.query_one("#f-search", Input).value = "leak_"
        await pilot.pause()
        assert set(timeline.shown_rows) <= set(narrowed)
        assert all("leak_" in bout.search_texts()[i] for i in timeline.shown_rows)
