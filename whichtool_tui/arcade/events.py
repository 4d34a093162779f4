"""Typed progress events a bout pushes into a sink callable (the TUI wraps them as messages)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BoutStarted:
    """The bout is about to run these atoms, in this order."""

    bout_id: str
    atom_ids: tuple[str, ...]


@dataclass(frozen=True)
class AtomStarted:
    """An atom is starting its fresh session."""

    atom_id: str


@dataclass(frozen=True)
class WireEvent:
    """One JSON-RPC message crossed the wire during an atom."""

    atom_id: str
    seq: int
    direction: str
    method: str | None
    rpc_id: int | str | None
    message: dict[str, Any]


@dataclass(frozen=True)
class AtomFinished:
    """An atom ended; ``result`` is its verdict (a view may hold it back until a guess)."""

    atom_id: str
    result: str


@dataclass(frozen=True)
class BoutFinished:
    """The receipt is assembled (not yet written)."""

    bout_id: str


BoutEvent = BoutStarted | AtomStarted | WireEvent | AtomFinished | BoutFinished
EventSink = Callable[[BoutEvent], None]


def ignore_events(_event: BoutEvent) -> None:
    """A sink that drops everything (headless runs without progress)."""


class OrderedSinks:
    """Per-atom sinks whose events reach ``sink`` in the order a sequential bout emits them.

    Atoms that run at the same time each get their own sink: the earliest unfinished atom's
    events pass straight through, later atoms' events wait until every atom before them has
    finished, so a listener never sees two atoms interleave.
    """

    def __init__(self, sink: EventSink, count: int) -> None:
        self._sink = sink
        self._pending: list[list[BoutEvent]] = [[] for _ in range(count)]
        self._finished = [False] * count
        self._current = 0

    def for_atom(self, index: int) -> EventSink:
        """The sink atom ``index`` reports into."""

        def report(event: BoutEvent) -> None:
            if index == self._current:
                self._sink(event)
            else:
                self._pending[index].append(event)

        return report

    def finish(self, index: int) -> None:
        """Atom ``index`` is done: release the next atoms' held events, in order."""
        self._finished[index] = True
        while self._current < len(self._finished) and self._finished[self._current]:
            self._current += 1
            if self._current < len(self._pending):
                held, self._pending[self._current] = self._pending[self._current], []
                for event in held:
                    self._sink(event)
