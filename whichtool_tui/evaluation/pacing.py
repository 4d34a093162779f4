"""Adaptive concurrency for direct runs (AIMD): rate limits slow a run down, never fail it.

A run starts with ``--concurrency`` requests in flight. An answer that says "too many" (HTTP 429,
or a 5xx carrying ``Retry-After``) halves the limit, once per burst: only a request sent after
the last cut can cut again. The trial then waits (the ``Retry-After`` asked for, else a backoff)
and is sent again, up to ``RATE_LIMIT_RETRIES`` times. Each clean answer counts toward growing
the limit by one, after as many clean answers as the limit; it never passes ``--concurrency``.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from whichtool_tui.providers.base import ProviderError

DECREASE_FACTOR = 0.5
RATE_LIMIT_RETRIES = 8  # waits per trial before a rate limit is recorded as the trial's error
MAX_WAIT_SECONDS = 300.0  # the longest Retry-After honoured; a longer one is capped
BACKOFF_START_SECONDS = 1.0
BACKOFF_MAX_SECONDS = 60.0

Sleep = Callable[[float], Awaitable[None]]


def is_rate_limit(error: ProviderError) -> bool:
    """A 429, or a 5xx that says when to come back: slow down and send the trial again."""
    if error.status == 429:
        return True
    return error.status is not None and error.status >= 500 and error.retry_after is not None


def wait_seconds(error: ProviderError, attempt: int) -> float:
    """How long to wait before attempt ``attempt`` (1-based): Retry-After, else a backoff."""
    if error.retry_after is not None and math.isfinite(error.retry_after):
        return min(max(error.retry_after, 0.0), MAX_WAIT_SECONDS)
    return min(BACKOFF_START_SECONDS * float(2 ** (attempt - 1)), BACKOFF_MAX_SECONDS)


class Pacer:
    """How many requests may be in flight now, and what rate limits did to that number."""

    def __init__(self, limit: int, sleep: Sleep = asyncio.sleep) -> None:
        self.limit = limit
        self.current = limit
        self.lowest = limit
        self.waits = 0
        self.sleep = sleep
        self._in_flight = 0
        self._generation = 0
        self._clean = 0
        self._changed = asyncio.Condition()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[int]:
        """Hold one of the ``current`` slots; yields the generation the request was sent in."""
        async with self._changed:
            await self._changed.wait_for(lambda: self._in_flight < self.current)
            self._in_flight += 1
            generation = self._generation
        try:
            yield generation
        finally:
            async with self._changed:
                self._in_flight -= 1
                self._changed.notify_all()

    def rate_limited(self, generation: int) -> None:
        """A request sent in ``generation`` was told to slow down: cut once per burst."""
        if generation == self._generation:
            self.current = max(1, math.floor(self.current * DECREASE_FACTOR))
            self.lowest = min(self.lowest, self.current)
            self._generation += 1
            self._clean = 0

    def succeeded(self) -> None:
        """A clean answer: after ``current`` of them in a row, one more slot (up to the limit)."""
        self._clean += 1
        if self._clean >= self.current and self.current < self.limit:
            self.current += 1
            self._clean = 0

    async def wait(self, seconds: float) -> None:
        """Wait before sending a rate-limited trial again (holding no slot)."""
        self.waits += 1
        await self.sleep(seconds)
