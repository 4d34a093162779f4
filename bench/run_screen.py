"""Run screen stall: how long the event loop is blocked while the plan is drawn and sized.

Each figure is one fresh process (the power plan's caches start cold, as in a new session):
the whole app under Pilot at 120x40 with the demo's surface and task set loaded, then

- ``open``: press 3 (the Run screen's first visit);
- ``repeat``: with the Run screen open and sized, type a repeat count off the standard ones (7);
- ``again``: type back a count sized before (5), which the caches answer.

For each it prints the longest single stall of the event loop (a 5 ms ticker's largest gap:
the screen is unresponsive for that long), the time until the plan's trials line is shown,
and the time until its power lines are. Run with PYTHONDONTWRITEBYTECODE unset, after
``.venv/bin/python -m compileall -q whichtool_tui``. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
RUNS = 3  # fresh processes per figure: min and median are printed
TICK = 0.005


class StallMeter:
    """A ticker on the event loop: the largest gap between its ticks is the longest stall."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - TICK)
            last = now

    def start(self) -> None:
        self.longest = 0.0
        self._task = asyncio.get_running_loop().create_task(self._tick())

    def stop(self) -> float:
        assert self._task is not None
        self._task.cancel()
        return self.longest


def plan_text(app: object) -> str:
    from textual.css.query import NoMatches
    from textual.widgets import Static

    from tests.support.ui import static_text

    try:
        return static_text(app.screen.query_one("#run-plan", Static))  # type: ignore[attr-defined]
    except NoMatches:
        return ""  # the screen is not mounted yet


async def wait_for(pilot: object, condition: object, started: float) -> float:
    while not condition():  # type: ignore[operator]
        await asyncio.sleep(0.005)
        if time.perf_counter() - started > 120:
            raise RuntimeError("the plan never showed")
    return time.perf_counter() - started


async def measure(figure: str) -> tuple[float, float, float]:
    from textual.widgets import Input

    from whichtool_tui.ui.app import WhichtoolApp, load_tasks_state
    from whichtool_tui.ui.engine import demo_folder
    from whichtool_tui.ui.session import RunForm
    from whichtool_tui.usecases.artefacts import open_artefact

    folder = demo_folder()
    assert folder is not None
    app = WhichtoolApp()
    meter = StallMeter()
    with tempfile.TemporaryDirectory(prefix="wt-bench-") as cache:
        async with app.run_test(size=(120, 40)) as pilot:
            snapshot = open_artefact(str(folder / "demo-lab.json"))
            app.show_artefact(snapshot)
            await pilot.pause()
            app.session.run_form = RunForm(cache_dir=cache)
            app.session.tasks = load_tasks_state(str(folder / "demo-lab.tasks.yaml"))

            def shown() -> bool:
                return "trials" in plan_text(app)

            def sized() -> bool:
                text = plan_text(app)
                return "80% power" in text or "power plan:" in text

            if figure != "open":
                await pilot.press("3")
                await wait_for(pilot, sized, time.perf_counter())
                await app.workers.wait_for_complete()
            repeat = {"open": None, "repeat": "7", "again": "5"}[figure]
            if figure == "again":
                app.screen.query_one("#run-repeat", Input).value = "7"
                await wait_for(pilot, sized, time.perf_counter())
                await app.workers.wait_for_complete()
                await wait_for(pilot, lambda: "× 7 repeats" in plan_text(app), time.perf_counter())
            await pilot.pause(0.2)
            meter.start()
            started = time.perf_counter()
            if repeat is None:
                # Not pilot.press: it waits for the process to go idle, which a simulation
                # in a thread never lets it do (up to a second per wait).
                app.call_later(app.action_switch_section, "run")
                drawn = await wait_for(pilot, shown, started)
            else:
                app.screen.query_one("#run-repeat", Input).value = repeat
                drawn = await wait_for(
                    pilot, lambda: f"× {repeat} repeats" in plan_text(app), started
                )
            done = await wait_for(pilot, sized, started)
            await pilot.pause(0.05)
            return meter.stop(), drawn, done


def spread(values: list[float]) -> str:
    return f"min {min(values) * 1000:.0f} ms, median {statistics.median(values) * 1000:.0f} ms"


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        stall, drawn, done = asyncio.run(measure(sys.argv[2]))
        print(f"{stall} {drawn} {done}")
        return
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for figure in ("open", "repeat", "again"):
        stalls, drawns, dones = [], [], []
        for _ in range(RUNS):
            out = subprocess.run(
                [sys.executable, __file__, "--one", figure],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            stall, drawn, done = (float(value) for value in out[-3:])
            stalls.append(stall)
            drawns.append(drawn)
            dones.append(done)
        print(
            f"{figure:>6}: longest stall {spread(stalls)}; plan shown {spread(drawns)}; "
            f"power shown {spread(dones)}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
