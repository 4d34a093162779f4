"""Write the README's screenshot: the TUI's Surface screen on the bundled demo, as an SVG.

Run from the repository root: ``python -m tests.support.readme_screenshot``. Textual's own
``save_screenshot`` draws it, at a fixed size and theme, so it changes only when the screen does.
"""

from __future__ import annotations

import asyncio
import sys

from tests.support.paths import REPO, SNAPSHOTS
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.session import TargetChoice

OUT = REPO / "docs" / "tui-surface.svg"
SIZE = (110, 32)


async def capture() -> None:
    """Inspect the demo surface in the app and save what the screen shows."""
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.inspect_target(TargetChoice("snapshot", str(SNAPSHOTS / "demo-lab.json")))
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause(0.5)
        app.save_screenshot(filename=OUT.name, path=str(OUT.parent))


if __name__ == "__main__":
    asyncio.run(capture())
    sys.stdout.write(f"wrote {OUT.relative_to(REPO)}\n")
