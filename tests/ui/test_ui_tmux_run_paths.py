"""The installed binary at 80x24 in tmux: a run confirmed in "Raise limits?" is shown live (bar,
counts, latest trials, the heatmap, c Cancel run), and quitting it exits 130 as README says."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import paths
from tests.support.fake_apis import FakeApi, FakeReply, RecordedRequest, chat_reply, fake_api_server
from tests.support.tmux import footer_line, start_terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]  # starts processes and a loopback server


@pytest.fixture
def slow_model() -> Iterator[FakeApi]:
    """A Chat Completions endpoint that answers each trial after half a second."""

    def answer(_request: RecordedRequest) -> FakeReply:
        return chat_reply(calls=[("list_orders", "{}")]).slow(0.5)

    with fake_api_server() as api:
        api.responder = answer
        yield api


def test_a_raised_run_is_live_at_80x24_and_quitting_it_exits_130(
    tmp_path: Path, slow_model: FakeApi
) -> None:
    snapshots = paths.SNAPSHOTS
    arguments = (
        f"run {snapshots / 'demo-lab.json'} --tasks {snapshots / 'demo-lab.tasks.yaml'} "
        f"--repeat 10 --provider openai-compatible --model m --no-cache "
        f"--base-url {slow_model.base_url}/v1"
    )
    term = start_terminal(tmp_path, arguments)
    try:
        term.tmux("resize-window", "-t", "s", "-x", "80", "-y", "24")
        term.wait_for("100 trials", timeout=60)
        term.wait_for("50 trials ✖", timeout=30)
        term.press("r")
        term.wait_for("Raise limits?", timeout=30)
        term.press("Enter")
        shown = term.wait_until(
            lambda pane: (
                re.search(r"\b([1-9]\d?)/100\b", pane) is not None
                and "Confusion so far" in pane
                and "Cancel run" in footer_line(pane)
            ),
            "the run drawn live with its heatmap and c Cancel run",
            timeout=60,
        )
        assert "latest" in shown
        assert "prompt floor" not in shown  # the plan folded to its summary line
        term.press("C-q")
        term.wait_for("Quit whichtool-tui?", timeout=15)
        term.press("y")
        shown = term.wait_for("EXIT=", timeout=30)
        assert "EXIT=130" in shown, shown
        assert "Traceback" not in shown
    finally:
        term.close()
