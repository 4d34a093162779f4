"""Pilot tests of the Results section and the ConfusionHeatmap widget, from a real keyword run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from tests.support.ui import UI_DATA, lab_report, lab_tools, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.trials import TrialsModal
from whichtool_tui.ui.surface_model import build_surface_view
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap, abbreviate

LAB_RUN = UI_DATA / "lab-run.json"
SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("isolated_state")


def test_abbreviations_are_unique_and_short() -> None:
    names = ["list_users", "list_tickets", "listUsersFast", "search_users", "(none)", "(phantom)"]
    labels = abbreviate(names)
    assert len(set(labels.values())) == len(names)
    assert all(len(label) <= 4 for label in labels.values())
    assert labels["(none)"] == "none" and labels["(phantom)"] == "?"
    assert labels["search_users"] == "sear"


async def test_heatmap_maps_matrix_and_opens_cell_trials() -> None:
    app = WhichtoolApp(load_artefact(LAB_RUN))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "results"
        heatmap = app.screen.query_one(ConfusionHeatmap)
        matrix = json.loads(LAB_RUN.read_text())["metrics"]["confusionMatrix"]
        for row_index, row in enumerate(heatmap.rows):
            for column_index, column in enumerate(heatmap.columns):
                assert heatmap.count(row_index, column_index) == matrix.get(row, {}).get(column, 0)
        assert heatmap.has_focus
        # search_users row, list_users column: the keyword baseline's confusion.
        row = heatmap.rows.index("search_users")
        column = heatmap.columns.index("list_users")
        await pilot.press(*(["down"] * row), *(["right"] * column))
        info = static_text(app.screen.query_one("#cell-info", Static))
        assert "search_users → list_users: 3 trials" in info
        await pilot.press("enter")
        assert isinstance(app.screen, TrialsModal)
        table = app.screen.query_one("#trial-table", DataTable)
        assert table.row_count == 3
        detail = static_text(app.screen.query_one("#trial-detail", Static))
        assert "List users whose names or emails include Ada" in detail
        assert "wrong-tool" in detail and "list_users" in detail
        await pilot.press("escape")
        head = static_text(app.screen.query_one("#results-head", Static))
        assert "keyword" in head and "accuracy 0.75" in head
        per_tool = static_text(app.screen.query_one("#per-tool", Static))
        assert "search_users" in per_tool and "list_users×3" in per_tool


async def test_cell_notes_the_inspect_finding_on_that_pair() -> None:
    app = WhichtoolApp(load_artefact(LAB_RUN))
    async with app.run_test(size=SIZE) as pilot:
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        await pilot.pause()
        heatmap = app.screen.query_one(ConfusionHeatmap)
        heatmap.cursor = (heatmap.rows.index("search_users"), heatmap.columns.index("list_users"))
        await pilot.pause()
        info = static_text(app.screen.query_one("#cell-info", Static))
        assert "inspect: overlap 0.90 on this pair" in info


async def test_heatmap_click_selects_a_cell() -> None:
    app = WhichtoolApp(load_artefact(LAB_RUN))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        heatmap = app.screen.query_one(ConfusionHeatmap)
        await pilot.click(ConfusionHeatmap, offset=(15 + 5 * 2 + 2, 1 + 1))
        assert heatmap.cursor == (1, 2)


async def test_invalid_run_report_is_a_toast(tmp_path: Path) -> None:
    data = json.loads(LAB_RUN.read_text())
    data["metrics"]["accuracy"]["numerator"] = 99
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    app = WhichtoolApp(load_artefact(broken))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "home"
        assert any(n.severity == "error" for n in app._notifications)


async def test_diff_against_base_and_opened_diff(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run-head.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("b")
        app.screen.query_one("#path", Input).value = str(LAB_RUN)
        await pilot.press("enter")
        # The diff runs in an App worker, off the UI, started by the prompt's answer (a
        # message after the key): wait for the diff it leaves, not for the workers of now.
        await wait_until(pilot, lambda: app.session.diff is not None, "the diff is computed")
        await pilot.pause()
        report = app.session.diff
        assert report is not None and report.comparable is True  # the typed whichtool.diff/2
        view = static_text(app.screen.query_one("#diff-view", Static))
        # The same report as the headless `diff` prints, line for line (one renderer).
        from whichtool_tui.reports.diff_terminal import render_diff_terminal

        headless = render_diff_terminal(report)
        assert [line.rstrip() for line in view.splitlines() if line.strip()] == [
            line.rstrip() for line in headless.splitlines() if line.strip()
        ]
        assert "+0/-0 of 12 paired" in view and "context" in view and "status ok" in view
        await pilot.press("d")
        assert app.screen.query_one("#results-body").display
        await pilot.press("s")
        saved = tmp_path / "saved-run.json"
        app.screen.query_one("#path", Input).value = str(saved)
        await pilot.press("enter")
        await wait_until(pilot, saved.exists, "the run was saved")  # by the prompt's answer
        from whichtool_tui.evaluation.reader import load_run_report

        assert load_run_report(saved).metrics == app.session.run.metrics  # type: ignore[union-attr]
    opened = WhichtoolApp(load_artefact(UI_DATA / "lab-diff.json"))
    async with opened.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert opened.current_mode == "results"
        view = static_text(opened.screen.query_one("#diff-view", Static))
        assert "single-call" in view and "resolved list_users <-> search_users" in view
