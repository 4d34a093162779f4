"""The Run section opened on the lab surface, shared by the Pilot tests of runs and results."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from tests.support.ui import UI_DATA, lab_report, lab_tools
from whichtool_tui.ui.app import WhichtoolApp, load_tasks_state
from whichtool_tui.ui.session import RunForm
from whichtool_tui.ui.surface_model import build_surface_view

SIZE = (120, 40)


async def open_lab_run(
    app: WhichtoolApp,
    pilot: Pilot[None],
    tmp_path: Path,
    repeat: str,
    form: RunForm | None = None,
) -> None:
    """Load the lab surface and tasks, open the Run section and set the repeat count."""
    tasks = tmp_path / "tasks.yaml"
    shutil.copy(UI_DATA / "lab-run-tasks.yaml", tasks)
    app.session.surface = build_surface_view(lab_report(), lab_tools())
    # never the repo's folder
    app.session.run_form = form or RunForm(cache_dir=str(tmp_path / "cache"))
    app.session.tasks = load_tasks_state(str(tasks))
    await pilot.press("3")
    app.screen.query_one("#run-repeat", Input).value = repeat


async def power_sized(app: WhichtoolApp, pilot: Pilot[None]) -> None:
    """Let the form's last change reach the Run screen and wait until its power plan is sized
    (the App simulates it in a thread worker, which returns once the plan is drawn)."""
    await pilot.pause()
    sizing = [worker for worker in app.workers if worker.group == "power"]
    await app.workers.wait_for_complete(sizing)
    await pilot.pause()
