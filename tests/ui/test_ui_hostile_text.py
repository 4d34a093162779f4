"""The TUI behind the output boundary: a hostile surface, run and receipt on every section.

Each saved file is made by the real command line from the hostile inputs of the output matrix
(OSC 52, ``ESC[2K``, BEL, U+202E, a zero-width space, ``<script>``, pipes and backticks in tool
names, descriptions, prompts and a model's answer); the app opens it, and every section's
painted screen must show the hostile text escaped and carry no raw control or bidi character.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faces.test_hostile_outputs import RAW, _write_inputs
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.cli import main
from whichtool_tui.ui.app import WhichtoolApp

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app

SIZE = (140, 45)


@pytest.fixture
def saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    _write_inputs(tmp_path)
    tasks = ["--tasks", "hostile.tasks.json"]
    inspect = ["--no-ui", "inspect", "hostile.json", *tasks, "--format", "json"]
    assert main([*inspect, "--out", "inspect.json"]) in (0, 1)
    run = ["--no-ui", "run", "hostile.json", *tasks, "--provider", "keyword", "--repeat", "1"]
    assert main([*run, "--format", "json", "--out", "run.json"]) in (0, 1)
    return tmp_path


@pytest.mark.parametrize("name", ["inspect.json", "run.json", "hostile-receipt.json"])
async def test_every_section_paints_outside_text_escaped(name: str, saved: Path) -> None:
    app = WhichtoolApp(load_artefact(saved / name))
    painted: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        painted.append(app.export_screenshot())
        for key in ("1", "2", "3", "4", "5"):
            await pilot.press(key)
            await pilot.pause()
            painted.append(app.export_screenshot())
        painted += [n.message + n.title for n in app._notifications]
    for screen in painted:
        raw = RAW.search(screen)
        assert raw is None, (
            f"raw {raw.group(0)!r}: {screen[max(0, raw.start() - 1500) : raw.end()]!r}"
        )
        assert "<script>alert" not in screen  # the SVG itself would not parse
    assert any("\\x1b]52" in screen for screen in painted), "the hostile text was not shown"
