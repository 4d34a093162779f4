"""Section switches stay cheap: a section opened in a running app is not a reason to re-parse
the stylesheet, a revisit restyles nothing unless the theme or a breakpoint moved, and a first
visit ends with the full collection its build calls for (not left to land on a later key)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest
from textual.color import Color

from tests.support.ui import LAB_INSPECT, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.surface import SurfaceScreen

pytestmark = pytest.mark.usefixtures("isolated_state")


def counting(calls: list[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return method(*args, **kwargs)

    return counted


@pytest.mark.xfail(
    reason="known regression from this wave's footer/header refit: a Tasks revisit restyles "
    "twice (update_nodes); open in issue 32's follow-up",
    strict=True,
)
async def test_sections_open_and_return_without_restyling_everything() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SurfaceScreen), "Surface")
        await pilot.pause()
        calls: list[str] = []
        sheet = app.stylesheet
        sheet.reparse = counting(calls, "reparse", sheet.reparse)  # type: ignore[method-assign]
        sheet.update_nodes = counting(calls, "restyle", sheet.update_nodes)  # type: ignore[method-assign]
        await pilot.press("2")  # Tasks: a first visit in a running app
        await wait_until(pilot, lambda: app.current_mode == "tasks", "Tasks shown")
        await pilot.pause()
        assert "reparse" not in calls
        await pilot.press("1")
        await pilot.pause()
        calls.clear()
        await pilot.press("2")  # a revisit: nothing the styles depend on moved
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert calls == []
        app.theme = "textual-light"  # a theme change still restyles a screen left behind
        await pilot.pause()
        assert "reparse" in calls
        await pilot.press("2")
        await pilot.pause()
        light = Color.parse(app.get_css_variables()["background"])
        assert app.screen.styles.background == light


async def test_a_first_visit_ends_with_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from whichtool_tui.ui.screens import base

    asked: list[str] = []  # the sections whose first build asked for a collection

    def recorded_settle() -> None:
        asked.append(type(app.screen).__name__)
        real_settle()

    real_settle = base.settle_after_build
    app = WhichtoolApp(load_artefact(LAB_INSPECT))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, SurfaceScreen) and app.screen._section_ready,
            "Surface mounted",
        )
        # The Surface's own first build has asked for its collection already (on a timer that
        # may fire at any time from here): only the sections mounted from now on are recorded.
        monkeypatch.setattr(base, "settle_after_build", recorded_settle)
        collecting = gc.isenabled()
        gc.disable()  # the only full collections now are the ones the app asks for
        try:
            before = gc.get_stats()[2]["collections"]
            await pilot.press("4")  # Results, first visit
            await wait_until(pilot, lambda: asked == ["ResultsScreen"], "Results' collection")
            # Timers of equal delay fire in order: the Surface's came before this one.
            collected = gc.get_stats()[2]["collections"]
            assert collected > before
            await pilot.press("1")  # a revisit builds nothing and asks for none
            await pilot.pause()
            await pilot.press("4")
            await pilot.pause()
            assert asked == ["ResultsScreen"]
            assert gc.get_stats()[2]["collections"] == collected
        finally:
            if collecting:
                gc.enable()
