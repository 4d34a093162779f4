"""Pilot tests of the Surface screen at scale and in detail: 1,000 templated tools, 10,000
varied ones (End, search and sort over every row, the findings after the tools), families,
filters, sort, the raw JSON view, pair views for every two-tool finding, and a failed target."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Static

from tests.support.surfaces import varied_tools
from tests.support.ui import LAB_TOOLS, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui import engine
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.family import FamilyModal
from whichtool_tui.ui.modals.overlap import OverlapModal
from whichtool_tui.ui.screens.surface import SurfaceScreen
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.ui.widgets.surface_tables import FindingTable, ToolTable

SIZE = (120, 40)
pytestmark = pytest.mark.usefixtures("isolated_state")


def templated(count: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"get_user_record_{index}",
            "description": f"Get a user record number {index} in the workspace, with its roles.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "user_id": {"type": "string", "description": "The user id."},
                    "view": {
                        "type": "string",
                        "enum": ["full", "summary"],
                        "default": "summary",
                        "description": "How much of the record to return. " * 4,
                    },
                    "filter": {
                        "type": "object",
                        "properties": {"since": {"type": "string", "format": "date"}},
                    },
                },
                "required": ["user_id"],
            },
        }
        for index in range(count)
    ]


def snapshot(tmp_path: Path, tools: list[dict[str, Any]]) -> Path:
    path = tmp_path / "surface.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


async def opened(pilot: Any, app: WhichtoolApp) -> SurfaceScreen:
    await wait_until(pilot, lambda: app.session.surface is not None, "the inspect finished")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SurfaceScreen)
    return screen


def findings_table(app: WhichtoolApp) -> FindingTable:
    return app.screen.query_one("#findings", FindingTable)


def tools_table(app: WhichtoolApp) -> ToolTable:
    return app.screen.query_one("#tools", ToolTable)


async def test_a_thousand_templated_tools_show_one_family_and_every_row(
    tmp_path: Path,
) -> None:
    app = WhichtoolApp(load_artefact(snapshot(tmp_path, templated(1000))))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        view = app.session.surface
        assert view is not None and len(view.tools) == 1000
        families = [f for f in view.findings if f.is_family and f.code == "overlap/high"]
        assert len(families) == 1 and families[0].member_count == 1000
        table = findings_table(app)
        tools = tools_table(app)
        # One finding per rule that fires alike on every tool (aggregated); every tool is a
        # row of the virtual list at once, and no widget is made per row.
        assert table.row_count == len(view.findings)
        assert tools.row_count == 1000 and not tools.children
        # Two lines per finding: what and about whom, then the message and its fix.
        assert table.virtual_size.height == 2 * len(view.findings) + 1  # and the title line
        # Tables are filled once per load: a round trip through another section keeps them.
        listed = table.findings
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert app.screen is screen and findings_table(app).findings is listed
        # The end of the tools is the last tool (no batch to load first).
        await pilot.press("t")
        await pilot.press("ctrl+end")
        assert tools.cursor == 999 and tools.tools[999] is view.tools[-1]
        # The family opens into its members.
        await pilot.press("f")
        await pilot.press("ctrl+home")
        family_row = next(index for index, f in enumerate(table.findings) if f is families[0])
        table.cursor = family_row
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FamilyModal), "family modal")
        members = app.screen.query_one("#family-members", DataTable)
        assert members.row_count == 50  # the listed members; the header counts all 1,000
        head = static_text(app.screen.query_one("#family-head", Static))
        assert "1,000" in head and "{…}" in head
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, OverlapModal), "pair from family")
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_ten_thousand_tools_are_listed_before_their_review_and_searched_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review is held back: meanwhile every one of 10,000 tools is a row, End reaches the
    last, search runs over all rows; released, the findings replace "reviewing"."""
    held = threading.Event()
    review = engine.review

    def held_review(*args: Any, **kwargs: Any) -> Any:
        assert held.wait(timeout=600), "the test never released the review"
        return review(*args, **kwargs)

    monkeypatch.setattr(engine, "review", held_review)
    tools = varied_tools(10_000)
    app = WhichtoolApp(load_artefact(snapshot(tmp_path, tools)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot, app)
            view = app.session.surface
            assert view is not None and len(view.tools) == 10_000 and not view.reviewed
            await wait_until(pilot, lambda: view.costed, "the tokens counted")
            await pilot.pause()
            table, listed = findings_table(app), tools_table(app)
            assert "reviewing 10,000 tools" in str(table.border_title)
            assert table.row_count == 0 and listed.row_count == 10_000
            assert "~" in str(listed.border_title) and "tokens" in str(listed.border_title)
            await pilot.press("t", "ctrl+end")
            await pilot.pause()
            names = sorted(tool["name"] for tool in tools)  # the surface's order: by name
            assert listed.cursor == 9_999 and listed.tools[9_999].name == names[-1]
            await pilot.press("slash", *"invoice", "enter")
            await pilot.pause()
            wanted = [name for name in names if "invoice" in name]
            assert len(wanted) > 1_000  # one noun in eight: the search went past any batch
            assert [tool.name for tool in listed.tools] == wanted
            assert f"{len(wanted):,} of 10,000" in str(listed.border_title)
            held.set()
            await wait_until(pilot, lambda: view.reviewed, "the review")
            await pilot.pause()
            table = findings_table(app)
            assert "reviewing" not in str(table.border_title)
            assert table.row_count == len(view.findings) > 0
            assert [tool.name for tool in tools_table(app).tools] == wanted  # search kept
    finally:
        held.set()


async def test_an_opened_snapshot_is_not_read_again(tmp_path: Path) -> None:
    """``open`` parsed the file: the Surface lists those tools without reading it again (the
    file is gone by then); a re-inspect (r) reads it as any target is read."""
    path = snapshot(tmp_path, templated(3))
    artefact = load_artefact(path)
    path.unlink()
    app = WhichtoolApp(artefact)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await wait_until(pilot, lambda: app.session.surface.reviewed, "the review")
        assert [tool.name for tool in app.session.surface.tools] == [
            f"get_user_record_{index}" for index in range(3)
        ]
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        failed = [n for n in app._notifications if n.severity == "error"]
        assert failed and "r on Surface retries" in failed[-1].message


async def test_filters_sort_and_raw_json(tmp_path: Path) -> None:
    tools = templated(30)
    tools.append({"name": "send_invoice", "description": "Email an invoice PDF to a customer."})
    app = WhichtoolApp(load_artefact(snapshot(tmp_path, tools)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        view = app.session.surface
        assert view is not None
        # Severity filter cycles all -> error -> warning -> info.
        await pilot.press("f")
        await pilot.press("e", "e")  # warnings only
        await pilot.pause()
        assert screen._listed_findings
        assert {f.severity for f in screen._listed_findings} == {"warning"}
        assert findings_table(app).row_count == len(screen._listed_findings)
        assert findings_table(app).findings is screen._listed_findings
        await pilot.press("e", "e")  # info, then all again
        assert len(screen._listed_findings) == len(view.findings)
        # Search in the findings table: by code.
        await pilot.press("slash")
        search = app.screen.query_one("#surface-search", Input)
        assert search.has_focus
        await pilot.press(*"overlap/high")
        await pilot.press("enter")
        await pilot.pause()
        assert [f.code for f in screen._listed_findings] == ["overlap/high"]
        # Search in the tools table: by name; sort by name and cost.
        await pilot.press("t")
        await pilot.press("slash")
        await pilot.press(*"invoice", "enter")
        await pilot.pause()
        assert [tool.name for tool in screen._listed_tools] == ["send_invoice"]
        await pilot.press("slash")
        app.screen.query_one("#surface-search", Input).value = ""
        await pilot.press("enter")
        await pilot.press("o")  # by cost: the 30 templated tools cost more than send_invoice
        assert screen._listed_tools[-1].name == "send_invoice"
        await pilot.press("o")  # by name
        names = [tool.name for tool in screen._listed_tools]
        assert names == sorted(names)
        # The detail pane: full parameter descriptions, nested schemas, enums and defaults.
        await pilot.press("o")  # back to served order
        tools_table(app).cursor = 0
        await pilot.pause()
        detail = static_text(app.screen.query_one("#tool-detail", Static), width=300)
        assert "How much of the record to return. " * 3 in detail  # not cut at 60 characters
        assert 'one of "full", "summary"' in detail and 'default "summary"' in detail
        assert "since" in detail and "format date" in detail
        assert "kind inferred from the name" in detail
        await pilot.press("j")
        raw = static_text(app.screen.query_one("#tool-detail", Static), width=300)
        assert '"inputSchema": {' in raw and '"name": "get_user_record_0"' in raw


async def test_enter_opens_every_two_tool_finding(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(LAB_TOOLS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        two_tool = [f for f in screen._listed_findings if f.is_pair]
        codes = {f.code for f in two_tool}
        assert "descriptions/identical" in codes
        for finding in two_tool:
            row = list(screen._listed_findings).index(finding)
            findings_table(app).cursor = row
            await pilot.pause()
            await pilot.press("f", "enter")
            await wait_until(pilot, lambda: isinstance(app.screen, OverlapModal), finding.code)
            await pilot.press("escape")
            await pilot.pause()


async def test_unguided_pair_finding_opens_with_its_score(tmp_path: Path) -> None:
    tools = [
        {"name": "list_orders", "description": "List the orders of a customer, newest first."},
        {"name": "search_orders", "description": "Search the orders of a customer, newest first."},
    ]
    app = WhichtoolApp(load_artefact(snapshot(tmp_path, tools)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        row = next(
            index
            for index, f in enumerate(screen._listed_findings)
            if f.code == "descriptions/overlap-without-preference"
        )
        findings_table(app).cursor = row
        await pilot.press("f", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, OverlapModal), "pair view")
        title = app.screen.query_one("#overlap").border_title or ""
        assert "overlap 0." in str(title) and "?" not in str(title)


async def test_a_failed_target_is_kept_and_r_retries_it(tmp_path: Path) -> None:
    missing = tmp_path / "later.json"
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.inspect_target(TargetChoice("snapshot", str(missing)))
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.surface is None
        assert app.session.attempted == TargetChoice("snapshot", str(missing))
        failed = [n for n in app._notifications if n.severity == "error"]
        assert failed and "r on Surface retries" in failed[-1].message
        await pilot.press("1")
        await pilot.pause()
        missing.write_text(json.dumps({"tools": templated(3)}), encoding="utf-8")
        await pilot.press("r")
        await wait_until(pilot, lambda: app.session.surface is not None, "the retry worked")
        assert len(app.session.surface.tools) == 3


@pytest.mark.slow
async def test_a_failed_stdio_server_toast_carries_its_stderr_tail(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text(
        "import sys\nsys.stderr.write('boom: database password rejected\\n')\nsys.exit(3)\n",
        encoding="utf-8",
    )
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.inspect_target(TargetChoice("stdio", f"{sys.executable} {script}"))
        await app.workers.wait_for_complete()
        await pilot.pause()
        failed = [n for n in app._notifications if n.severity == "error"]
        assert failed and "boom: database password rejected" in failed[-1].message
