"""The one home of garbage-collector tuning for bulk phases (every package uses these).

Reading or writing a 100,000-trial run, scoring 499,500 description pairs or loading a big
receipt allocates a few hundred thousand long-lived objects; the cyclic collector keeps
rescanning them as they pile up, which measured 3-5x the cost of the work itself. Nothing built
in these phases is garbage: ``paused_gc`` stops the scans, ``gc_paused`` also hands what the
block built to the oldest generation, ``gc_settling`` does so in steps for a long run, and
``keep_for_session`` takes what will live as long as the process out of the collector's sight,
``keep_until_exit`` also spares the exit from freeing it;
``warm_fork_parent`` / ``collect_in_child`` do the same for a parent that only forks.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a phase that allocates only acyclic objects.

    Such phases trigger repeated full-heap scans that find nothing to free; at the 1,000-tool
    ceiling those scans cost more than the work itself. Reference counting still frees memory.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def gc_paused() -> Iterator[None]:
    """``paused_gc``, plus handing what the block built to the oldest generation.

    Without the hand-off, the first collection after the block scans every object it built
    (about 0.4 s after reading a 100,000-trial run).
    """
    with paused_gc():
        try:
            yield
        finally:
            if gc.get_freeze_count() == 0:  # never thaw objects someone else froze on purpose
                gc.freeze()
                gc.unfreeze()


@contextmanager
def gc_settling(every: int = 1000) -> Iterator[Callable[[], None]]:
    """Yield a ``kept()`` to call per long-lived result; every ``every`` calls, what is alive is
    moved out of the collector's sight (frozen), and all of it is handed back (thawed) at the end.

    A long run keeps every trial; without this each full collection rescans all of them (about
    half the harness CPU of a 100,000-trial keyword run). Garbage that dies young is still
    collected as usual, and anything frozen by mistake is collectable again after the block.
    """
    owned = gc.isenabled() and gc.get_freeze_count() == 0
    count = 0

    def kept() -> None:
        nonlocal count
        count += 1
        if owned and count % every == 0:
            gc.freeze()

    try:
        yield kept
    finally:
        if owned:
            gc.unfreeze()


def keep_for_session() -> None:
    """Freeze everything alive now: it lives as long as the process (a loaded receipt, the SDK).

    Frozen objects are never scanned again; use it only for data kept until exit.
    """
    gc.freeze()


_HELD_UNTIL_EXIT: list[object] = []
_HELD_UNTIL_EXIT.append(_HELD_UNTIL_EXIT)  # a cycle: only a collection could ever free it


def keep_until_exit(*values: object) -> None:
    """Hold ``values`` until the process ends, and let the process end without freeing them.

    For a command line about to exit: the interpreter's teardown would free two 100,000-trial
    runs one object at a time (about 0.2 s) for memory the system takes back at once. They are
    held by a cycle that is then frozen with everything alive, and frozen objects are never
    collected, not even at exit. Plain data only: nothing held this way is finalised.
    """
    _HELD_UNTIL_EXIT.extend(values)
    gc.freeze()


def warm_fork_parent(warm: Callable[[], None]) -> None:
    """Run ``warm`` (imports) with the collector off, then freeze what is alive: a parent that
    only forks keeps the collector off, and its children share these pages instead of copying
    them on their first collection. Each child calls ``collect_in_child``."""
    gc.disable()  # the imports allocate only long-lived objects: no point scanning them
    warm()
    keep_for_session()


def collect_in_child() -> None:
    """A forked child of ``warm_fork_parent`` collects garbage again (the frozen pages stay
    shared with the parent)."""
    gc.enable()


def settle_after_build() -> None:
    """One full collection now, after a burst that built long-lived objects and left cyclic
    garbage behind (a screen's first build). The collector schedules its next full pass by the
    survivors since the last one; without this, that pass (0.1-0.4 s over a loaded session)
    lands on some later keypress, most often the section that draws the most."""
    gc.collect()
