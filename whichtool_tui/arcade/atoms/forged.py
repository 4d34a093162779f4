"""``display.forged``: does the menu forge what an approval dialog shows?

Judged from the listed JSON (see ``display_forgery`` for the rules): one check each for line
breaks and control characters in the shown fields, badge glyphs, and annotations that contradict
the tool's own name.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    failed_or_passed,
    tool_infos,
)
from whichtool_tui.arcade.display_forgery import forgeries
from whichtool_tui.arcade.receipt import AtomResult

CHECKS = (
    ("line_breaks", "no line break or control character in a name, title or first line"),
    ("badges", "no badge glyph in a name, title or first line"),
    ("annotations", "no annotation contradicts its tool's name"),
)


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List once and judge every field a confirmation dialog shows."""
    raw = await wire.list_tools()
    found = forgeries(raw)
    checks = []
    for check_id, clean in CHECKS:
        mine = [f.describe() for f in found if f.check == check_id]
        checks.append(check(check_id, "fail" if mine else "pass", "; ".join(mine) or clean))
    tools = tool_infos(raw)
    return atom_result(ctx, failed_or_passed(checks), checks, tools_before=tools, tools_after=tools)
