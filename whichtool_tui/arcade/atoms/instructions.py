"""``poison.instructions``: does the presented text carry imperatives aimed at the model?

Judged from the listed text alone, by the documented rule set in ``arcade.instructions``
(hidden blocks, concealment from the user, secret paths, instruction overrides, imperatives
naming another listed tool); every hit is reported with its rule and matched span.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    tool_infos,
)
from whichtool_tui.arcade.instructions import CROSS_TOOL, RULES, scan_menu
from whichtool_tui.arcade.receipt import AtomResult, Verdict

MAX_SHOWN = 12


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List once; one check per rule, FAIL iff any rule matched."""
    raw = await wire.list_tools()
    hits = scan_menu(raw)
    checks = []
    for rule in [r for r, _about, _p in RULES] + [CROSS_TOOL]:
        mine = [h.describe() for h in hits if h.rule == rule]
        more = f" (+{len(mine) - MAX_SHOWN} more)" if len(mine) > MAX_SHOWN else ""
        detail = "; ".join(mine[:MAX_SHOWN]) + more if mine else "no match"
        checks.append(check(rule, "fail" if mine else "pass", detail))
    tools = tool_infos(raw)
    verdict: Verdict = "fail" if hits else "pass"
    return atom_result(ctx, verdict, checks, tools_before=tools, tools_after=tools)
