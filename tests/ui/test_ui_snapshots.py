"""Snapshot looks of every screen at 120x40 and 80x24 (fixed theme, no animations, fixed data)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.support.ui import LAB_INSPECT, LAB_TOOLS, UI_DATA, lab_report, lab_tools, wide_run
from tests.support.ui_run import power_sized
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp, load_tasks_state
from whichtool_tui.ui.surface_model import build_surface_view

WIDE = (120, 40)
NARROW = (80, 24)
SnapCompare = Callable[..., bool]


pytestmark = pytest.mark.usefixtures("isolated_state")


def app_for(path: Path | None = None) -> WhichtoolApp:
    return WhichtoolApp(load_artefact(path) if path else None, theme="textual-dark")


async def settle(pilot: Pilot[Any]) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    pilot.app.clear_notifications()  # toasts expire on the wall clock: keep them out of looks


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_home(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_surface_from_report(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(LAB_INSPECT), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_surface_findings_focused(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """f: at 80x24 the findings take the pane under the tools (the detail folds away)."""

    async def focus_findings(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("f", "down")
        await settle(pilot)

    assert snap_compare(app_for(LAB_INSPECT), terminal_size=size, run_before=focus_findings)


def test_surface_pair_view(snap_compare: SnapCompare) -> None:
    async def open_pair(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app_for(LAB_TOOLS), terminal_size=WIDE, run_before=open_pair)


def test_help(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(LAB_INSPECT), press=["question_mark"], terminal_size=WIDE)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_tasks(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(UI_DATA / "lab-tasks.yaml"), terminal_size=size)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_run_plan(snap_compare: SnapCompare, size: tuple[int, int], tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.yaml"
    shutil.copy(UI_DATA / "lab-run-tasks.yaml", tasks)

    async def load(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, WhichtoolApp)
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        app.session.tasks = load_tasks_state(str(tasks))
        app.session.tasks.path = "tasks.yaml"
        await pilot.press("3")
        await power_sized(app, pilot)
        await settle(pilot)

    assert snap_compare(app_for(), terminal_size=size, run_before=load)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_results(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(UI_DATA / "lab-run.json"), terminal_size=size, run_before=settle)


def test_results_cell_trials(snap_compare: SnapCompare) -> None:
    async def open_cell(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("down", "down", "down", "down", "down", "right", "right", "right")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app_for(UI_DATA / "lab-run.json"), terminal_size=WIDE, run_before=open_cell)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_bout_before_guess(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(UI_DATA / "lab-receipt.json"), terminal_size=size)


def test_bout_after_guess(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(UI_DATA / "lab-receipt.json"), press=["h"], terminal_size=WIDE)


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x40", "80x24"])
def test_results_twelve_tools(
    snap_compare: SnapCompare, size: tuple[int, int], tmp_path: Path
) -> None:
    """Twelve long, alike names: distinct row labels, none/?/+ reachable, a full legend line."""
    report = wide_run(tmp_path / "wide-run.json")

    async def to_the_last_column(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("down", "down", "down", *["right"] * 14)
        await settle(pilot)

    assert snap_compare(app_for(report), terminal_size=size, run_before=to_the_last_column)


def test_results_heatmap_light_theme(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The intensity scale and every label read on a light background."""
    app = WhichtoolApp(load_artefact(wide_run(tmp_path / "wide-run.json")), theme="textual-light")
    assert snap_compare(app, terminal_size=WIDE, run_before=settle)
