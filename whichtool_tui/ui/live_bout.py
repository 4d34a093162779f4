"""A bout while it runs: its wire rows and atom progress built from the engine's typed events.

The Bout screen shows this view until the receipt exists; verdicts never pass through it
(AtomFinished's result is dropped: the operator guesses first, as with a finished receipt).
"""

from __future__ import annotations

from typing import Any

from whichtool_tui.ui.bout_model import BoutView
from whichtool_tui.usecases.api import (
    AtomFinished,
    AtomStarted,
    BoutEvent,
    BoutStarted,
    TapeAtom,
    TapeHeader,
    TimelineRow,
    WireEvent,
)


def live_note(event: WireEvent) -> str:
    """What a row says while the bout runs: the tool a call names; nothing else is known yet."""
    if event.direction == "out" and event.method == "tools/call":
        params = event.message.get("params")
        name = params.get("name", "") if isinstance(params, dict) else ""
        return f"tools/call {name}"
    return ""


class LiveBout:
    """Turns bout events into a growing BoutView (rows, messages, which atom is running)."""

    def __init__(self, label: str, target_kind: str, seat: str) -> None:
        self.view = BoutView(
            source=label,
            header=TapeHeader(
                bout_id="(running)",
                target_kind=target_kind,
                agent_policy=seat,
                framing=None,
                protocol_version=None,
                server_name=None,
                container=None,
                seat=None,
                attribution_ok=True,
                atoms=(),
            ),
            rows=[],
            receipt=None,
            wire=[],
        )
        self.view.live_atoms = {}
        self.changes = 0  # bumped per event, so a redraw can tell whether anything moved

    def add(self, event: BoutEvent) -> None:
        """Fold one event into the view."""
        view = self.view
        states: dict[str, str] = view.live_atoms if view.live_atoms is not None else {}
        if isinstance(event, BoutStarted):
            atoms = tuple(TapeAtom(atom_id, None, False) for atom_id in event.atom_ids)
            view.header = TapeHeader(
                **{**view.header.__dict__, "bout_id": event.bout_id, "atoms": atoms}
            )
            states.update({atom_id: "waiting" for atom_id in event.atom_ids})
        elif isinstance(event, AtomStarted):
            states[event.atom_id] = "running"
        elif isinstance(event, AtomFinished):
            states[event.atom_id] = "done"  # the result itself stays hidden until the guess
        elif isinstance(event, WireEvent):
            message: dict[str, Any] = event.message
            view.wire.append({"message": message})
            view.rows.append(
                TimelineRow(
                    seq=event.seq,
                    direction=event.direction,
                    method=event.method or "(response)",
                    rpc_id=event.rpc_id,
                    atom=event.atom_id,
                    holdout=False,
                    note=live_note(event),
                )
            )
        self.changes += 1
