"""The score-free tape, ``mcp-arcade.tape/v1``: header facts, rows and wire facts, nothing else.

Built from the same allowlisted view as the timeline, then checked once more: a tape that
carries a score key anywhere is refused rather than written.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from whichtool_tui.arcade.formats import Tape, dump
from whichtool_tui.arcade.receipt import RECEIPT_HINT, first_problem
from whichtool_tui.arcade.timeline import TapeView
from whichtool_tui.errors import WhichtoolError

TAPE_SCHEMA_ID = "mcp-arcade.tape/v1"
FORBIDDEN_KEYS = frozenset(
    {"scores", "contrastive", "operator_call", "result", "checks", "nrp", "integrity"}
)
FORBIDDEN_TEXT = ("attack_success", "utility")


def build_tape(data: dict[str, Any]) -> dict[str, Any]:
    """The tape of a raw receipt."""
    view = TapeView(data)
    header = view.header
    raw = {
        "schema_id": TAPE_SCHEMA_ID,
        "bout_id": header.bout_id,
        "target_kind": header.target_kind,
        "agent_policy": header.agent_policy,
        "framing": header.framing,
        "protocol_version": header.protocol_version,
        "server_name": header.server_name,
        "container": header.container,
        "seat": header.seat,
        "attribution_ok": header.attribution_ok,
        "atoms": [
            {"id": a.id, "task_tool": a.task_tool, "holdout": a.holdout} for a in header.atoms
        ],
        "rows": [
            {
                "seq": row.seq,
                "direction": row.direction,
                "method": row.method,
                "rpc_id": "" if row.rpc_id is None else str(row.rpc_id),
                "atom": row.atom,
                "holdout": row.holdout,
                "note": row.note,
            }
            for row in view.rows()
        ],
        "facts": view.facts(),
    }
    try:
        tape = dump(Tape.model_validate(raw))
    except ValidationError as exc:
        raise WhichtoolError(
            "tape/invalid",
            f"cannot build a tape from this receipt: {first_problem(exc)}",
            RECEIPT_HINT,
        ) from None
    assert_score_free(tape)
    return tape


def assert_score_free(value: Any) -> None:
    """Refuse any score key at any depth (server text in notes is data, not a score)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in FORBIDDEN_KEYS or any(word in key for word in FORBIDDEN_TEXT):
                raise WhichtoolError(
                    "tape/score-leak",
                    f"refusing to write a tape with the key {key!r}",
                    "A tape carries no scores; `receipt --timeline --score` shows the house call.",
                )
            assert_score_free(item)
    elif isinstance(value, list):
        for item in value:
            assert_score_free(item)
