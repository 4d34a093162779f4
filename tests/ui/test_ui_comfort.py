"""Everyday comfort: the recent list tells files apart, the theme persists, help names keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from tests.support.ui import UI_DATA, static_text, wait_until
from whichtool_tui.cli import main
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.preferences import THEME_ENV, load_preferences
from whichtool_tui.ui.recent import shown_paths
from whichtool_tui.ui.screens.help import HelpScreen

SIZE = (120, 40)
pytestmark = pytest.mark.usefixtures("isolated_state")


def test_shown_paths_keep_just_enough_folders() -> None:
    assert shown_paths(["/a/lab/demo-lab.json", "/b/lab2/demo-lab.json", "/c/run.json"]) == [
        "…/lab/demo-lab.json",
        "…/lab2/demo-lab.json",
        "run.json",
    ]


async def test_recent_shows_the_key_metric_and_tells_same_names_apart(tmp_path: Path) -> None:
    for folder in ("before", "after"):
        (tmp_path / folder).mkdir()
        shutil.copy(UI_DATA / "lab-run.json", tmp_path / folder / "run.json")
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.open_path(str(tmp_path / "before" / "run.json"))
        app.open_path(str(tmp_path / "after" / "run.json"))
        await pilot.press("0")
        await wait_until(
            pilot,
            lambda: (
                "run.json"
                in str(app.screen.query_one("#recent", OptionList).get_option_at_index(0).prompt)
            ),
            "home lists the opened files",
        )
        options = app.screen.query_one("#recent", OptionList)
        lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "…/after/run.json" in lines[0] and "acc 0.75" in lines[0]
        assert "…/before/run.json" in lines[1]


async def test_theme_is_remembered_for_the_next_session() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "textual-light"
        await pilot.pause()
    assert load_preferences().theme == "textual-light"
    again = WhichtoolApp()
    async with again.run_test(size=SIZE):
        assert again.theme == "textual-light"


def test_theme_flag_checks_the_name_and_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THEME_ENV, raising=False)
    assert main(["--theme", "no-such-theme", "--no-ui", "tasks", "lint", "x"]) == 2
    assert (
        main(
            ["--no-ui", "--theme", "nord", "--version"] if False else ["--theme", "nord", "--no-ui"]
        )
        == 0
    )
    assert load_preferences().theme == "nord"
    assert WhichtoolApp().theme == "nord"


async def test_help_names_keys_as_typed_and_groups_them_by_screen() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = static_text(app.screen.query_one(Static), width=100)
        assert "Here (Tasks)" in text and "5 Bout" in text and "Everywhere" in text
        assert "slash" not in text and "question_mark" not in text
        lines = [line.split() for line in text.splitlines()]
        assert ["/", "Search"] in lines and ["n", "New", "set"] in lines
