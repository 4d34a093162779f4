"""RpcTimeline alone: 100,000 rows, no widget per row, cursor, filter, growth while loading."""

from __future__ import annotations

from textual.app import App, ComposeResult

from whichtool_tui.arcade.timeline import TimelineRow
from whichtool_tui.ui.widgets.timeline import RpcTimeline, format_row

ROWS = 100_000


def make_rows(count: int) -> list[TimelineRow]:
    return [
        TimelineRow(
            seq=i + 1,
            direction="out" if i % 2 == 0 else "in",
            method="tools/call" if i % 2 == 0 else "(response)",
            rpc_id=i // 2,
            atom="poison.follow_through",
            holdout=False,
            note=f"tools/call echo {i}" if i % 2 == 0 else "",
        )
        for i in range(count)
    ]


class TimelineApp(App[None]):
    def __init__(self, rows: list[TimelineRow]) -> None:
        super().__init__()
        self.rows = rows
        self.highlighted: list[int | None] = []

    def compose(self) -> ComposeResult:
        yield RpcTimeline(self.rows, id="timeline")

    def on_rpc_timeline_row_highlighted(self, event: RpcTimeline.RowHighlighted) -> None:
        self.highlighted.append(event.index)


async def test_hundred_thousand_rows_are_virtual() -> None:
    app = TimelineApp(make_rows(ROWS))
    async with app.run_test(size=(120, 40)) as pilot:
        timeline = app.query_one(RpcTimeline)
        timeline.focus()
        await pilot.pause()
        assert len(timeline.children) == 0  # one Strip per visible line, never a widget per row
        assert timeline.virtual_size.height == ROWS
        await pilot.press("end")
        assert timeline.selected == ROWS - 1
        assert timeline.scroll_offset.y >= ROWS - 40
        await pilot.press("pageup")
        assert timeline.selected is not None and timeline.selected < ROWS - 30
        await pilot.press("home")
        await pilot.pause()
        assert timeline.selected == 0 and app.highlighted[-1] == 0
        line = timeline.render_line(0)
        assert line.text.startswith(format_row(app.rows[0], timeline.columns)[:40])


async def test_filter_and_growth_keep_working_together() -> None:
    rows = make_rows(1_000)
    app = TimelineApp(rows)
    async with app.run_test(size=(120, 40)) as pilot:
        timeline = app.query_one(RpcTimeline)
        timeline.set_filter(lambda i: rows[i].direction == "out")
        await pilot.pause()
        assert len(timeline.shown_rows) == 500
        rows.extend(make_rows(2_000)[1_000:])  # the loader appended more rows
        timeline.grow()
        assert len(timeline.shown_rows) == 1_000
        assert all(rows[i].direction == "out" for i in timeline.shown_rows)
        timeline.set_filter(None)
        assert len(timeline.shown_rows) == 2_000
        timeline.set_filter(lambda i: False)
        await pilot.pause()
        assert timeline.selected is None and app.highlighted[-1] is None
