"""The TUI's findability column on Surface (the demo, offline) and the deferred-vs-upfront view
on Results."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from tests.support.paths import SNAPSHOTS
from tests.support.ui import static_text, wait_until
from whichtool_tui.config import load_settings
from whichtool_tui.discovery.deferred_run import DiscoveryOptions, run_deferred_evaluation
from whichtool_tui.evaluation.engine import RunOptions
from whichtool_tui.evaluation.inputs import build_run_inputs, normalize_listing
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.providers.keyword import KeywordProvider
from whichtool_tui.targets import load_listing, resolve_target
from whichtool_tui.tasks.load import load_task_set
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.widgets.surface_tables import ToolTable

pytestmark = pytest.mark.usefixtures("isolated_state")


def _cell(table: ToolTable, tool: str, column: int) -> str:
    row = next(index for index, listed in enumerate(table.tools) if listed.name == tool)
    return str(table.cells(row)[column])


@pytest.mark.slow
async def test_demo_surface_shows_findability_per_tool() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("d")
        session = app.session
        await wait_until(pilot, lambda: session.run is not None, "the demo's run finished")
        await app.workers.wait_for_complete()
        await pilot.press("1")
        await pilot.pause()
        table = app.screen.query_one("#tools", ToolTable)
        assert table.titles[3] == "found@5"
        # BM25 finds search_orders in its top 5 for both of its prompts (rank 4 and 1).
        assert _cell(table, "search_orders", 3) == "2/2"
        assert _cell(table, "cancel_order", 3) == "1/1"


def _deferred_report() -> RunReport:
    settings = load_settings(None)
    listing = load_listing(resolve_target(str(SNAPSHOTS / "demo-lab.json"), None, settings))
    loaded = load_task_set(SNAPSHOTS / "demo-lab.tasks.yaml")
    inputs = build_run_inputs(listing, normalize_listing(listing), loaded, 6)
    return asyncio.run(
        run_deferred_evaluation(
            inputs, RunOptions(repeat=1), KeywordProvider(), DiscoveryOptions(retriever="regex")
        )
    )


async def test_results_shows_deferred_against_upfront() -> None:
    report = await asyncio.to_thread(_deferred_report)
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.run = report
        await pilot.press("4")
        await pilot.pause()
        view = app.screen.query_one("#results-discovery", Static)
        assert view.display
        text = static_text(view)
        assert "deferred, search variant, regex search, top 5" in text
        assert "found: 7/7" in text
        assert "paired by task" in text
        assert "orders.search.mug" in text
