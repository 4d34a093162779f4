"""Pause the cyclic garbage collector while a bulk phase builds objects that all stay alive.

Reading or writing a 100,000-trial run allocates a few hundred thousand long-lived objects; the
collector keeps rescanning them as they pile up, which measured 3-5x the cost of the work itself.
Nothing built in these phases is garbage, so the new objects are handed straight to the oldest
generation when the phase ends (freeze then unfreeze) instead of being scanned as young ones;
they stay collectable by the next full collection.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from whichtool_tui.surface.bulk import paused_gc


@contextmanager
def gc_paused() -> Iterator[None]:
    """The surface's collector pause, plus handing what the block built to the oldest generation.

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
