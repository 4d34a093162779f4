"""A bout's --timeout never counts a server's start-up (issue 12, item 14).

The clock of the first request (initialize) starts once the stdio server is up: its process
tree sleeps without using CPU, waiting for a message. Until then only the separate start-up
deadline (--start-timeout, 60 s by default) applies, and it is named apart in errors. The slow
starter below spins for a fixed time before serving, as an interpreter importing its SDK does on
a loaded machine; no assertion here depends on how fast the machine is.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import atom, live_bout, processes_matching, run_cli
from tests.support.slow_start import ENV, SLOW_START
from tests.support.slow_start import slow_starter as _slow_starter
from whichtool_tui.mcp_client.recorder import Recorder, WireError, recorded_stdio

pytestmark = pytest.mark.slow  # starts processes


async def test_a_slow_start_up_is_not_part_of_the_request_timeout() -> None:
    recorder = Recorder()
    # 3 s of start-up against a 1 s request timeout: only the start-up deadline may apply.
    async with recorded_stdio(_slow_starter(3), ENV, recorder, request_timeout=1) as wire:
        facts = await wire.initialize()
        tools = await wire.list_tools()
    assert facts.protocol_version == "2025-11-25"
    assert "echo" in {tool["name"] for tool in tools}


async def test_a_server_still_starting_at_the_start_deadline_is_named_apart() -> None:
    recorder = Recorder()
    with pytest.raises(WireError) as caught:
        async with recorded_stdio(
            _slow_starter(600), ENV, recorder, request_timeout=1, start_timeout=2
        ) as wire:
            await wire.initialize()
    assert caught.value.kind == "start-timeout"
    assert str(caught.value).startswith("the server was still starting after 2s")
    assert "--start-timeout" in str(caught.value)


async def test_a_server_that_is_up_but_never_answers_times_out_on_the_request_clock() -> None:
    # Idle and silent on initialize: the 1 s request timeout applies, not the 60 s start-up.
    recorder = Recorder()
    argv = [sys.executable, "-m", "whichtool_tui.arcade.fixture", "--hang-on", "initialize"]
    with pytest.raises(WireError) as caught:
        async with recorded_stdio(argv, ENV, recorder, request_timeout=1) as wire:
            await wire.initialize()
    assert caught.value.kind == "timeout"
    assert str(caught.value).startswith("initialize (id 1) got no response in 1s")


def test_a_bout_names_the_start_timeout_in_its_receipt(tmp_path: Path, capsys: Any) -> None:
    marker = f"{tmp_path.name}-spinner"
    command = f"{sys.executable} -c {_quoted(SLOW_START)} 600 {marker}"
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        command,
        "--task",
        "echo",
        "--timeout",
        "1",
        "--start-timeout",
        "2",
        "--atoms",
        "inspect.tools_list",
    )
    detail = atom(receipt, "inspect.tools_list")["checks"][0]["detail"]
    assert detail.startswith("StartTimeout: the server was still starting after 2s"), detail
    # The settings block records the deadline beside the request timeout the target keeps.
    assert receipt["run"]["start_timeout_s"] == 2 and receipt["target"]["timeout_s"] == 1
    assert processes_matching(marker) == []  # the spinning server was stopped


def test_start_timeout_must_be_positive(tmp_path: Path, capsys: Any) -> None:
    code, _out, err = run_cli(
        ["--no-ui", "bout", "--target", "fixture", "--no-prompt", "--start-timeout", "0"], capsys
    )
    assert code == 2
    assert err.startswith("whichtool-tui: --start-timeout must be a positive number of seconds")
    assert "Traceback" not in err


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)
