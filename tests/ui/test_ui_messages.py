"""Pilot tests: workers report through messages the App applies, and a finished worker has
always changed the session; slow reads from a prompt run off the UI thread."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.support.paths import SNAPSHOTS
from tests.support.ui import UI_DATA, wait_until
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.session import TargetChoice

SIZE = (120, 40)
LAB_SNAPSHOT = SNAPSHOTS / "demo-lab.json"

pytestmark = pytest.mark.usefixtures("isolated_state")


async def test_a_finished_inspect_has_put_its_surface_in_the_session() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE):
        worker = app.inspect_target(TargetChoice("snapshot", str(LAB_SNAPSHOT)))
        await worker.wait()
        # No pause: the worker resumed only once the App had applied its SurfaceReviewed.
        session = app.session
        assert session.target == TargetChoice("snapshot", str(LAB_SNAPSHOT))
        assert session.attempted == session.target
        assert session.surface is not None and len(session.surface.tools) == 6
        assert app.current_mode == "surface"


async def test_a_failed_inspect_keeps_the_attempt_and_its_stable_code(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE):
        missing = str(tmp_path / "missing.json")
        await app.inspect_target(TargetChoice("snapshot", missing)).wait()
        assert app.session.attempted == TargetChoice("snapshot", missing)
        assert app.session.target is None and app.session.surface is None
        error = app.session.last_error
        assert error is not None and error.hint is not None
        assert error.hint.endswith("r on Surface retries.")


async def test_a_file_opened_from_the_prompt_is_read_off_the_ui_thread(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.ask_open_file()
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path", Input).value = str(UI_DATA / "lab-run.json")
        await pilot.press("enter")
        await wait_until(  # the reading thread posts ArtefactRead; the App then shows it
            pilot, lambda: app.session.run is not None, "the opened run is the session's"
        )
        assert app.session.run is not None
        assert app.session.run.schema_version == "whichtool.run/2"
        assert app.current_mode == "results"


async def test_a_file_that_cannot_be_opened_from_the_prompt_changes_nothing(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.ask_open_file()
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(broken)
        await pilot.press("enter")
        # The reading thread starts from the prompt's answer, a message after the key: wait
        # for what it says, not for the workers there happen to be when the key is handled.
        await wait_until(
            pilot,
            lambda: any(n.title == "Cannot open" for n in app._notifications),
            "the reading thread said why it cannot open the file",
        )
        await pilot.pause()
        assert app.session.run is None and app.session.bout is None
        assert app.current_mode == "home"
