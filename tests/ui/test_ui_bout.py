"""Pilot tests of the Bout section: virtual timeline, filters, message pane, guess first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from tests.support.ui import UI_DATA, big_receipt, live_children, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.bout_model import view_of_receipt
from whichtool_tui.ui.widgets.timeline import RpcTimeline

LAB_RECEIPT = UI_DATA / "lab-receipt.json"
LAB_TAPE = UI_DATA / "lab-tape.json"
SIZE = (120, 40)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


def screen_text(app: WhichtoolApp, selector: str) -> str:
    return static_text(app.screen.query_one(selector, Static))


async def test_receipt_hides_verdicts_until_the_guess() -> None:
    receipt = json.loads(LAB_RECEIPT.read_text())
    app = WhichtoolApp(load_artefact(LAB_RECEIPT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "bout"
        timeline = app.screen.query_one(RpcTimeline)
        assert len(timeline.rows) == len(receipt["wire"])
        atoms = screen_text(app, "#atoms")
        for atom in receipt["atoms"]:
            assert atom["id"] in atoms
        for word in ("PASS", "FAIL", "NRP", "Integrity"):
            assert word not in atoms and word not in screen_text(app, "#verdict")
        assert "[f]ollowed" in screen_text(app, "#verdict")
        await pilot.press("h")
        verdict = screen_text(app, "#verdict")
        assert "You said: held" in verdict and "NRP" in verdict
        results = {atom["result"].upper() for atom in receipt["atoms"]}
        assert any(result in screen_text(app, "#atoms") for result in results)


async def test_timeline_cursor_message_and_filters() -> None:
    receipt = json.loads(LAB_RECEIPT.read_text())
    app = WhichtoolApp(load_artefact(LAB_RECEIPT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timeline = app.screen.query_one(RpcTimeline)
        assert timeline.has_focus
        await pilot.press("down", "down")
        assert timeline.selected == 2

        def message_shown() -> bool:  # the message pane redraws once the cursor rests
            try:
                return bool(
                    json.loads(screen_text(app, "#message")) == receipt["wire"][2]["message"]
                )
            except ValueError:
                return False

        await wait_until(pilot, message_shown, "the message pane shows wire event 2")
        await pilot.press("end")
        assert timeline.selected == len(receipt["wire"]) - 1
        app.screen.query_one("#f-direction", Select).value = "out"
        await pilot.pause()
        outbound = sum(1 for event in receipt["wire"] if event["direction"] == "out")
        assert len(timeline.shown_rows) == outbound
        app.screen.query_one("#f-method", Input).value = "tools/c"
        await pilot.pause()
        calls = [
            e for e in receipt["wire"] if e["direction"] == "out" and e["method"] == "tools/call"
        ]
        assert len(timeline.shown_rows) == len(calls) > 0
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("slash")
        await pilot.press(*"ghost")
        await pilot.pause()
        assert all("ghost" in timeline.rows[i].note for i in timeline.shown_rows)
        assert len(timeline.shown_rows) >= 1
        assert "shown" in str(app.screen.query_one("#wire-pane").border_title)


async def test_tape_opens_score_free_and_shows_facts_after_guess() -> None:
    app = WhichtoolApp(load_artefact(LAB_TAPE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timeline = app.screen.query_one(RpcTimeline)
        assert len(timeline.rows) == len(json.loads(LAB_TAPE.read_text())["rows"])
        assert "tape keeps no messages" in screen_text(app, "#message")
        await pilot.press("u")
        assert "what the wire alone says" in screen_text(app, "#verdict")


async def test_start_point_runs_a_planned_bout(tmp_path: Path) -> None:
    from whichtool_tui.arcade.bout import BoutPlan, fixture_argv
    from whichtool_tui.arcade.seats import NaiveSeat
    from whichtool_tui.mcp_client.command import child_environment
    from whichtool_tui.ui.app import StartPoint

    plan = BoutPlan(
        kind="fixture",
        argv=fixture_argv(),
        seat=NaiveSeat(),
        atom_ids=["inspect.tools_list"],
        sandbox=tmp_path / "sandbox",
        base_env=child_environment(),
    )
    app = WhichtoolApp(start=StartPoint(bout=plan))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "bout"
        bout = app.session.bout
        assert bout is not None and [a.id for a in bout.header.atoms] == ["inspect.tools_list"]
        assert "PASS" not in screen_text(app, "#atoms")
    assert live_children() == []


async def test_big_receipt_streams_rows_then_validates(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    big_receipt(path, 6_000)
    data = json.loads(path.read_text())
    partial = view_of_receipt(data, "big", validate=False, first_rows=2_000)
    assert len(partial.rows) == 2_000 and partial.pending and partial.total == 6_000
    while partial.load_more(1_500):
        pass
    assert len(partial.rows) == 6_000 and partial.pending_rows is None
    app = WhichtoolApp(load_artefact(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bout = app.session.bout
        assert bout is not None and bout.total == 6_000
        # The loader starts once the first frame is painted, then reads and validates.
        await wait_until(pilot, lambda: bout.loading_started, "the row loader started")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: bout.receipt is not None, "the receipt validated")
        await pilot.pause()
        timeline = app.screen.query_one(RpcTimeline)
        assert len(timeline.rows) == 6_000 and len(timeline.shown_rows) == 6_000
        assert bout.receipt is not None
        await pilot.press("h")
        assert "NRP" in screen_text(app, "#verdict")
        assert str(app.screen.query_one("#wire-pane").border_title) == "Wire (6,000 events)"


async def test_invalid_receipt_is_refused_with_a_toast(tmp_path: Path) -> None:
    data = json.loads(LAB_RECEIPT.read_text())
    data["wire"][3]["seq"] = "three"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    app = WhichtoolApp(load_artefact(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "home"
        messages = [n.message for n in app._notifications if n.severity == "error"]
        assert any("wire.3.seq" in message for message in messages)
