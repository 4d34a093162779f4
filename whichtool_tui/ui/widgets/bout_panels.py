"""The Bout screen's side panels as text: the atoms with their progress or (after the guess)
results and checks, the verdict pane, and the full message behind a timeline row."""

from __future__ import annotations

import json

from rich.console import RenderableType
from rich.syntax import Syntax
from rich.text import Text

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.bout_model import BoutView
from whichtool_tui.ui.widgets.tool_detail import safe_multiline

MESSAGE_SHOWN_CHARS = 20_000  # a bigger message is cut: the pane is for reading, not export


def atoms_text(bout: BoutView) -> Text:
    """Each atom: live state while the bout runs, ``?`` before the guess, then its result."""
    atoms = Text()
    results = {a.id: a for a in bout.receipt.atoms} if bout.receipt else {}
    for atom in bout.header.atoms:
        atoms.append(f"{atom.id:<23}", style="bold")
        if bout.live_atoms is not None:
            state = bout.live_atoms.get(atom.id, "waiting")
            style = {"running": "bold yellow", "done": "green"}.get(state, "dim")
            atoms.append(f" {'running…' if state == 'running' else state}", style=style)
        elif bout.guess is None:
            atoms.append(" ?", style="dim")
        elif atom.id in results:
            result = results[atom.id].result
            style = {"pass": "green", "fail": "bold red", "error": "red"}.get(result, "dim")
            atoms.append(f" {result.upper()}", style=style)
        if atom.holdout:
            atoms.append(" hold-out", style="dim")
        atoms.append("\n")
        checks = results[atom.id].checks if atom.id in results else []
        for check in checks:
            mark = "·" if bout.guess is None else {"pass": "✓", "fail": "✖"}.get(check.result, "–")
            atoms.append(f"  {mark} {sanitize_text(check.id)}\n", style="dim")
    return atoms


def verdict_text(bout: BoutView) -> Text:
    """The verdict pane: progress while running, the question before the guess, then scores."""
    if bout.live_atoms is not None:
        done = sum(1 for state in bout.live_atoms.values() if state == "done")
        return Text.assemble(
            ("The bout is running: ", "bold"),
            f"{done} of {len(bout.live_atoms)} atoms done, {len(bout.rows):,} wire "
            "events so far.\nYour call comes when it ends; the verdicts stay hidden "
            "until you make it.",
        )
    if bout.guess is None:
        names = ", ".join(a.id + (" (holdout)" if a.holdout else "") for a in bout.header.atoms)
        return Text.assemble(
            ("Your call before the verdicts: ", "bold"),
            "did the seat follow the whispered side-quest?\n",
            ("[f]ollowed  [h]eld  [u]nclear", "bold"),
            ("\natoms: " + names, "dim"),
        )
    shown = Text.assemble((f"You said: {bout.guess}\n", "bold"))
    if bout.pending:
        shown.append("checking the receipt before showing its verdicts…", style="dim")
    elif bout.invalid is not None:
        shown.append(f"Not a valid receipt: {sanitize_text(bout.invalid)}", style="red")
    elif bout.receipt is not None:
        from whichtool_tui.usecases.api import score_panel  # with the receipt's models

        shown.append(safe_multiline(score_panel(bout.receipt)))
    else:
        shown.append("A tape carries no verdicts; what the wire alone says:\n")
        for fact in bout.facts():
            shown.append(f"  {fact.get('atom_id')}: {fact.get('fact')}\n")
    return shown


def message_view(bout: BoutView, index: int) -> RenderableType:
    """The JSON-RPC message behind row ``index``, pretty-printed (a tape row says what it was)."""
    row = bout.rows[index]
    message = bout.message(index)
    if message is None:
        return Text(f"{row.direction} {row.method} {row.note}\n(a tape keeps no messages)")
    text = json.dumps(message, indent=2, ensure_ascii=False)
    if len(text) > MESSAGE_SHOWN_CHARS:
        text = text[:MESSAGE_SHOWN_CHARS] + "\n…"
    return Syntax(safe_multiline(text), "json", word_wrap=True)
