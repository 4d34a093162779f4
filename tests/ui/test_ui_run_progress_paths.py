"""Live progress on every way a run starts: plain r, after "Raise limits?", after a cancel.

The provider is a real Chat Completions endpoint on loopback that answers each trial after a
short delay, so a run lasts long enough for the screen to be seen mid-run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input, ProgressBar, Select, Static
from textual.widgets._footer import FooterKey

from tests.support.fake_apis import FakeApi, FakeReply, RecordedRequest, chat_reply, fake_api_server
from tests.support.ui import static_text, wait_until
from tests.support.ui_run import open_lab_run
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.widgets.key_footer import KeyFooter

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # a loopback server

TRIAL_DELAY = 0.15  # seconds the model takes per trial: 60 trials at concurrency 4 take ~2 s


@pytest.fixture
def slow_model() -> Iterator[FakeApi]:
    """A Chat Completions server that always picks list_users, a little slowly."""

    def answer(_request: RecordedRequest) -> FakeReply:
        return chat_reply(calls=[("list_users", "{}")]).slow(TRIAL_DELAY)

    with fake_api_server() as api:
        api.responder = answer
        yield api


def done_count(app: WhichtoolApp) -> int:
    """The trials the progress line says are done (``12/60  …``), or -1 before any."""
    found = re.match(r"(\d+)/\d+", static_text(app.screen.query_one("#run-stats", Static)))
    return int(found.group(1)) if found else -1


def footer_keys(app: WhichtoolApp) -> str:
    """The footer's enabled keys as shown (after its recompose caught up)."""
    keys = app.screen.query_one(KeyFooter).query(FooterKey)
    return " ".join(key.description for key in keys if not key.disabled)


async def use_model(app: WhichtoolApp, api: FakeApi) -> None:
    screen = app.screen
    screen.query_one("#run-provider", Select).value = "openai-compatible"
    screen.query_one("#run-model", Input).value = "m"
    screen.query_one("#run-base-url", Input).value = api.base_url + "/v1"
    screen.set_focus(None)


async def assert_live(app: WhichtoolApp, pilot: object, planned: int) -> None:
    """Mid-run: the counts move on screen, the bar follows, and the footer offers cancel."""
    await wait_until(pilot, lambda: 0 < done_count(app) < planned, "progress shows mid-run")
    first = done_count(app)
    await wait_until(pilot, lambda: done_count(app) > first, "the progress line moves on")
    assert f"/{planned}" in static_text(app.screen.query_one("#run-stats", Static))
    assert app.screen.query_one("#run-progress", ProgressBar).progress > 0
    await wait_until(pilot, lambda: "Cancel run" in footer_keys(app), "the footer offers c")
    assert "Run" not in footer_keys(app).split()
    assert app.screen.query_one("#run-live").display  # the live heatmap and per-tool rates


async def test_run_after_raise_limits_shows_progress(tmp_path: Path, slow_model: FakeApi) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_lab_run(app, pilot, tmp_path, "10")
        await use_model(app, slow_model)
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await assert_live(app, pilot, 60)
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: done_count(app) == 60, "the run's end is drawn")
        await wait_until(pilot, lambda: "Cancel run" not in footer_keys(app), "c goes away")


async def test_run_after_a_cancelled_run_shows_fresh_progress(
    tmp_path: Path, slow_model: FakeApi
) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_lab_run(app, pilot, tmp_path, "10")
        await use_model(app, slow_model)
        await pilot.press("r", "y")
        await assert_live(app, pilot, 60)
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await wait_until(
            pilot,
            lambda: "cancelled" in static_text(app.screen.query_one("#run-stats", Static)),
            "the cancel is drawn",
        )
        app.screen.query_one("#run-repeat", Input).value = "9"
        app.screen.set_focus(None)
        await pilot.press("r", "y")  # 54 trials, over the limit again
        await wait_until(
            pilot,
            lambda: "/54" in static_text(app.screen.query_one("#run-stats", Static)),
            "the new run replaces the cancelled one's frame",
        )
        assert "cancelled" not in static_text(app.screen.query_one("#run-stats", Static))
        await assert_live(app, pilot, 54)
        await pilot.press("c")
        await app.workers.wait_for_complete()


def on_screen(app: WhichtoolApp, selector: str) -> bool:
    """The widget is drawn whole above the footer (not scrolled below the fold)."""
    region = app.screen.query_one(selector).region
    return region.height > 0 and region.bottom <= app.size.height - 1


async def test_plain_run_at_80x24_shows_the_run_not_the_plan(
    tmp_path: Path, slow_model: FakeApi
) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lab_run(app, pilot, tmp_path, "8")
        await use_model(app, slow_model)
        assert "prompt floor" in static_text(app.screen.query_one("#run-plan", Static), 78)
        await pilot.press("r")
        await assert_live(app, pilot, 48)
        plan = static_text(app.screen.query_one("#run-plan", Static), 78)
        assert "48 trials" in plan and "prompt floor" not in plan
        assert len(plan.strip().splitlines()) == 1  # one summary line while the run goes
        for part in ("#run-plan", "#run-progress", "#run-stats", "#run-latest"):
            assert on_screen(app, part), part
        await wait_until(pilot, lambda: on_screen(app, "#run-heatmap-pane"), "the heatmap shows")
        await pilot.press("p")  # the power detail is one key away, and folds back
        assert "prompt floor" in static_text(app.screen.query_one("#run-plan", Static), 78)
        await pilot.press("p")
        assert "prompt floor" not in static_text(app.screen.query_one("#run-plan", Static), 78)
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await wait_until(
            pilot,
            lambda: "cancelled" in static_text(app.screen.query_one("#run-stats", Static)),
            "the cancel is drawn",
        )
        assert "prompt floor" not in static_text(app.screen.query_one("#run-plan", Static), 78)
