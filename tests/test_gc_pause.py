"""The collector pauses used by bulk phases restore the collector exactly as they found it."""

from __future__ import annotations

import gc

from whichtool_tui.event_loop import run_coroutine
from whichtool_tui.gc_phases import gc_paused, gc_settling


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
