"""The footer never hides a key silently: whole keys only, a visible ``… more ?`` when some did
not fit, only keys that act now; ^p lists every action of every screen by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from tests.support.ui import LAB_INSPECT, UI_DATA, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.help import HelpScreen
from whichtool_tui.ui.widgets.key_footer import MORE_LABEL, KeyFooter

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app

OPENED = {
    "surface": LAB_INSPECT,
    "tasks": UI_DATA / "lab-tasks.yaml",
    "results": UI_DATA / "lab-run.json",
    "bout": UI_DATA / "lab-receipt.json",
}


def keys(app: WhichtoolApp) -> list[FooterKey]:
    return list(app.screen.query_one(KeyFooter).query_children(FooterKey))


def acting(app: WhichtoolApp) -> list[str]:
    """Descriptions of the screen's shown bindings that act now (one per action)."""
    seen: dict[str, str] = {}
    for active in app.screen.active_bindings.values():
        binding = active.binding
        if binding.show and active.enabled and binding.key != app.COMMAND_PALETTE_BINDING:
            seen.setdefault(binding.action, binding.description)
    return list(seen.values())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("section", sorted(OPENED))
async def test_footer_keys_fit_whole_or_say_more(section: str, size: tuple[int, int]) -> None:
    app = WhichtoolApp(load_artefact(OPENED[section]))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.current_mode == section, f"{section} opened")
        await wait_until(pilot, lambda: len(keys(app)) > 2, "the footer's keys")
        await pilot.pause()
        shown = keys(app)
        palette = next(key for key in shown if key.has_class("-command-palette"))
        sized = [key for key in shown if key is not palette]
        for key in sized:  # drawn whole, left of the palette key
            assert key.region.width > 0 and key.region.right <= palette.region.x, key.description
        labels = [key.description for key in sized]
        missing = [label for label in acting(app) if label not in labels]
        assert (MORE_LABEL in labels) == bool(missing), (labels, missing)
        if missing:
            more = next(key for key in sized if key.description == MORE_LABEL)
            assert all(label in str(more.tooltip) for label in missing)
            await pilot.press(more.key)  # it is ?, the help listing every key
            assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize(
    ("section", "idle"),
    [
        ("surface", {"Search", "View pair", "Raw JSON", "Save snapshot", "Re-inspect"}),
        ("run", {"Run", "Plan", "Cancel run"}),
        ("results", {"Save run", "Trials", "Diff vs base"}),
        ("bout", {"Save receipt", "Search", "Copy message", "Followed"}),
        ("tasks", {"Edit", "Delete", "Save", "Undo"}),
    ],
)
async def test_empty_screens_list_no_keys_that_do_nothing(section: str, idle: set[str]) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.switch_mode(section)
        await wait_until(pilot, lambda: len(keys(app)) > 2, "the footer's keys")
        await pilot.pause()
        labels = {key.description for key in keys(app)}
        assert not labels & idle, labels & idle
        assert {"Quit", "Help"} <= labels


async def test_the_palette_lists_every_action_by_name(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for wanted in (
            "Run: Run",
            "Run: Cancel run",
            "Bout: Fixture bout",
            "Bout: Save receipt",
            "Open the demo",
            "Open a file…",
            "Surface: Search",
            "Tasks: Add",
            "Results: Save run",
            "Home: Target",
        ):
            assert titles.count(wanted) == 1, wanted
        assert not any(title.endswith(": Back") for title in titles)


async def test_a_palette_action_runs_on_its_section() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Fixture bout")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.current_mode == "bout", "the Bout section shown")
        await wait_until(pilot, lambda: app.session.bout is not None, "the fixture bout runs")
        await app.workers.wait_for_complete()
