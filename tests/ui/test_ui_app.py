"""Pilot tests: the app shell, home, Surface, help and the command palette."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static

from tests.support.ui import (
    LAB_INSPECT,
    LAB_TOOLS,
    lab_report,
    lab_tools,
    live_children,
    static_text,
    wait_until,
)
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.overlap import OverlapModal
from whichtool_tui.ui.recent import load_recent, remember
from whichtool_tui.ui.screens.help import HelpScreen
from whichtool_tui.ui.surface_model import build_surface_view
from whichtool_tui.ui.widgets.section_bar import SectionBar
from whichtool_tui.ui.widgets.surface_tables import FindingTable, ToolTable

SIZE = (120, 40)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


def bar_text(app: WhichtoolApp) -> str:
    return str(app.screen.query_one(SectionBar).render())


async def test_keys_switch_sections_and_header_follows() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        assert app.current_mode == "home"
        for key, mode in (
            ("1", "surface"),
            ("2", "tasks"),
            ("3", "run"),
            ("4", "results"),
            ("5", "bout"),
        ):
            await pilot.press(key)
            assert app.current_mode == mode
        assert "No receipt loaded" in static_text(app.screen.query_one("#bout-empty", Static))
        await pilot.press("q")
        assert app.current_mode == "home"
        await pilot.press("q")
    assert app.return_value == 0


async def test_opened_inspect_report_fills_surface() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "surface"
        tools = app.screen.query_one("#tools", ToolTable)
        assert tools.row_count == 4
        assert "Tools (4)" in str(tools.border_title)
        findings = app.screen.query_one("#findings", FindingTable)
        assert findings.row_count == 3
        first = [str(cell) for cell in findings.cells(0)]
        assert first[0].startswith("✖ error descriptions/identical")  # severity, code, about
        assert "list_users ~ search_users" in first[0] and "identical" in first[1]
        detail = static_text(app.screen.query_one("#tool-detail", Static))
        assert "delete_user" in detail and "does not carry descriptions" in detail
        assert "lab-inspect.json" in load_recent()[0].path
        await pilot.press("s")
        assert "No served listing" in "".join(n.message for n in app._notifications)
        assert app.session.target is not None  # the report's snapshot can be re-read
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.surface is not None and app.session.surface.raw_list == lab_tools()


async def live_surface_app(pilot_app: WhichtoolApp) -> None:
    pilot_app.session.surface = build_surface_view(lab_report(), lab_tools())
    pilot_app.session.target_label = "lab"
    pilot_app.switch_mode("surface")


async def test_surface_selection_pair_view_and_save(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await live_surface_app(app)
        await pilot.pause()
        assert "lab" in bar_text(app)
        tools = app.screen.query_one("#tools", ToolTable)
        tools.focus()
        await pilot.press("down", "down")
        detail = static_text(app.screen.query_one("#tool-detail", Static))
        assert "list_users" in detail and "List users in the workspace" in detail
        assert "limit" in detail
        await pilot.press("f", "enter")
        assert isinstance(app.screen, OverlapModal)
        head = static_text(app.screen.query_one("#overlap-head", Static))
        assert "emails, list, names, users, workspace" in head
        await pilot.press("escape")
        assert not isinstance(app.screen, OverlapModal)
        target = tmp_path / "saved.json"
        await pilot.press("s")
        prompt = app.screen.query_one("#path", Input)
        prompt.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert json.loads(target.read_text())["tools"] == lab_tools()
        assert target.read_text().endswith("\n")


async def test_help_lists_screen_bindings() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = static_text(app.screen.query_one("#help-body Static", Static))
        assert "Save snapshot" in text and "Re-inspect" in text and "^p" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_palette_offers_sections_and_screen_actions() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Go to Bout" in titles and "Open the demo" in titles and "Open a file…" in titles
        assert "Surface: Save snapshot" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        for char in "go to tasks":
            await pilot.press("space" if char == " " else char)

        def tasks_highlighted() -> bool:  # the palette searches in a worker
            options = app.screen.query(OptionList)
            if not options:
                return False
            highlighted = options.first().highlighted_option
            return highlighted is not None and "Go to Tasks" in str(highlighted.prompt)

        await wait_until(pilot, tasks_highlighted, "the palette offers Go to Tasks")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.current_mode == "tasks", "the Tasks section shows")


async def test_recent_list_reopens_a_file() -> None:
    remember(str(LAB_INSPECT), "inspect-report", "lab")
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        recent = app.screen.query_one("#recent", OptionList)
        assert recent.option_count == 1
        recent.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.current_mode == "surface"
        assert app.session.surface is not None and len(app.session.surface.tools) == 4


async def test_home_snapshot_target_runs_inspect_worker() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        field = app.screen.query_one("#target-value", Input)
        assert field.has_focus
        field.value = str(LAB_TOOLS)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "surface"
        assert app.session.surface is not None
        assert [tool.name for tool in app.session.surface.tools] == [
            "delete_user",
            "get_weather",
            "list_users",
            "search_users",
        ]
        assert app.session.surface.raw_list == lab_tools()
        assert "lab-tools.json" in bar_text(app)


async def test_home_bad_target_is_a_toast_not_a_crash(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        app.screen.query_one("#target-value", Input).value = str(tmp_path / "missing.json")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "home"
        assert any(n.severity == "error" for n in app._notifications)


def test_internal_error_is_one_line_without_debug(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.traceback import Traceback

    for debug in (False, True):
        app = WhichtoolApp(debug=debug)
        try:
            raise RuntimeError("boom")
        except RuntimeError as error:
            app._exception = error
            app._exit_renderables.append(Traceback())
        app._print_error_renderables()
        err = capsys.readouterr().err
        if debug:
            assert "Traceback" in err and "boom" in err
        else:
            assert err.splitlines()[0].startswith("whichtool-tui: the interactive app stopped")
            assert "RuntimeError: boom" in err and "Traceback" not in err


async def test_start_point_opens_a_target_on_a_section() -> None:
    from whichtool_tui.ui.app import StartPoint

    start = StartPoint(
        target=("snapshot", str(LAB_TOOLS)),
        tasks=str(LAB_TOOLS.parent / "lab-run-tasks.yaml"),
        section="run",
    )
    app = WhichtoolApp(start=start)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "run"
        assert app.session.surface is not None and app.session.tasks is not None
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "6 tasks × 5 repeats = 30 trials" in plan


async def test_stdio_target_from_home_inspects_a_live_server() -> None:
    import sys

    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#kind-stdio")
        await pilot.press("o")
        command = f"{sys.executable} -m whichtool_tui.arcade.fixture"
        app.screen.query_one("#target-value", Input).value = command
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "surface", [n.message for n in app._notifications]
        assert app.session.surface is not None and app.session.surface.transport == "stdio"
        assert app.session.surface.raw_list  # the live tools/list, ready to save
    assert live_children() == []  # the server was stopped after listing its tools


async def test_http_target_from_home_inspects_a_live_server() -> None:
    from tests.support.mcp_http_server import serve

    with serve() as server:
        app = WhichtoolApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.click("#kind-http")
            await pilot.press("o")
            app.screen.query_one("#target-value", Input).value = server.url()
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.current_mode == "surface", [n.message for n in app._notifications]
            assert app.session.surface is not None
            assert app.session.surface.transport == "http"
            assert app.screen.query_one("#tools", ToolTable).row_count > 0
            assert "127.0.0.1" in bar_text(app)
