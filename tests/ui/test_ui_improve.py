"""Pilot tests of "propose a fix": from a Surface finding and from a Results confusion cell, the
candidates beside the originals with their held-out figures, and ``a`` writing the patch."""

from __future__ import annotations

import json
from pathlib import Path

import jsonpatch
import pytest
from textual.widgets import Input, Static

from tests.support.paths import REPO
from tests.support.ui import static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.cli import main
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.jobs import load_tasks_state
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.modals.proposal import ProposalModal
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap
from whichtool_tui.ui.widgets.surface_tables import FindingTable

LAB = REPO / "snapshots" / "demo-lab.json"
IMPROVE_TASKS = REPO / "snapshots" / "demo-lab.improve.tasks.yaml"
SIZE = (120, 40)

pytestmark = pytest.mark.usefixtures("isolated_state")


def modal_text(modal: ProposalModal) -> str:
    return "\n".join(static_text(widget, width=300) for widget in modal.query(Static))


async def test_propose_a_fix_from_a_surface_finding_and_write_the_patch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.inspect_target(TargetChoice("snapshot", str(LAB))).wait()
        app.session.tasks = load_tasks_state(str(IMPROVE_TASKS))
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#findings", FindingTable)
        listed = table.findings
        row = next(
            i for i, f in enumerate(listed) if f.code == "descriptions/overlap-without-preference"
        )
        table.focus()
        table.cursor = row
        await pilot.press("p")
        modal = app.screen
        assert isinstance(modal, ProposalModal)
        assert modal.tools == ("list_orders", "search_orders")
        await wait_until(pilot, lambda: modal.report is not None, "the measurement finished")
        await pilot.pause()
        report = modal.report
        assert report is not None
        assert {c.tool for c in report.candidates} == {"list_orders", "search_orders"}
        shown = modal_text(modal)
        # Each candidate beside its original, then its figures and decision.
        assert "Use `search_orders` instead to list orders that match a text query." in shown
        assert "passes the held-out gates" in shown and "rejected" in shown
        assert "held-out accuracy 30/35 86%" in shown and "-> 35/35 100%" in shown
        assert "Accepted on held-out tasks: search_orders#2" in shown
        await pilot.press("a")
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        # The output rule: the patch may not replace the snapshot it patches (no overwrite
        # question is even asked).
        field = prompt.query_one("#path", Input)
        default = field.value
        field.value = str(LAB)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is prompt
        assert "the same file" in static_text(prompt.query_one("#path-error", Static))
        field.value = default
        await pilot.press("enter")
        written = tmp_path / "demo-lab.patch.json"
        await wait_until(pilot, written.exists, "the patch was written")
        patch = json.loads(written.read_text(encoding="utf-8"))
        assert patch == [op.model_dump(mode="json") for op in report.patch]
        patched = jsonpatch.apply_patch(json.loads(LAB.read_text(encoding="utf-8")), patch)
        accepted = next(c for c in report.candidates if c.accepted)
        assert patched["tools"][1]["description"] == accepted.description_after


@pytest.fixture
def demo_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A saved keyword run of the demo surface on the improve task set."""
    run = tmp_path / "run.json"
    code = main(
        ["--no-ui", "run", str(LAB), "--tasks", str(IMPROVE_TASKS), "--provider", "keyword",
         "--format", "json", "--out", str(run), "--no-cache", "--max-trials", "100"]
    )  # fmt: skip
    capsys.readouterr()
    assert code == 0
    return run


async def test_propose_a_fix_from_a_results_cell_reads_the_open_run(demo_run: Path) -> None:
    run = demo_run
    app = WhichtoolApp(load_artefact(run))
    async with app.run_test(size=SIZE) as pilot:
        await app.inspect_target(TargetChoice("snapshot", str(LAB)), "results").wait()
        app.session.tasks = load_tasks_state(str(IMPROVE_TASKS))
        await pilot.pause()
        heatmap = app.screen.query_one(ConfusionHeatmap)
        heatmap.cursor = (heatmap.rows.index("search_orders"), heatmap.columns.index("(none)"))
        await pilot.press("p")
        modal = app.screen
        assert isinstance(modal, ProposalModal) and modal.tools == ("search_orders",)
        await wait_until(pilot, lambda: modal.report is not None, "the measurement finished")
        report = modal.report
        assert report is not None and report.base_run == "the open run"
        assert {c.tool for c in report.candidates} == {"search_orders"}
        assert report.accepted_tools == ["search_orders"]
        await pilot.press("escape")
        assert not isinstance(app.screen, ProposalModal)


async def test_propose_a_fix_says_what_is_missing() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.inspect_target(TargetChoice("snapshot", str(LAB))).wait()
        await pilot.pause()
        app.screen.query_one("#findings", FindingTable).focus()
        await pilot.press("p")
        await pilot.pause()
        assert not isinstance(app.screen, ProposalModal)
        assert any("Open a task set" in str(n.message) for n in app._notifications)
