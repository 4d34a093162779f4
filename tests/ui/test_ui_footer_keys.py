"""The footer's keys follow the terminal's width, and a focus change that only moves hidden
bindings keeps the keys it has (rebuilding them restyles every key: launch and switch cost)."""

from __future__ import annotations

import pytest
from textual.widgets import Button, RadioSet
from textual.widgets._footer import FooterKey

from tests.support.ui import wait_until
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.widgets.key_footer import KeyFooter

pytestmark = pytest.mark.usefixtures("isolated_state")


def footer_keys(app: WhichtoolApp) -> list[FooterKey]:
    return list(app.screen.query_one(KeyFooter).query_children(FooterKey))


def shown_bindings(app: WhichtoolApp) -> list[str]:
    return [key for key, active in app.screen.active_bindings.items() if active.binding.show]


async def test_keys_turn_compact_below_100_columns_and_back() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: len(footer_keys(app)) > 1, "the footer's keys")
        palette = [key for key in footer_keys(app) if key.has_class("-command-palette")]
        sized = [key for key in footer_keys(app) if not key.has_class("-command-palette")]
        assert palette and sized
        assert not any(key.compact or key.has_class("-compact") for key in sized)
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: app.screen.query_one(KeyFooter).compact, "compact")
        assert all(key.compact and key.has_class("-compact") for key in footer_keys(app))
        await pilot.resize_terminal(120, 40)
        await wait_until(pilot, lambda: not app.screen.query_one(KeyFooter).compact, "wide")
        sized = [key for key in footer_keys(app) if not key.has_class("-command-palette")]
        assert not any(key.compact or key.has_class("-compact") for key in sized)
        assert all(key.has_class("-compact") for key in palette)  # Textual's: always compact


async def test_focus_moving_only_hidden_bindings_keeps_the_keys() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: len(footer_keys(app)) > 1, "the footer's keys")
        app.screen.query_one("#target-kind", RadioSet).focus()
        await pilot.pause()
        await wait_until(pilot, lambda: len(footer_keys(app)) > 1, "the footer's keys")
        before_keys, before_all = footer_keys(app), set(app.screen.active_bindings)
        before_shown = shown_bindings(app)
        app.screen.query_one("#demo", Button).focus()
        await pilot.pause()
        await pilot.pause()
        assert set(app.screen.active_bindings) != before_all  # the radio set's own keys went away
        assert shown_bindings(app) == before_shown
        assert footer_keys(app) == before_keys  # the same widgets: nothing rebuilt
