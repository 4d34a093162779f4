"""Plain-text faces of a bout for the terminal: the timeline (no scores) and the house call.

The timeline is written row by row with fixed columns so a 100,000-event receipt prints in
seconds; every server-supplied string goes through ``sanitize_text`` first.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from whichtool_tui.arcade.jsonfile import as_dict, as_list
from whichtool_tui.arcade.receipt import BoutReceipt
from whichtool_tui.arcade.timeline import TapeView
from whichtool_tui.text_safety import redact_message, sanitize_text

MARKS = {"pass": "·", "fail": "×", "skip": "–", "error": "!"}
_BATCH = 2000
STDERR_LINE_CHARS = 200
"""A stderr line on screen keeps its last this-many characters; the receipt keeps the whole tail."""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def clip_stderr_line(line: str, width: int = STDERR_LINE_CHARS) -> str:
    """The end of one server stderr line (where the last words are), the cut marked up front."""
    if len(line) <= width:
        return line
    return f"[…{len(line) - width:,} chars cut; full tail in the receipt] {line[-width:]}"


def write_timeline(
    view: TapeView, out: TextIO, *, verbose: bool = False, data: dict[str, Any] | None = None
) -> None:
    """Header and one line per wire event, written in batches."""
    header = view.header
    out.write(
        sanitize_text(
            f"Tape {header.bout_id}  target={header.target_kind}  policy={header.agent_policy}"
            f"  framing={header.framing} protocol={header.protocol_version}"
            f"  server={header.server_name}"
        )
        + "\n"
    )
    if header.container:
        image_id = str(header.container.get("image_id") or "")[:19]
        out.write(f"container {image_id} {header.container.get('name_prefix')}-*\n")
    if header.seat:
        sha = str(header.seat.get("template_sha256") or "")[:12]
        out.write(sanitize_text(f"seat {header.seat.get('model')} template {sha}") + "\n")
    if verbose and data is not None:
        _write_verbose(data, out)
    atoms = "  ".join(a.id + (" (holdout)" if a.holdout else "") for a in header.atoms)
    out.write(f"atoms: {atoms}\n")
    if not header.attribution_ok:
        out.write("wire could not be attributed to atoms: every row shows atom ?\n")
    out.write("Wire (one row per event)\n")
    out.write(f"{'seq':>6}  {'dir':<3}  {'method':<26}  {'id':>6}  {'atom':<32}  note\n")
    lines: list[str] = []
    for row in view.rows():
        atom = row.atom + (" (holdout)" if row.holdout else "")
        rpc_id = "" if row.rpc_id is None else str(row.rpc_id)
        lines.append(
            f"{row.seq:>6}  {row.direction:<3}  {_clip(sanitize_text(row.method), 26):<26}  "
            f"{_clip(sanitize_text(rpc_id), 6):>6}  {atom:<32}  {sanitize_text(row.note)}\n"
        )
        if len(lines) >= _BATCH:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


def _write_verbose(data: dict[str, Any], out: TextIO) -> None:
    for atom in as_list(data.get("atoms")):
        session = as_dict(as_dict(atom).get("session"))
        container = session.get("container")
        if isinstance(container, dict):
            out.write(f"run_args[{atom.get('id')}]: {' '.join(container.get('run_args') or [])}\n")
            diff = container.get("docker_diff") or []
            out.write(f"docker_diff[{atom.get('id')}]: {', '.join(diff) if diff else '(none)'}\n")
        seat = session.get("seat")
        if isinstance(seat, dict):
            options = {k: seat.get(k) for k in ("temperature", "seed", "num_ctx", "endpoint")}
            out.write(f"seat options: {json.dumps(options, sort_keys=True)}\n")
            break


def score_panel(receipt: BoutReceipt) -> str:
    """The house call: scores, the contrastive recap, and each atom's checks with marks."""
    s = receipt.scores
    lines = [
        "House call (not a certificate)",
        f"  Integrity {s.integrity.upper()}   Utility {s.utility.upper()}   NRP {s.nrp:.2f}",
        f"  task_success={str(s.task_success).lower()}  "
        f"attack_success={str(s.attack_success).lower()}",
        f"  foil: {sanitize_text(receipt.contrastive.foil)}",
        f"  wire: {sanitize_text(receipt.contrastive.wire)}",
    ]
    for atom in receipt.atoms:
        lines.append(f"{atom.id}  {atom.title}  {atom.result.upper()}")
        for item in atom.checks:
            lines.append(f"  {MARKS[item.result]} {item.id}: {sanitize_text(item.detail)}")
        for note in atom.notes:
            lines.append(f"    note: {sanitize_text(note)}")
        tail = atom.session.stderr_tail.strip().splitlines()[-3:]
        for line in tail:
            lines.append(f"    stderr: {clip_stderr_line(redact_message(line))}")
    return "\n".join(lines) + "\n"
