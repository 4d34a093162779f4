"""Secrets never reach the TUI: every toast, title and painted line is redacted (issue 12, item 4).

The target is a real stdio server whose command line carries a key and a token, as users paste
them; the test reads back every notification the app raised and the whole rendered screen.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from textual.app import App

from tests.support.paths import MISBEHAVING_SERVER as BAD_SERVER
from tests.support.ui import wait_until
from whichtool_tui.text_safety import redact_message
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.session import TargetChoice

pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers
SECRETS = ("sk-secret1234567890", "abc123token", "hdr987value", "hunter2pw")


@pytest.mark.parametrize("mode", ["ok", "exit"])
async def test_every_toast_and_the_screen_are_redacted(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = (
        f"{sys.executable} {BAD_SERVER} {mode} --api-key {SECRETS[0]} --token={SECRETS[1]} "
        f"--header 'Authorization: Bearer {SECRETS[2]}' password={SECRETS[3]}"
    )
    seen: list[str] = []
    shown = App.notify

    def record(self: App[object], message: str, **kwargs: Any) -> None:
        seen.extend([message, str(kwargs.get("title", ""))])  # what reaches the toast
        shown(self, message, **kwargs)

    monkeypatch.setattr(App, "notify", record)
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.inspect_target(TargetChoice("stdio", command)).wait()
        await wait_until(pilot, lambda: len(seen) >= 2, "a toast")
        await pilot.pause()
        screen = app.export_screenshot()
        titles = [app.title, app.sub_title, app.screen.title or "", app.screen.sub_title or ""]
    assert any("--api-key ***" in text for text in seen), seen
    assert any("Authorization: ***" in text for text in seen), seen
    for text in [*seen, screen, *titles]:
        for secret in SECRETS:
            assert secret not in text, text


def test_stderr_and_toasts_share_one_function() -> None:
    line = "Inspecting stdio node s.js --api-key sk-live-abcdef123456 --token=t0ken --port 3"
    assert redact_message(line) == "Inspecting stdio node s.js --api-key *** --token=*** --port 3"
    prose = "Set OPENAI_API_KEY in the environment; secrets and Bearer tokens never go in files."
    assert redact_message(prose) == prose
