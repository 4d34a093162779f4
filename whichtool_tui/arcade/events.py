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
