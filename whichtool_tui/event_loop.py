"""The one event-loop runner every synchronous caller uses (commands, ``targets.load_listing``).

It is ``asyncio.run`` for work whose result may be large (a 100,000-trial report).

On Python 3.11 and 3.12, ``asyncio.run`` ends by asking ``signal.getsignal`` about its own
Ctrl+C handler, which formats an error message holding ``repr`` of the main task, and so of its
result: seconds of wasted CPU for a big report. The main task here returns nothing and the
result travels beside it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_coroutine(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to completion in a fresh event loop and return its result."""
    results: list[T] = []

    async def main() -> None:
        results.append(await work)

    asyncio.run(main())
    return results[0]
