"""80x24 keeps the essentials: the Bout screen's per-atom state and verdicts one key away (a),
the Tasks header's counts and surface match (its path shortens first)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.ui import UI_DATA, lab_report, lab_tools, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp, load_tasks_state
from whichtool_tui.ui.short_paths import shorten_path, shorten_paths_in
from whichtool_tui.ui.surface_model import build_surface_view
from whichtool_tui.ui.widgets.timeline import RpcTimeline

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app
NARROW = (80, 24)


def shown_whole(app: WhichtoolApp, selector: str) -> bool:
    region = app.screen.query_one(selector).region
    return region.height > 0 and region.bottom <= app.size.height - 1


async def test_bout_atoms_and_verdicts_are_one_key_away_at_80x24() -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=NARROW) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen.focused, RpcTimeline), "the wire")
        screen = app.screen
        assert not screen.query_one("#atoms-pane").display or not shown_whole(app, "#atoms-pane")
        assert screen.check_action("toggle_atoms", ())
        await pilot.press("h", "a")
        await pilot.pause()
        assert shown_whole(app, "#atoms-pane") and shown_whole(app, "#verdict-pane")
        atoms = static_text(screen.query_one("#atoms", Static), 76)
        assert "poison.follow_through" in atoms and "FAIL" in atoms  # state and verdict
        await pilot.press("escape")  # escape folds the atoms back over the wire
        await pilot.pause()
        assert shown_whole(app, "#wire-pane") and app.current_mode == "bout"


async def test_the_atoms_key_is_only_offered_where_the_pane_folds() -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen.focused, RpcTimeline), "the wire")
        assert not app.screen.check_action("toggle_atoms", ())
        assert shown_whole(app, "#atoms-pane")


async def test_tasks_header_keeps_counts_and_match_at_80_columns(tmp_path: Path) -> None:
    deep = tmp_path / "a-rather-long-folder-name" / "and-another-one" / "lab.tasks.yaml"
    deep.parent.mkdir(parents=True)
    shutil.copy(UI_DATA / "lab-tasks.yaml", deep)
    app = WhichtoolApp()
    async with app.run_test(size=NARROW) as pilot:
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        app.session.tasks = load_tasks_state(str(deep))
        await pilot.press("2")
        await pilot.pause()
        head = static_text(app.screen.query_one("#tasks-head", Static), 78)
        assert len(head.splitlines()) == 1, head
        assert "lab.tasks.yaml" in head and "…/" in head
        assert "tasks ·" in head and "distractors" in head and "surface" in head


def test_paths_shorten_from_the_left() -> None:
    assert shorten_path("/a/b/c/demo-lab.tasks.yaml", 40) == "/a/b/c/demo-lab.tasks.yaml"
    assert shorten_path("/home/me/work/demo-lab.tasks.yaml", 26) == "…/work/demo-lab.tasks.yaml"
    assert shorten_path("/home/me/work/demo-lab.tasks.yaml", 21) == "…/demo-lab.tasks.yaml"


def test_toast_paths_shorten_from_the_left() -> None:
    message = "Saved 6 tools to /home/someone/projects/very/deep/folder/for/snapshot.json now"
    said = shorten_paths_in(message, 30)
    assert said.startswith("Saved 6 tools to …/") and said.endswith("/snapshot.json now")
    assert shorten_paths_in("a b/c ok", 30) == "a b/c ok"


async def test_messages_are_numbered_across_the_whole_wire() -> None:
    """A receipt's seq restarts with each atom: the timeline and the message pane number the
    whole wire (and say the atom's seq), so "Message #8" names the eighth message."""
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen.focused, RpcTimeline), "the wire")
        bout = app.session.bout
        assert bout is not None
        later = next(i for i, row in enumerate(bout.rows) if i > 0 and row.seq == 1)
        await pilot.press(*["down"] * later)
        pane = app.screen.query_one("#message-pane")
        await wait_until(
            pilot, lambda: str(pane.border_title).startswith(f"Message #{later + 1} "), "title"
        )
        assert "seq 1)" in str(pane.border_title)
