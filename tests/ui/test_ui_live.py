"""Pilot tests of live updates: a run drawn trial by trial, a bout's wire and atoms as they come."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select, Static

from tests.support.fake_apis import (
    FakeApi,
    FakeReply,
    RecordedRequest,
    chat_reply,
    fake_api_server,
    http_error,
)
from tests.support.ui import static_text, wait_until
from tests.support.ui_run import open_lab_run
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.run import RunScreen
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap
from whichtool_tui.ui.widgets.timeline import RpcTimeline

SIZE = (120, 40)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


@dataclass
class GatedApi:
    """A Chat Completions endpoint the test paces: every prompt but the weather one picks
    list_users once ``answers`` is released for it; the weather prompt fails with a 400 only
    once ``error_released`` is set.

    The error is held back on purpose: a six-trial run has an error budget of zero, so once an
    error is in, the trials not yet sent are never sent. Which in-flight request the server
    answers first is up to its threads; holding the error until every trial has gone out makes
    the run the same whichever it is.
    """

    api: FakeApi
    answers: threading.Semaphore
    error_released: threading.Event


@pytest.fixture
def gated_api() -> Iterator[GatedApi]:
    answers, error_released = threading.Semaphore(0), threading.Event()

    def answer(request: RecordedRequest) -> FakeReply:
        prompt = str(request.json["messages"][-1]["content"])
        if "Rome" in prompt:
            error_released.wait(timeout=60)
            return http_error(400, "model overloaded: try later")
        answers.acquire(timeout=60)
        return chat_reply(calls=[("list_users", "{}")])

    with fake_api_server() as api:
        api.responder = answer
        yield GatedApi(api, answers, error_released)


def stats(app: WhichtoolApp) -> str:
    return static_text(app.screen.query_one("#run-stats", Static))


async def test_run_draws_progress_heatmap_and_errors_live_then_freezes(
    tmp_path: Path, gated_api: GatedApi
) -> None:
    api = gated_api.api
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "1")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        assert "not a model" in static_text(screen.query_one("#run-plan", Static))
        screen.query_one("#run-provider", Select).value = "openai-compatible"
        await pilot.pause()
        # The plan follows the provider at once: the keyword note is gone.
        assert "not a model" not in static_text(screen.query_one("#run-plan", Static))
        screen.query_one("#run-model", Input).value = "m"
        screen.query_one("#run-base-url", Input).value = api.base_url + "/v1"
        screen.set_focus(None)
        await pilot.press("r")
        assert screen.check_action("cancel", ()) is True
        assert screen.check_action("run", ()) is False
        gated_api.answers.release(2)
        await wait_until(pilot, lambda: "2/6" in stats(app), "two trials drawn while running")
        assert "eta " in stats(app) and "running" in stats(app)
        heatmap = screen.query_one("#run-heatmap", ConfusionHeatmap)
        running = app.session.progress
        assert running is not None
        counted = sum(n for row in heatmap.matrix.values() for n in row.values())
        assert running.errors == 0 and counted == 2  # the error is still held back
        per_tool = static_text(screen.query_one("#run-per-tool", Static))
        # Which two prompts were answered first is up to the thread pool: check whatever was.
        assert running.by_tool or running.distractors
        for tool, (correct, seen) in running.by_tool.items():
            assert f"{tool}" in per_tool and f"({correct}/{seen})" in per_tool, per_tool
        assert running.distractors == 0 or "over-trigger" in per_tool, per_tool
        gated_api.answers.release(3)  # the other non-weather trials
        await wait_until(pilot, lambda: "5/6" in stats(app), "every other trial drawn")
        gated_api.error_released.set()
        finished = lambda: "6/6" in stats(app) and "took " in stats(app)  # noqa: E731
        await wait_until(pilot, finished, "the finished run is drawn")
        latest = static_text(screen.query_one("#run-latest", Static))
        assert "error: " in latest and "overloaded" in latest, latest
        assert "errors 1" in stats(app) and "took " in stats(app)
        progress = app.session.progress
        assert progress is not None and progress.state == "finished"
        frozen = progress.rate
        frames = screen.frames_drawn
        await pilot.pause(0.6)  # longer than two redraw periods
        assert progress.rate == frozen  # the rate stopped with the run
        assert screen.frames_drawn == frames  # and an idle screen draws nothing
        assert sum(n for row in heatmap.matrix.values() for n in row.values()) == 5


@pytest.fixture
def held_bout(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """The real lab bout, whose events after the fifth wire row reach the screen only once the
    returned event is set: on a quiet machine the whole bout can end between two redraws, so a
    test that must see it half-way holds the rest of the events back (the bout itself runs at
    full speed; only their delivery to the screen waits)."""
    from whichtool_tui.arcade import bout as bout_module
    from whichtool_tui.arcade.events import BoutEvent, WireEvent

    real_run_bout = bout_module.run_bout
    release = asyncio.Event()

    async def run_bout_held(plan: Any, sink: Any, *args: Any, **kwargs: Any) -> Any:
        held: list[BoutEvent] = []
        wire_rows = 0

        def pace(event: BoutEvent) -> None:
            nonlocal wire_rows
            wire_rows += isinstance(event, WireEvent)
            if wire_rows > 5 or held:
                held.append(event)
            else:
                sink(event)

        receipt = await real_run_bout(plan, pace, *args, **kwargs)
        await release.wait()
        for event in held:
            sink(event)
        return receipt

    monkeypatch.setattr(bout_module, "run_bout", run_bout_held)
    return release


async def test_bout_wire_and_atoms_appear_while_it_runs(held_bout: asyncio.Event) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "b")
        await wait_until(
            pilot,
            lambda: (
                app.session.bout is not None
                and app.session.bout.live_atoms is not None
                and len(app.screen.query_one(RpcTimeline).rows) > 3
            ),
            "wire rows on screen while the bout runs",
        )
        live = app.session.bout
        assert live is not None and live.live_atoms is not None
        assert "running…" in static_text(app.screen.query_one("#atoms", Static))
        assert "The bout is running" in static_text(app.screen.query_one("#verdict", Static))
        assert ", live)" in str(app.screen.query_one("#wire-pane").border_title)
        await pilot.press("h")  # no guess while it runs: the call comes after the wire
        assert live.guess is None
        held_bout.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        final = app.session.bout
        assert final is not None and final is not live and final.receipt is not None
        assert final.live_atoms is None
        assert len(app.screen.query_one(RpcTimeline).rows) == len(final.receipt.wire)
        assert "Your call before the verdicts" in static_text(
            app.screen.query_one("#verdict", Static)
        )
        # The finished wire takes the focus from the live one, so a section key is a section
        # key, not a letter typed into the search field the live timeline's removal left.
        await wait_until(
            pilot,
            lambda: isinstance(app.screen.focused, RpcTimeline),
            "the finished wire holds the focus",
        )
        await pilot.press("0")
        await wait_until(pilot, lambda: app.current_mode == "home", "0 went home")
