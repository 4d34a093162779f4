"""The collector pauses used by bulk phases restore the collector exactly as they found it."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

import pytest

import whichtool_tui
from whichtool_tui.event_loop import run_coroutine
from whichtool_tui.gc_phases import collect_in_child, gc_paused, gc_settling, warm_fork_parent


@pytest.fixture(autouse=True)
def nothing_frozen() -> None:
    """Start from a collector with nothing frozen: an app test earlier in the same process may
    have kept a receipt for its session (these helpers act only when nothing is frozen)."""
    gc.unfreeze()


def test_pause_nests_and_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_pause_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_settling_freezes_as_results_accumulate_and_thaws_at_the_end() -> None:
    kept_alive = []
    with gc_settling(every=10) as kept:
        for index in range(25):
            kept_alive.append([index])
            kept()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    assert len(kept_alive) == 25


def test_cyclic_garbage_frozen_during_settling_is_collected_afterwards() -> None:
    class Node:
        partner: object = None

    with gc_settling(every=1) as kept:
        first, second = Node(), Node()
        first.partner, second.partner = second, first
        del first, second
        kept()  # the cycle is frozen while still uncollected
    gc.collect()
    assert not any(type(item) is Node for item in gc.get_objects())


def test_run_coroutine_returns_the_result() -> None:
    async def answer() -> dict[str, int]:
        return {"trials": 3}

    assert run_coroutine(answer()) == {"trials": 3}


def test_a_fork_parent_warms_with_the_collector_off_then_freezes_what_it_built() -> None:
    built: list[list[int]] = []
    seen_enabled: list[bool] = []

    def warm() -> None:
        seen_enabled.append(gc.isenabled())
        built.extend([index] for index in range(100))

    try:
        warm_fork_parent(warm)
        assert seen_enabled == [False]
        assert not gc.isenabled()  # the parent only forks: it keeps the collector off
        assert gc.get_freeze_count() > 0
        collect_in_child()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()
    assert len(built) == 100


def test_only_gc_phases_calls_the_collector() -> None:
    package = Path(whichtool_tui.__file__).parent
    callers = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "gc_phases.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "gc"
            ):
                callers.append(f"{path.relative_to(package)}: gc.{node.attr}")
    assert callers == []


@pytest.mark.slow
def test_what_is_kept_until_exit_is_never_freed() -> None:
    # A finaliser tells which objects were freed, in the run or by the interpreter's teardown:
    # those handed to keep_until_exit never are; a temporary beside them is, at once.
    import subprocess
    import sys

    script = (
        "import os\n"
        "from whichtool_tui.gc_phases import keep_until_exit\n"
        "class Loud:\n"
        "    def __init__(self, name): self.line = b'freed ' + name + b'\\n'\n"
        "    def __del__(self, write=os.write): write(2, self.line)\n"
        "def command():\n"
        "    keep_until_exit(Loud(b'kept'), [Loud(b'kept too')])\n"
        "    Loud(b'temporary')\n"
        "command()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stderr.splitlines() == ["freed temporary"]
