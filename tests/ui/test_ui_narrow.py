"""80x24 keeps every pane usable: the Surface panes stack (the pane under the tools follows the
focus), the Bout timeline's note keeps its room, and the footer ends clean at its right edge."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widget import Widget

from tests.support.ui import LAB_INSPECT, UI_DATA, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.bout import BoutScreen
from whichtool_tui.ui.screens.surface import SurfaceScreen
from whichtool_tui.ui.widgets.timeline import NOTE_MIN, RpcTimeline

NARROW = (80, 24)
WIDE = (120, 40)
USABLE_ROWS = 5  # content lines a pane keeps at 80x24 (five tools, three two-line findings)
pytestmark = pytest.mark.usefixtures("isolated_state")


def shown(widget: Widget) -> bool:
    """On screen with some area (a pane folded away by CSS has none)."""
    return widget.region.area > 0


def inner_rows(widget: Widget) -> int:
    return widget.content_region.height


def screen_lines(app: WhichtoolApp) -> list[str]:
    """The text of every terminal line as composed right now."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def surface(pilot: Any, app: WhichtoolApp) -> SurfaceScreen:
    await wait_until(pilot, lambda: app.session.surface is not None, "the report opened")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SurfaceScreen)
    return screen


async def test_surface_panes_stack_at_80x24_and_the_lower_one_follows_the_focus() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT), theme="textual-dark")
    async with app.run_test(size=NARROW) as pilot:
        screen = await surface(pilot, app)
        tools, detail = screen.query_one("#tools"), screen.query_one("#tool-detail-pane")
        findings, rules = screen.query_one("#findings"), screen.query_one("#rules")
        hint = screen.query_one("#finding-hint")
        # Arrival: the tools over the selected tool, each the full width, each with room.
        assert tools.has_focus and screen.lower_pane == "detail"
        assert tools.region.width == detail.region.width == NARROW[0]
        assert detail.region.y >= tools.region.bottom
        assert inner_rows(tools) >= USABLE_ROWS and inner_rows(detail) >= USABLE_ROWS
        assert not shown(findings) and not shown(hint)
        assert "f: findings (3)" in str(detail.border_subtitle)

        await pilot.press("f")  # the findings take the lower pane, with the full text below
        await pilot.pause()
        assert screen.lower_pane == "findings"
        assert not shown(detail) and shown(tools) and shown(hint)
        assert findings.region.width == NARROW[0] and findings.region.y >= tools.region.bottom
        assert inner_rows(findings) >= 2 * 3 + 1  # the header and all three findings
        assert inner_rows(tools) >= USABLE_ROWS - 1
        assert "identical descriptions" in static_text(hint)

        await pilot.press("k")  # the rule list replaces the findings
        await pilot.pause()
        assert screen.lower_pane == "rules" and rules.has_focus
        assert shown(rules) and not shown(findings) and inner_rows(rules) >= USABLE_ROWS
        await pilot.press("k")
        await pilot.pause()
        assert findings.has_focus and shown(findings) and not shown(rules)

        await pilot.press("t")
        await pilot.pause()
        assert screen.lower_pane == "detail" and shown(detail) and not shown(findings)
        await pilot.press("down")  # the detail follows the tools cursor
        await pilot.pause()
        assert "get_weather" in static_text(screen.query_one("#tool-detail"))


async def test_surface_panes_sit_side_by_side_at_120x40() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT), theme="textual-dark")
    async with app.run_test(size=WIDE) as pilot:
        screen = await surface(pilot, app)
        tools, detail = screen.query_one("#tools"), screen.query_one("#tool-detail-pane")
        findings = screen.query_one("#findings")
        assert tools.region.y == detail.region.y and detail.region.x >= tools.region.right
        assert findings.region.y >= tools.region.bottom and findings.region.width == WIDE[0]
        await pilot.press("f")  # the focus moves; nothing folds away when there is room
        await pilot.pause()
        assert shown(tools) and shown(detail) and shown(findings)


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x40"])
async def test_bout_timeline_keeps_the_note_readable(size: tuple[int, int]) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"), theme="textual-dark")
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BoutScreen), "the Bout screen")
        await wait_until(pilot, lambda: bool(app.screen.query(RpcTimeline)), "the timeline mounted")
        timeline = app.screen.query_one(RpcTimeline)
        columns = app.screen.query_one("#wire-columns")

        def titled() -> bool:  # the titles follow the refitted columns (a message away)
            return static_text(columns).find("note") == timeline.columns.note_start

        await wait_until(pilot, titled, "the column titles refitted with the rows")
        note_start = timeline.columns.note_start
        assert timeline.size.width - note_start >= NOTE_MIN
        calls = [i for i, row in enumerate(timeline.rows) if row.note == "tools/call echo"]
        assert calls
        line = timeline.render_line(calls[0]).text  # the first screenful starts at row 0
        assert line[note_start:].rstrip() == "tools/call echo"
        assert len(line.rstrip()) <= timeline.size.width  # whole, without scrolling sideways


@pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "120x40"])
async def test_footer_ends_with_the_palette_key_and_nothing_after(size: tuple[int, int]) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"), theme="textual-dark")
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BoutScreen), "the Bout screen")
        # The footer lays its keys out after the screen's bindings settle.
        await wait_until(pilot, lambda: "^p" in screen_lines(app)[-1], "the footer's keys drawn")
        await pilot.pause()
        footer = screen_lines(app)[-1]
        assert footer.rstrip().endswith("^p palette"), footer
