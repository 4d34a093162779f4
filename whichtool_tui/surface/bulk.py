"""Allocation-heavy phases (scoring 499,500 pairs, sorting tens of thousands of findings)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
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
