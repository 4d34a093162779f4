"""Pilot tests of the Run section: plan first, budget confirmation, live progress, cancel."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from tests.support.ui import static_text, wait_until
from tests.support.ui_run import SIZE, open_lab_run
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.session import RunForm

pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


@pytest.fixture
def hanging_server() -> Iterator[tuple[str, threading.Event]]:
    """A Chat Completions endpoint on loopback that never answers until released."""
    release = threading.Event()
    arrived = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            arrived.set()
            release.wait(10)
            self.send_response(503)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", arrived
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


async def test_plan_then_keyword_run_fills_results(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "3")
        await pilot.press("p")
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "6 tasks × 3 repeats = 18 trials" in plan
        assert "prompt floor" in plan and "50 trials ✓" in plan
        assert "not a model" in plan
        assert "wall clock unknown" in plan
        app.screen.query_one("#run-seconds", Input).value = "2"
        await pilot.pause()
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "~9 s at 2 s/trial, concurrency 4" in plan
        await pilot.press("r")
        await app.workers.wait_for_complete()
        assert app.session.run is not None
        assert app.session.progress is not None and app.session.progress.state == "finished"
        await wait_until(  # progress redraws on a timer
            pilot,
            lambda: "18/18" in static_text(app.screen.query_one("#run-stats", Static)),
            "the progress line shows 18/18",
        )
        stats = static_text(app.screen.query_one("#run-stats", Static))
        assert "18/18" in stats and "accuracy 0.75" in stats
        assert "over-triggered" in static_text(app.screen.query_one("#run-latest", Static))
        await pilot.press("4")
        assert app.screen.query_one("#results-head", Static).display


def cache_hits(app: WhichtoolApp) -> list[str]:
    assert app.session.run is not None
    return [d.message for d in app.session.run.diagnostics if d.code == "run/cache-hits"]


async def test_second_identical_run_is_answered_from_the_cache(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "1")
        await pilot.press("r")
        await app.workers.wait_for_complete()
        assert cache_hits(app) == []
        first = app.session.run
        entries = list((tmp_path / "cache" / "trials").glob("*/*.json"))
        assert len(entries) == 6
        await pilot.press("r")
        await app.workers.wait_for_complete()
        assert app.session.run is not first
        assert cache_hits(app) == ["Answered from the trial cache (latency 0): 6 of 6 trials."]


async def test_no_cache_from_the_run_command_keeps_runs_uncached(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        form = RunForm(cache=False, cache_dir=str(tmp_path / "cache"))
        await open_lab_run(app, pilot, tmp_path, "1", form)
        for _ in range(2):
            await pilot.press("r")
            await app.workers.wait_for_complete()
            assert cache_hits(app) == []
        assert not (tmp_path / "cache").exists()


async def test_budget_raise_needs_confirmation(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "10")
        await pilot.press("p")
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "60 trials" in plan and "50 trials ✖" in plan
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        assert app.session.progress is None
        await pilot.press("r")
        await pilot.press("y")
        await app.workers.wait_for_complete()
        assert app.session.run is not None
        assert app.session.run.execution.planned == 60


async def test_cancel_leaves_no_report(
    tmp_path: Path, hanging_server: tuple[str, threading.Event]
) -> None:
    url, arrived = hanging_server
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "1")
        app.screen.query_one("#run-provider", Select).value = "openai-compatible"
        app.screen.query_one("#run-model", Input).value = "m"
        app.screen.query_one("#run-base-url", Input).value = url
        app.screen.query_one("#run-repeat", Input).focus()
        await pilot.press("escape")
        app.screen.set_focus(None)
        await pilot.press("r")
        await wait_until(pilot, arrived.is_set, "the request reached the hanging server")
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await wait_until(  # progress redraws on a timer
            pilot,
            lambda: "cancelled" in static_text(app.screen.query_one("#run-stats", Static)),
            "the progress line says cancelled",
        )
        assert app.session.progress is not None and app.session.progress.state == "cancelled"
        assert app.session.run is None
        assert "cancelled: no report" in static_text(app.screen.query_one("#run-stats", Static))
        assert not any(name.endswith(".json") for name in os.listdir(tmp_path))
