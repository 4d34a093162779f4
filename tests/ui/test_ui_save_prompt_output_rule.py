"""Pilot tests: every TUI save prompt applies the one output rule (issue 25, item 3) with the
files its screen has open as inputs.

For each prompt (snapshot, task set, run report, receipt, patch) the path typed is, in turn,
the open input itself, a symlink and a hard link to it, a directory and ``/proc/version``: each
is refused in one line under the field, the prompt stays open, the input is byte-identical
and nothing is written in the folder. Then a new path in that folder saves.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.support.paths import REPO
from tests.support.ui import UI_DATA, static_text, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.jobs import load_tasks_state
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.usecases.api import ImproveReport

SIZE = (120, 40)
LAB = REPO / "snapshots" / "demo-lab.json"
LAB_TASKS = REPO / "snapshots" / "demo-lab.tasks.yaml"

pytestmark = pytest.mark.usefixtures("isolated_state")

Opener = Callable[[WhichtoolApp, Pilot[int], Path], Awaitable[Path]]


async def open_snapshot(app: WhichtoolApp, pilot: Pilot[int], work: Path) -> Path:
    """Surface, opened on a snapshot file: ``s`` saves the served listing."""
    snapshot = work / "in.json"
    shutil.copy(LAB, snapshot)
    app.show_artefact(load_artefact(snapshot))
    await wait_until(pilot, lambda: app.session.surface is not None, "the surface is shown")
    await app.run_action("screen.save_snapshot")
    return snapshot


async def open_run(app: WhichtoolApp, pilot: Pilot[int], work: Path) -> Path:
    """Results, opened on a run file: ``s`` saves the run report."""
    run = work / "in.json"
    shutil.copy(UI_DATA / "lab-run.json", run)
    assert app.show_artefact(load_artefact(run))
    await pilot.pause()
    await app.run_action("screen.save_report")
    return run


async def open_receipt(app: WhichtoolApp, pilot: Pilot[int], work: Path) -> Path:
    """Bout, opened on a receipt file: ``s`` saves the receipt (with a guess, once made)."""
    receipt = work / "in.json"
    shutil.copy(UI_DATA / "lab-receipt.json", receipt)
    assert app.show_artefact(load_artefact(receipt))
    await pilot.pause()
    bout = app.session.bout
    assert bout is not None and bout.receipt is not None
    await app.run_action("screen.save_receipt")
    return receipt


async def open_tasks(app: WhichtoolApp, pilot: Pilot[int], work: Path) -> Path:
    """Tasks, with the snapshot they are written for open: the task set may be saved back over
    its own file (the editor's save), never over the snapshot."""
    snapshot = work / "in.json"
    shutil.copy(LAB, snapshot)
    tasks = work / "tasks.yaml"
    shutil.copy(LAB_TASKS, tasks)
    await app.inspect_target(TargetChoice("snapshot", str(snapshot))).wait()
    assert app.show_artefact(load_artefact(tasks))
    await pilot.pause()
    await app.run_action("screen.save")
    return snapshot


async def open_patch(app: WhichtoolApp, pilot: Pilot[int], work: Path) -> Path:
    """Propose a fix's patch, for the open snapshot measured on the open task set."""
    snapshot = work / "in.json"
    shutil.copy(LAB, snapshot)
    tasks = work / "tasks.yaml"
    shutil.copy(LAB_TASKS, tasks)
    await app.inspect_target(TargetChoice("snapshot", str(snapshot))).wait()
    app.session.tasks = load_tasks_state(str(tasks))
    await pilot.pause()
    app.write_improve_patch(ImproveReport.model_construct(snapshot=str(snapshot), patch=[]))
    await pilot.pause()
    return snapshot


@dataclass(frozen=True)
class Case:
    name: str
    open: Opener


CASES = [
    Case("snapshot", open_snapshot),
    Case("run report", open_run),
    Case("receipt", open_receipt),
    Case("task set", open_tasks),
    Case("patch", open_patch),
]


def contents(folder: Path) -> dict[str, bytes]:
    """Every entry under ``folder`` and its bytes (links read through)."""
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else b"<dir>"
        for path in sorted(folder.rglob("*"))
    }


async def submit(pilot: Pilot[int], prompt: PathPrompt, path: str) -> str | None:
    """Type ``path`` into the prompt and press enter: the one-line error shown, or None when
    the prompt closed (the path was taken)."""
    prompt.query_one("#path", Input).value = path
    await pilot.press("enter")
    await pilot.pause()
    if not prompt.is_attached:
        return None
    return static_text(prompt.query_one("#path-error", Static))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_every_save_prompt_refuses_its_inputs_a_folder_and_proc(
    case: Case, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    (work / "folder").mkdir(parents=True)
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        source = await case.open(app, pilot, work)
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt), f"{case.name}: no save prompt"
        (work / "link.json").symlink_to(source)
        os.link(source, work / "hard.json")
        before = contents(work)
        refused = {
            str(source): "the same file",
            str(work / "link.json"): "the same file",
            str(work / "hard.json"): "the same file",
            str(work / "folder"): "is a directory",
            "/proc/version": "under /proc, /sys or /dev",
        }
        for path, reason in refused.items():
            error = await submit(pilot, prompt, path)
            assert error is not None and app.screen is prompt, f"{case.name}: took {path}"
            assert reason in error and "\n" not in error.strip(), (case.name, path, error)
        assert contents(work) == before  # the input byte-identical, nothing written
        fresh = work / "fresh.json"
        assert await submit(pilot, prompt, str(fresh)) is None
        assert not isinstance(app.screen, (PathPrompt, ConfirmModal))
        await wait_until(pilot, fresh.exists, f"{case.name}: the fine path was saved")
    assert contents(work) == before | {"fresh.json": fresh.read_bytes()}
    assert fresh.stat().st_size > 0


async def test_a_task_set_is_saved_back_through_a_link_to_its_own_file(tmp_path: Path) -> None:
    """The task set's own file is not an input of its prompt: saving over it (here through a
    symlink) replaces it without a question, and the link stays a link."""
    tasks = tmp_path / "tasks.yaml"
    shutil.copy(LAB_TASKS, tasks)
    link = tmp_path / "link.yaml"
    link.symlink_to(tasks)
    app = WhichtoolApp(load_artefact(tasks))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.run_action("screen.save")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        assert await submit(pilot, prompt, str(link)) is None
        assert not isinstance(app.screen, (PathPrompt, ConfirmModal))
    assert link.is_symlink() and "tasks:" in tasks.read_text(encoding="utf-8")
