"""``encoding.hidden``: do names or descriptions carry characters a reviewer cannot see?

One check per kind (Unicode tags, bidi controls, zero-width characters, ANSI and other control
codes) over every listed name, description, schema string and annotation. Details name the
tool, field, count and offset, and what a tag run spells; never the raw characters.
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
from whichtool_tui.arcade.hidden_text import KINDS, findings
from whichtool_tui.arcade.receipt import AtomResult

CHECK_IDS = {
    "tag": "tag_characters",
    "bidi": "bidi_controls",
    "zero_width": "zero_width",
    "ansi": "ansi_escapes",
}
_NAMES = {
    "tag": "Unicode tag characters",
    "bidi": "bidi controls",
    "zero_width": "zero-width characters",
    "ansi": "ANSI or other control codes",
}


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List the menu once and look for every hidden kind in everything it says."""
    raw = await wire.list_tools()
    found = findings(raw)
    checks = []
    for kind in KINDS:
        mine = [f for f in found if f.kind == kind]
        checks.append(
            check(
                CHECK_IDS[kind],
                "fail" if mine else "pass",
                "; ".join(f.describe() for f in mine) if mine else f"no {_NAMES[kind]}",
            )
        )
    tools = tool_infos(raw)
    return atom_result(ctx, failed_or_passed(checks), checks, tools_before=tools, tools_after=tools)
