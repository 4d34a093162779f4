"""The overlap scored in a forked child gives the same report, and no child is left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from whichtool_tui import shutdown
from whichtool_tui.reports.inspect_json import render_inspect_json
from whichtool_tui.surface import second_core
from whichtool_tui.surface.inspect import SECOND_CORE_MIN_TOOLS, inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.second_core import Fed, Pending

pytestmark = pytest.mark.slow  # these tests fork


def _no_child_left() -> bool:
    try:
        return os.waitpid(-1, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def _surface(count: int) -> list[dict[str, Any]]:
    tools = []
    for index in range(count):
        template = ["Get a user record number", "Export invoice batch", "Ping host"][index % 3]
        tools.append(
            {
                "name": f"tool_{index:04d}",
                "description": f"{template} {index} in the workspace, with its roles.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"user_id": {"type": "string"}},
                    "required": ["user_id"],
                },
            }
        )
    return tools


def test_a_forked_computation_returns_its_result_and_is_reaped() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    with Pending(lambda: {"pid": os.getpid(), "value": [1.5, "é"]}, fork=True) as pending:
        assert pending.forked
        result = pending.result()
    assert result["value"] == [1.5, "é"]
    assert result["pid"] != os.getpid()  # it really ran in the child
    assert _no_child_left()


def test_a_failing_child_is_replaced_by_computing_here() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    parent = os.getpid()

    def only_here() -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return "computed by the parent"

    with Pending(only_here, fork=True) as pending:
        assert pending.result() == "computed by the parent"
    assert _no_child_left()


def test_an_abandoned_child_is_killed_and_reaped() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Pending(lambda: time.sleep(60), fork=True):
        raise KeyboardInterrupt  # the caller gives up before collecting
    assert time.monotonic() - started < 30  # not waiting for the child's minute of sleep
    assert _no_child_left()


def test_interrupted_while_waiting_the_child_is_killed_and_reaped() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    started = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(KeyboardInterrupt), Pending(lambda: time.sleep(60), fork=True) as job:
            job.result()  # Ctrl+C (or a forwarded SIGTERM) arrives while we wait for it
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < 30  # killed, not waited for through its minute
    assert _no_child_left()


def test_a_fed_helper_warms_up_then_computes_what_it_is_sent() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    parent = os.getpid()
    warmed: list[int] = []

    def warm() -> None:
        warmed.append(os.getpid())

    def compute(given: list[str]) -> dict[str, Any]:
        return {"pid": os.getpid(), "warmed": list(warmed), "given": given}

    with Fed(warm, compute, fork=True) as helper:
        assert helper.forked
        helper.feed(["é", "x" * 300_000])  # more than a default pipe holds
        result = helper.result()
    assert result["given"] == ["é", "x" * 300_000]
    assert result["pid"] != parent  # computed in the child, after its warm-up there
    assert result["warmed"] == [result["pid"]]
    assert not warmed  # the parent never warmed up
    assert _no_child_left()


def test_a_fed_helper_never_fed_is_ended_and_reaped() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    started = time.monotonic()
    with pytest.raises(ValueError), Fed(lambda: None, len, fork=True) as helper:
        assert helper.forked
        raise ValueError("the listing could not be normalised")
    assert time.monotonic() - started < 30
    assert _no_child_left()


def test_a_failing_fed_helper_is_replaced_by_computing_here() -> None:
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    parent = os.getpid()

    def only_here(given: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return given * 2

    with Fed(lambda: None, only_here, fork=True) as helper:
        helper.feed(21)
        assert helper.result() == 42
    assert _no_child_left()


def test_an_unforked_fed_helper_computes_here() -> None:
    def plus_one(given: int) -> int:
        return given + 1

    with Fed(lambda: None, plus_one, fork=False) as helper:
        assert not helper.forked
        helper.feed(1)
        assert helper.result() == 2


def test_a_process_not_ours_is_never_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutdown, "_owned", [])  # tests and embedding programs
    assert not second_core.second_core_free()


def test_the_report_is_the_same_with_the_overlap_in_a_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    listing = ServedListing(transport="snapshot", ref="s.json", raw_tools=_surface(320))
    assert len(listing.raw_tools) >= SECOND_CORE_MIN_TOOLS
    here = render_inspect_json(inspect_surface(listing))
    monkeypatch.setattr(shutdown, "_owned", [True])
    if not _usable():
        pytest.skip("forks: runs in the fresh interpreter of the last test")
    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counted_fork)
    assert render_inspect_json(inspect_surface(listing)) == here
    assert forks == [1]
    assert _no_child_left()


def test_the_command_line_writes_the_same_bytes_as_in_process(tmp_path: Path) -> None:
    raw = _surface(320)
    snapshot = tmp_path / "big.json"
    snapshot.write_text(json.dumps({"tools": raw}), encoding="utf-8")
    out = tmp_path / "report.json"
    command = [sys.executable, "-m", "whichtool_tui", "--no-ui", "inspect", str(snapshot)]
    subprocess.run(
        [*command, "--format", "json", "--out", str(out)],
        check=False,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    listing = ServedListing(transport="snapshot", ref="big.json", raw_tools=raw)
    assert out.read_text(encoding="utf-8") == render_inspect_json(inspect_surface(listing))


def _usable() -> bool:
    """Only in the fresh interpreter of the last test: in a long pytest process other tests'
    orphans (pytest is their subreaper) and threads make "no child left" and forking unreliable."""
    if not os.environ.get(FRESH):
        return False
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shutdown, "_owned", [True])
        return second_core.second_core_free()


FRESH = "WHICHTOOL_TEST_FRESH_INTERPRETER"


def test_the_forking_cases_run_in_a_fresh_interpreter() -> None:
    """The forking cases above run only here, in a pytest process of their own: in the full
    suite other tests leave threads (a threaded process never forks) and orphans behind."""
    if os.environ.get(FRESH):
        pytest.skip("this is already the fresh interpreter")
    if sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs Linux with two cores")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
         "-k", "not fresh_interpreter and not command_line"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, FRESH: "1"},
        cwd=paths.REPO,
    )  # fmt: skip
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "passed" in summary and "skipped" not in summary, summary
